// The emulator as an OAuth 2.1 authorization server, over plain HTTP.
import { describe, expect, it } from 'vitest';
import { call, sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { decide, pkcePair, signInDirectly, tokenRequest } from '../helpers/oauth.js';
import { DEMO_PROJECT } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'current' });
const REDIRECT = 'http://127.0.0.1:9/callback';

async function register(name = 'test client', redirectUris: unknown = [REDIRECT]): Promise<Response> {
  return fetch(`${emulator.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' }),
  });
}

function authorizeUrl(params: Record<string, string>): URL {
  const url = new URL(`${emulator.url}/oauth/authorize`);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

async function codeFor(clientId: string, challenge: string, redirectUri = REDIRECT): Promise<string> {
  const callback = await decide(
    authorizeUrl({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
    }),
    'approve',
  );
  expect(callback.searchParams.get('state')).toBe('xyz');
  return callback.searchParams.get('code') ?? '';
}

describe('emulator: OAuth metadata', () => {
  it('serves the protected-resource metadata (RFC 9728) and the server metadata (RFC 8414)', async () => {
    const resource = await call(emulator, '/.well-known/oauth-protected-resource', { token: null });
    expect(resource.status).toBe(200);
    expect(await resource.json()).toEqual({
      resource: emulator.url,
      authorization_servers: [emulator.url],
      bearer_methods_supported: ['header'],
      resource_name: 'Project Data Service (emulator)',
    });
    const server = await call(emulator, '/.well-known/oauth-authorization-server', { token: null });
    expect(await server.json()).toMatchObject({
      issuer: emulator.url,
      authorization_endpoint: `${emulator.url}/oauth/authorize`,
      token_endpoint: `${emulator.url}/oauth/token`,
      registration_endpoint: `${emulator.url}/oauth/register`,
      revocation_endpoint: `${emulator.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('names the metadata in the WWW-Authenticate of a 401', async () => {
    const missing = await call(emulator, '/v1/projects', { token: null });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${emulator.url}/.well-known/oauth-protected-resource"`,
    );
    const wrong = await call(emulator, '/v1/projects', { token: 'nope' });
    expect(wrong.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${emulator.url}/.well-known/oauth-protected-resource", error="invalid_token"`,
    );
  });
});

describe('emulator: registration and consent', () => {
  it('registers a public client and refuses bad metadata', async () => {
    const ok = await register();
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({
      client_name: 'test client',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const bad = await register('x', []);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: 'invalid_redirect_uri',
      error_description: 'redirect_uris must be 1 to 10 URLs, each https or http to a loopback address',
    });
    const notJson = await fetch(`${emulator.url}/oauth/register`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('shows the client name (escaped), the organization and the reach on the consent page', async () => {
    const { client_id } = (await (await register('<b>Evil & Co</b>')).json()) as { client_id: string };
    const page = await fetch(
      authorizeUrl({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 's',
      }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('<span id="client-name">&#60;b&#62;Evil &#38; Co&#60;/b&#62;</span>');
    expect(html).not.toContain('<b>Evil');
    expect(html).toContain('<strong id="organization">Demo Music Group</strong>');
    expect(html).toContain('all 2 of its projects: Northern Lights Catalog, Harbor Sessions');
    expect(html).toContain('value="approve">Approve</button>');
    expect(html).toContain('value="deny">Deny</button>');
  });

  it('accepts any port of a registered loopback redirect (RFC 8252 7.3), but no other URI', async () => {
    const { client_id } = (await (await register('c', ['http://127.0.0.1/callback'])).json()) as { client_id: string };
    const base = {
      response_type: 'code',
      client_id,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: 's',
    };
    expect((await fetch(authorizeUrl({ ...base, redirect_uri: 'http://127.0.0.1:51234/callback' }))).status).toBe(200);
    const other = await fetch(authorizeUrl({ ...base, redirect_uri: 'http://127.0.0.1:51234/elsewhere' }));
    expect(other.status).toBe(400);
    expect(await other.text()).toContain('redirect_uri is not one the client registered');
    const unknown = await fetch(authorizeUrl({ ...base, client_id: 'nobody', redirect_uri: REDIRECT }), {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(400);
  });

  it('sends a request without PKCE back to the client with an error', async () => {
    const { client_id } = (await (await register()).json()) as { client_id: string };
    const answer = await fetch(authorizeUrl({ response_type: 'code', client_id, redirect_uri: REDIRECT, state: 's' }), {
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      state: 's',
      error: 'invalid_request',
      error_description: 'code_challenge is required (PKCE)',
    });
  });

  it('redirects Deny as access_denied with the state', async () => {
    const { client_id } = (await (await register()).json()) as { client_id: string };
    const callback = await decide(
      authorizeUrl({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 'st',
      }),
      'deny',
    );
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('st');
    expect(callback.searchParams.get('code')).toBeNull();
  });
});

describe('emulator: tokens', () => {
  it('exchanges a code with the right verifier; the access token works on every endpoint', async () => {
    const grant = await signInDirectly(emulator);
    expect(grant).toMatchObject({ expires_in: 3600 });
    for (const path of [
      '/v1/projects',
      `/v1/projects/${DEMO_PROJECT}`,
      `/v1/contracts?projectId=${DEMO_PROJECT}`,
      `/v1/entities?projectId=${DEMO_PROJECT}`,
    ]) {
      expect((await call(emulator, path, { token: grant.access_token })).status, path).toBe(200);
    }
    const projects = (await (await call(emulator, '/v1/projects', { token: grant.access_token })).json()) as {
      data: unknown[];
    };
    expect(projects.data).toHaveLength(2);
  });

  it('refuses a verifier that does not match the challenge (PKCE), and then the code is spent', async () => {
    const { client_id } = (await (await register()).json()) as { client_id: string };
    const code = await codeFor(client_id, pkcePair().challenge);
    const wrong = await tokenRequest(emulator, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: pkcePair().verifier,
    });
    expect(wrong).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge (PKCE)' },
    });
  });

  it('refuses an expired code', async () => {
    const { client_id } = (await (await register()).json()) as { client_id: string };
    const pkce = pkcePair();
    const code = await codeFor(client_id, pkce.challenge);
    const stored = emulator.oauth.codes.get(code);
    if (!stored) throw new Error('no code');
    stored.expires_ms = Date.now() - 1;
    const answer = await tokenRequest(emulator, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: pkce.verifier,
    });
    expect(answer).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'authorization code expired' },
    });
  });

  it('refuses a reused code and revokes what it gave the first time', async () => {
    const { client_id } = (await (await register()).json()) as { client_id: string };
    const pkce = pkcePair();
    const code = await codeFor(client_id, pkce.challenge);
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: pkce.verifier,
    };
    const first = await tokenRequest(emulator, form);
    expect(first.status).toBe(200);
    const again = await tokenRequest(emulator, form);
    expect(again).toEqual({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'authorization code already used; the tokens issued for it are revoked',
      },
    });
    expect((await call(emulator, '/v1/projects', { token: first.body.access_token as string })).status).toBe(401);
  });

  it('rotates the refresh token; reusing an old one revokes the whole grant', async () => {
    const grant = await signInDirectly(emulator);
    const refreshed = await tokenRequest(emulator, {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: grant.client_id,
    });
    expect(refreshed.status).toBe(200);
    const next = refreshed.body as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(grant.refresh_token);
    expect(next.access_token).not.toBe(grant.access_token);
    expect((await call(emulator, '/v1/projects', { token: next.access_token })).status).toBe(200);

    const reused = await tokenRequest(emulator, {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: grant.client_id,
    });
    expect(reused).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'refresh token already used; the grant is revoked' },
    });
    // The whole grant: the newest tokens stop working too.
    expect((await call(emulator, '/v1/projects', { token: next.access_token })).status).toBe(401);
    const newest = await tokenRequest(emulator, {
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: grant.client_id,
    });
    expect(newest).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'refresh token is invalid or revoked' },
    });
  });

  it('revokes a grant by its refresh token (RFC 7009), and answers 200 for an unknown token', async () => {
    const grant = await signInDirectly(emulator);
    const revoke = (token: string) =>
      fetch(`${emulator.url}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token }) });
    expect((await revoke(grant.refresh_token)).status).toBe(200);
    expect((await call(emulator, '/v1/projects', { token: grant.access_token })).status).toBe(401);
    expect((await revoke('unknown')).status).toBe(200);
  });

  it('lets access tokens expire after --token-ttl', async () => {
    const short = await testEmulator({ flavor: 'current', tokenTtlSeconds: 1 });
    try {
      const grant = await signInDirectly(short);
      expect(grant.expires_in).toBe(1);
      expect((await call(short, '/v1/projects', { token: grant.access_token })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await call(short, '/v1/projects', { token: grant.access_token })).status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('refuses an unknown grant type', async () => {
    expect(await tokenRequest(emulator, { grant_type: 'password' })).toEqual({
      status: 400,
      body: {
        error: 'unsupported_grant_type',
        error_description: 'grant_type must be authorization_code or refresh_token',
      },
    });
  });

  it('keeps a sandbox session across a refresh of its access token (one grant, one session)', async () => {
    const grant = await signInDirectly(emulator);
    const sandbox = `/v1/projects/${DEMO_PROJECT}/sandbox`;
    expect((await call(emulator, `${sandbox}/connect`, { method: 'POST', token: grant.access_token })).status).toBe(
      200,
    );
    const refreshed = await tokenRequest(emulator, {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: grant.client_id,
    });
    const next = refreshed.body as { access_token: string };
    expect(next.access_token).not.toBe(grant.access_token);
    const files = await call(emulator, `${sandbox}/files?path=stats.yaml`, { token: next.access_token });
    expect(files.status).toBe(200);
    // Another grant has no session of its own yet.
    const other = await signInDirectly(emulator);
    expect((await call(emulator, `${sandbox}/files?path=stats.yaml`, { token: other.access_token })).status).toBe(400);
  });
});

// `pds auth login --web` and a browser sign-in in use, in-process against the emulator; the test
// plays the browser over plain HTTP (test/process/auth-browser.test.ts uses a real Chromium).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerOf, sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir, runCli, type RunOptions } from '../helpers/cli.js';
import {
  captureBrowser,
  decide,
  deliver,
  pkcePair,
  readProfiles,
  signInDirectly,
  storedOAuth,
  tokenRequest,
  writeProfiles,
  type CapturedBrowser,
} from '../helpers/oauth.js';
import type { Emulator } from '../../src/emulator/server.js';
import { startPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
/** How many projects the emulator answers the organization (a browser sign-in is the organization's). */
let projectCount: number;
beforeAll(async () => {
  projectCount = (await answerOf<unknown[]>(emulator, '/v1/projects')).length;
  // More than one: the messages say "projects", and `pds use` has a choice to make.
  expect(projectCount).toBeGreaterThan(1);
});
let dir: string;
let browser: CapturedBrowser;
beforeEach(() => {
  dir = freshConfigDir();
  browser = captureBrowser();
});

const pds = (args: string[], options: RunOptions = {}, target: Emulator | string = emulator) =>
  runCli(typeof target === 'string' ? target : target.url, args, {
    token: null,
    project: null,
    ...options,
    env: { PDS_CONFIG_DIR: dir, BROWSER: browser.command, ...options.env },
  });
const configFile = () => join(dir, 'config.json');
const paths = () => emulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
const SIGN_IN_LINES = (authorize: URL) =>
  `Opened the browser to sign in at ${emulator.url}. If it did not open, visit:\n  ${authorize.href}\nWaiting for the browser (at most 5 minutes; Ctrl-C cancels)…\n`;

describe('pds auth login --web', () => {
  it('discovers, registers, opens the browser, and on Approve stores the grant (0600)', async () => {
    const login = pds(['auth', 'login', '--web']);
    const url = await browser.url();
    expect(url.origin + url.pathname).toBe(`${emulator.url}/oauth/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', resource: emulator.url });
    expect(params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(params.state).toMatch(/^[\w-]{32}$/);
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);

    const page = await deliver(await decide(url, 'approve'));
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      `pds is signed in to ${emulator.url} as organization (${projectCount} projects). You can close this tab.`,
    );
    const result = await login;
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr:
        `${SIGN_IN_LINES(url)}warning: no keychain to keep the credential in (no D-Bus session, so no Secret Service): it is kept in ${configFile()} (mode 0600)\nLogged in to ${emulator.url} as organization (${projectCount} projects) through the browser (profile default)\n` +
        `Next: choose a project with \`pds use <name>\` (\`pds projects ls\` lists the ${projectCount})\n`,
    });
    expect(paths()).toEqual([
      'GET /.well-known/oauth-protected-resource 200',
      'GET /.well-known/oauth-authorization-server 200',
      'POST /oauth/register 201',
      'GET /oauth/authorize 200',
      'POST /oauth/authorize 302',
      'POST /oauth/token 200',
      'GET /v1/projects 200',
    ]);
    const { oauth } = readProfiles(dir).default as { oauth: Record<string, string> };
    expect(Object.keys(oauth).sort()).toEqual([
      'access_token',
      'client_id',
      'expires_at',
      'issuer',
      'refresh_token',
      'revocation_endpoint',
      'token_endpoint',
    ]);
    expect(oauth.issuer).toBe(emulator.url);
    expect(Date.parse(oauth.expires_at as string) - Date.now()).toBeGreaterThan(3500_000);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);

    // The stored sign-in is used by every command; `auth status` names its kind and expiry.
    const status = await pds(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`credential\tbrowser sign-in at ${emulator.url}\n`);
    expect(status.stdout).toMatch(/\nexpires_at\t\d{4}-\d\d-\d\dT[\d:.]+Z \(in (59|60) min, refreshed as needed\)\n/);
    expect((await pds(['projects', 'ls', '-q'])).stdout.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('keeps the registered client in the profile and uses it again; registers anew when the server forgot it or the issuer changed', async () => {
    const signIn = async (): Promise<URL> => {
      const login = pds(['auth', 'login', '--web']);
      const url = await browser.url();
      await deliver(await decide(url, 'approve'));
      expect((await login).code).toBe(0);
      browser = captureBrowser();
      return url;
    };
    const clientOf = () =>
      (readProfiles(dir).default as { oauth_client: { issuer: string; client_id: string } }).oauth_client;
    const first = await signIn();
    const registered = clientOf();
    expect(registered).toEqual({ issuer: emulator.url, client_id: first.searchParams.get('client_id') });

    emulator.requests.length = 0;
    const second = await signIn();
    expect(second.searchParams.get('client_id')).toBe(registered.client_id);
    // A new loopback port each time: the client registered one, and loopback ports may vary.
    expect(second.searchParams.get('redirect_uri')).not.toBe(first.searchParams.get('redirect_uri'));
    // Not registered again: the authorization request is tried first, and taken (200).
    expect(paths().filter((line) => line.startsWith('POST /oauth/register'))).toEqual([]);
    expect(paths().slice(0, 3)).toEqual([
      'GET /.well-known/oauth-protected-resource 200',
      'GET /.well-known/oauth-authorization-server 200',
      'GET /oauth/authorize 200',
    ]);
    expect((readProfiles(dir).default as { oauth: { client_id: string } }).oauth.client_id).toBe(registered.client_id);

    // A client the server does not know (400 before any consent) is replaced by a new registration.
    writeProfiles(dir, { default: { oauth_client: { issuer: emulator.url, client_id: 'client_forgotten' } } });
    emulator.requests.length = 0;
    const third = await signIn();
    expect(paths().slice(2, 4)).toEqual(['GET /oauth/authorize 400', 'POST /oauth/register 201']);
    expect(third.searchParams.get('client_id')).not.toBe('client_forgotten');
    expect(clientOf()).toEqual({ issuer: emulator.url, client_id: third.searchParams.get('client_id') });

    // A client of another issuer is not even tried.
    writeProfiles(dir, {
      default: { oauth_client: { issuer: 'http://127.0.0.1:9', client_id: registered.client_id } },
    });
    emulator.requests.length = 0;
    const fourth = await signIn();
    expect(paths().slice(2, 3)).toEqual(['POST /oauth/register 201']);
    expect(fourth.searchParams.get('client_id')).not.toBe(registered.client_id);
    expect(clientOf().issuer).toBe(emulator.url);
  });

  it('replaces a stored API token, and a token login replaces a browser sign-in', async () => {
    writeProfiles(dir, { default: { token: 'demo-org-token', project: 'kept' } });
    const login = pds(['auth', 'login', '--web']);
    await deliver(await decide(await browser.url(), 'approve'));
    expect((await login).code).toBe(0);
    expect(Object.keys(readProfiles(dir).default ?? {}).sort()).toEqual(['oauth', 'oauth_client', 'project']);
    const replaced = (readProfiles(dir).default as { oauth: { refresh_token: string } }).oauth.refresh_token;
    emulator.requests.length = 0;
    expect((await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' })).code).toBe(0);
    expect(readProfiles(dir).default).toEqual({
      token: 'demo-org-token',
      project: 'kept',
      oauth_client: { issuer: emulator.url, client_id: expect.any(String) },
    });
    // The browser sign-in it replaced is revoked at the server, not left valid there.
    expect(paths()).toEqual(['GET /v1/projects 200', 'POST /oauth/revoke 200']);
    expect(emulator.oauth.grantActive(replaced)).toBe(false);
  });

  it('prints the URL instead with --no-browser, and takes --oauth-issuer and --client-id (real process)', async () => {
    const client = emulator.oauth.register({
      client_name: 'preregistered',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const login = startPds(
      ['auth', 'login', '--web', '--no-browser', '--oauth-issuer', emulator.url, '--client-id', client.client_id],
      {
        env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, BROWSER: browser.command, PDS_TOKEN: undefined },
      },
    );
    await login.waitFor(/Waiting for the browser/);
    const printed = /Open this URL in a browser to sign in:\n {2}(\S+)\n/.exec(login.stderr())?.[1];
    const url = new URL(printed ?? '');
    expect(url.searchParams.get('client_id')).toBe(client.client_id);
    await deliver(await decide(url, 'approve'));
    const result = await login.exited;
    expect(result.code).toBe(0);
    // No registration and no protected-resource metadata: the flags gave both; no browser started.
    expect(paths().slice(0, 2)).toEqual([
      'GET /.well-known/oauth-authorization-server 200',
      'GET /oauth/authorize 200',
    ]);
    await expect(browser.url(200)).rejects.toThrow('pds did not open a browser');
    expect((readProfiles(dir).default as { oauth: { client_id: string } }).oauth.client_id).toBe(client.client_id);
  });

  it('--no-browser takes the address the browser ended on, pasted (a browser on another machine; real process)', async () => {
    const login = startPds(['auth', 'login', '--web', '--no-browser'], {
      env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, BROWSER: browser.command, PDS_TOKEN: undefined },
      openStdin: true,
    });
    await login.waitFor(/Waiting for the browser/);
    expect(login.stderr()).toContain('paste that address here');
    const printed = /Open this URL in a browser to sign in:\n {2}(\S+)\n/.exec(login.stderr())?.[1];
    // The other machine's browser ends on the redirect address, which it cannot load: it is pasted.
    const redirect = await decide(new URL(printed ?? ''), 'approve');
    login.child.stdin?.write('https://example.com/callback?code=x\n');
    await login.waitFor(/that is not the address pds waits for/);
    login.child.stdin?.write(`${redirect.href}\n`);
    const result = await login.exited;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `Logged in to ${emulator.url} as organization (${projectCount} projects) through the browser (profile default)\n`,
    );
    expect(paths()).toContain('POST /oauth/token 200');
    expect(Object.keys(readProfiles(dir).default ?? {}).sort()).toEqual(['oauth', 'oauth_client']);
    // Nothing ever reached the loopback, and no browser was started.
    await expect(browser.url(200)).rejects.toThrow('pds did not open a browser');
  });

  describe('bad answers: a clear message, exit 3, no credential stored', () => {
    const refused = async (expected: string, tamper: (url: URL) => Promise<URL>) => {
      const login = pds(['auth', 'login', '--web']);
      const url = await browser.url();
      const page = await deliver(await tamper(url));
      expect(page.status).toBe(400);
      expect(page.text).toContain('Sign-in failed');
      const result = await login;
      expect(result).toEqual({
        code: 3,
        stdout: '',
        stderr: `${SIGN_IN_LINES(url)}error: ${expected}\n  nothing was saved; run \`pds auth login --web\` again\n`,
      });
      // Not even the client registered for it: a failed sign-in leaves the config as it was.
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
      expect(paths()).not.toContain('GET /v1/projects 200');
    };

    it('Deny', async () => {
      await refused('sign-in was denied in the browser', (url) => decide(url, 'deny'));
    });

    it('a wrong state is turned away (400) and the sign-in waits for the right one; no code exchanged for it', async () => {
      const login = pds(['auth', 'login', '--web']);
      const url = await browser.url();
      const callback = await decide(url, 'approve');
      const forged = new URL(callback);
      forged.searchParams.set('state', 'forged');
      expect(await deliver(forged)).toEqual({ status: 400, text: 'not the sign-in pds is waiting for\n' });
      expect(paths().filter((p) => p.startsWith('POST /oauth/token'))).toEqual([]);
      expect((await deliver(callback)).status).toBe(200);
      expect((await login).code).toBe(0);
    });

    it('a code bound to another PKCE challenge', async () => {
      await refused(
        'the authorization server refused the code: code_verifier does not match the code_challenge (PKCE)',
        async (url) => {
          // An approval of the same client and redirect, but for a challenge pds did not make.
          const params = new URLSearchParams(url.searchParams);
          params.set('code_challenge', pkcePair().challenge);
          const other = new URL(url);
          other.search = params.toString();
          return decide(other, 'approve', params);
        },
      );
    });

    it('an expired code', async () => {
      await refused('the authorization server refused the code: authorization code expired', async (url) => {
        const callback = await decide(url, 'approve');
        const code = emulator.oauth.codes.get(callback.searchParams.get('code') ?? '');
        if (code) code.expires_ms = Date.now() - 1;
        return callback;
      });
    });

    it('a code already used', async () => {
      await refused(
        'the authorization server refused the code: authorization code already used; the tokens issued for it are revoked',
        async (url) => {
          const callback = await decide(url, 'approve');
          const code = emulator.oauth.codes.get(callback.searchParams.get('code') ?? '');
          if (code) code.grant_id = 'grant_spent';
          return callback;
        },
      );
    });
  });

  it('over a config file that is not JSON: a denied sign-in leaves it as it was; an approved one sets it aside and keeps the client', async () => {
    const broken = '{"profiles": {"default": {"token": "ab';
    writeFileSync(configFile(), broken);
    const denied = pds(['auth', 'login', '--web']);
    await deliver(await decide(await browser.url(), 'deny'));
    expect((await denied).code).toBe(3);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(readFileSync(configFile(), 'utf8')).toBe(broken);

    browser = captureBrowser();
    const approved = pds(['auth', 'login', '--web']);
    const url = await browser.url();
    await deliver(await decide(url, 'approve'));
    const result = await approved;
    expect(result.code).toBe(0);
    const aside = readdirSync(dir).find((name) => name.startsWith('config.json.broken-')) as string;
    expect(readFileSync(join(dir, aside), 'utf8')).toBe(broken);
    expect(result.stderr).toContain(
      `warning: the config file ${configFile()} is not valid JSON: moved it to ${join(dir, aside)}; logging in writes a new one\n`,
    );
    const stored = readProfiles(dir).default as { oauth: Record<string, string>; oauth_client: Record<string, string> };
    expect(stored.oauth_client).toEqual({ issuer: emulator.url, client_id: url.searchParams.get('client_id') });
    expect(stored.oauth.issuer).toBe(emulator.url);
  });

  it('names --oauth-issuer when the service does not say where to sign in', async () => {
    const bare: Server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
      const result = await pds(['auth', 'login', '--web'], {}, url);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `error: ${url} does not say where to sign in (no protected-resource metadata)\n` +
          '  pass the authorization server with --oauth-issuer <url>, or sign in with a token: `pds auth login --with-token`\n',
      });
      expect(existsSync(configFile())).toBe(false);
    } finally {
      bare.closeAllConnections();
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('follows the resource_metadata of a 401 when the well-known URL is missing', async () => {
    // An API with no well-known metadata that names its metadata in the 401; the emulator signs in.
    // Metadata about another resource (the emulator's own) is refused: RFC 9728 section 3.3.
    let named = '';
    let url = '';
    const front: Server = createServer((req, res) => {
      if (req.url === '/metadata')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: url, authorization_servers: [emulator.url] }));
      if (req.url?.startsWith('/.well-known/')) return res.writeHead(404).end();
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${named}"` }).end('{}');
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      named = `${emulator.url}/.well-known/oauth-protected-resource`;
      const foreign = await pds(['auth', 'login', '--web'], {}, url);
      expect(foreign.code).toBe(4);
      expect(foreign.stderr).toBe(
        `error: the protected-resource metadata of ${url}/ is for another resource (${emulator.url}); refusing it\n` +
          '  a token obtained through it could be meant for, or sent to, another service; sign in with a token instead: `pds auth login --with-token`\n',
      );
      named = `${url}/metadata`;
      const login = pds(['auth', 'login', '--web'], {}, url);
      const authorize = await browser.url();
      expect(authorize.origin).toBe(emulator.url);
      expect(authorize.searchParams.get('resource')).toBe(url);
      await deliver(await decide(authorize, 'deny'));
      expect((await login).code).toBe(3);
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('exits 2 when both a token and --web are given', async () => {
    const result = await pds(['auth', 'login', '--web', '--with-token'], { stdin: 'x' });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: sign in either with a browser (--web) or with a token (--with-token, --token), not both\n',
    });
  });
});

describe('a browser sign-in in use', () => {
  const signedIn = async (target: Emulator, expiresInMs: number, extra: Record<string, unknown> = {}) => {
    const grant = await signInDirectly(target);
    const oauth = storedOAuth(target, grant, new Date(Date.now() + expiresInMs));
    writeProfiles(dir, { default: { oauth, ...extra } });
    target.requests.length = 0;
    return { grant, oauth };
  };
  const storedOauth = () => (readProfiles(dir).default as { oauth?: Record<string, string> }).oauth;

  it('refreshes before expiry, stores the rotated tokens under the lock (0600), and the old refresh token is spent', async () => {
    const { grant } = await signedIn(emulator, 10_000);
    const result = await pds(['projects', 'ls', '-q']);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['POST /oauth/token 200', 'GET /v1/projects 200']);
    const stored = storedOauth();
    expect(stored?.refresh_token).not.toBe(grant.refresh_token);
    expect(stored?.access_token).not.toBe(grant.access_token);
    expect(emulator.requests[1]?.headers.authorization).toBe(`Bearer ${stored?.access_token}`);
    expect(Date.parse(stored?.expires_at ?? '') - Date.now()).toBeGreaterThan(3500_000);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(existsSync(`${configFile()}.lock`)).toBe(false);
    // A second run uses the new access token without refreshing.
    emulator.requests.length = 0;
    expect((await pds(['projects', 'ls', '-q'])).code).toBe(0);
    expect(paths()).toEqual(['GET /v1/projects 200']);
  });

  it('refreshes once on a 401 and repeats the request', async () => {
    const { grant } = await signedIn(emulator, 3600_000);
    emulator.oauth.revoke(grant.access_token);
    const result = await pds(['projects', 'ls', '-q']);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /v1/projects 401', 'POST /oauth/token 200', 'GET /v1/projects 200']);
    expect(storedOauth()?.refresh_token).not.toBe(grant.refresh_token);
  });

  it('refreshes on a 401 for an upload and sends it again (the service refused it before acting)', async () => {
    const { grant } = await signedIn(emulator, 3600_000);
    emulator.oauth.revoke(grant.access_token);
    const sample = new URL('../fixtures/sample.pdf', import.meta.url).pathname;
    const result = await pds(['upload', 'contract', sample, '-q'], { project: DEMO_PROJECT });
    expect(result.code).toBe(0);
    // The mint of the signed-URL flow is what the service refused; the PUT goes to the storage host.
    expect(paths()).toEqual([
      'POST /v1/contracts/uploads 401',
      'POST /oauth/token 200',
      'POST /v1/contracts/uploads 200',
      'POST /v1/contracts/uploads/complete 200',
    ]);
    expect(emulator.state.uploads.at(-1)?.file_name).toBe('sample.pdf');
  });

  it('exits 3 when the refreshed token is refused too, after one refresh', async () => {
    const { grant } = await signedIn(emulator, 3600_000);
    emulator.oauth.revoke(grant.access_token);
    const realScope = emulator.oauth.scopeOf.bind(emulator.oauth);
    emulator.oauth.scopeOf = () => undefined;
    try {
      const result = await pds(['projects', 'ls']);
      expect(result.code).toBe(3);
      expect(paths()).toEqual(['GET /v1/projects 401', 'POST /oauth/token 200', 'GET /v1/projects 401']);
    } finally {
      emulator.oauth.scopeOf = realScope;
    }
  });

  it('a reused (already rotated) refresh token: exit 3 with how to sign in again, nothing written', async () => {
    const { grant, oauth } = await signedIn(emulator, -1000);
    // Someone else spent the refresh token: the stored one is now a reuse, which revokes the grant.
    expect(
      (
        await tokenRequest(emulator, {
          grant_type: 'refresh_token',
          refresh_token: grant.refresh_token,
          client_id: grant.client_id,
        })
      ).status,
    ).toBe(200);
    emulator.requests.length = 0;
    const result = await pds(['projects', 'ls']);
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: the browser sign-in of profile default could not be refreshed: refresh token already used; the grant is revoked\n' +
        '  sign in again with `pds auth login --web`\n',
    });
    expect(paths()).toEqual(['POST /oauth/token 400']);
    expect(storedOauth()).toEqual(oauth);
  });

  it('`auth token` prints a valid access token, refreshing an expired one', async () => {
    const { grant } = await signedIn(emulator, -1000);
    const result = await pds(['auth', 'token']);
    expect(result.code).toBe(0);
    const stored = storedOauth();
    expect(result.stdout).toBe(`${stored?.access_token}\n`);
    expect(stored?.access_token).not.toBe(grant.access_token);
  });

  it('PDS_TOKEN wins over a stored browser sign-in: no refresh, its token sent', async () => {
    await signedIn(emulator, -1000);
    const result = await pds(['projects', 'ls', '-q'], { env: { PDS_TOKEN: 'demo-project-token' } });
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /v1/projects 200']);
    expect(emulator.requests[0]?.headers.authorization).toBe('Bearer demo-project-token');
    expect((await pds(['auth', 'token'], { env: { PDS_TOKEN: 'demo-project-token' } })).stdout).toBe(
      'demo-project-token\n',
    );
  });

  it('`config list` names the browser sign-in, its token masked', async () => {
    const { oauth } = await signedIn(emulator, 3600_000);
    const result = await pds(['config', 'list']);
    expect(result).toEqual({
      code: 0,
      stdout: `token\t${(oauth.access_token ?? '').slice(0, 4)}… (browser sign-in at ${emulator.url})\n`,
      stderr: '',
    });
    expect(result.stdout).not.toContain(oauth.access_token);
  });

  it('logout revokes the grant at the server and forgets it locally', async () => {
    const { grant } = await signedIn(emulator, 3600_000, { project: 'kept' });
    const result = await pds(['auth', 'logout']);
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: `Logged out of ${emulator.url} (profile default); the sign-in is revoked at the server\n`,
    });
    expect(paths()).toEqual(['POST /oauth/revoke 200']);
    expect(emulator.oauth.grantActive(grant.refresh_token)).toBe(false);
    expect(readProfiles(dir)).toEqual({ default: { project: 'kept' } });
  });

  it('logout forgets the sign-in even when the server cannot be reached, with a warning', async () => {
    const other = await testEmulator({ flavor: 'current' });
    const { oauth } = await signedIn(other, 3600_000);
    await other.close();
    const result = await pds(['auth', 'logout'], { maxRetries: 0 });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(
        `^warning: could not revoke the sign-in at ${oauth.issuer}: cannot reach ${oauth.issuer} \\(ECONNREFUSED\\)\\n`,
      ),
    );
    expect(readProfiles(dir)).toEqual({ default: {} });
  });

  it('`auth status` shows what is stored when the service cannot be reached (exit 1)', async () => {
    const other = await testEmulator({ flavor: 'current' });
    const { oauth } = await signedIn(other, 3600_000);
    await other.close();
    const result = await pds(['auth', 'status'], { maxRetries: 0 }, other.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `warning: the service did not answer (cannot reach ${other.url} (ECONNREFUSED)); showing what is stored\n`,
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `^profile\tdefault\napi_url\t${other.url}, from PDS_API_URL\ncredential\tbrowser sign-in at ${oauth.issuer}\ntoken\tat_.…, from profile default\nstored_in\t${configFile()}\n` +
          'expires_at\t.+ \\(in (59|60) min, refreshed as needed\\)\nscope\tnot known \\(the service did not answer\\)\ndefault_project\tnone \\(set one with `pds use <project>`\\)\n$',
      ),
    );
    const json = await pds(['auth', 'status', '--json'], { maxRetries: 0 }, other.url);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      credential: 'oauth',
      reachable: false,
      scope: null,
      issuer: oauth.issuer,
    });
  });
});

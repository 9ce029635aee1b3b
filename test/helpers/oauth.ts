// Browser sign-in in tests: a BROWSER command that hands the URL pds opens to the test, a plain
// HTTP "browser" that answers the emulator's consent page, and a sign-in done by the test itself
// (register, approve, exchange) to give a profile stored credentials.
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '../../src/emulator/server.js';

export interface CapturedBrowser {
  /** `BROWSER` for the environment of pds. */
  command: string;
  /** The URL pds asked the browser to open. */
  url(timeoutMs?: number): Promise<URL>;
}

/** A BROWSER command that writes its one argument to a file the test watches. */
export function captureBrowser(): CapturedBrowser {
  const dir = mkdtempSync(join(tmpdir(), 'pds-browser-'));
  const file = join(dir, 'url');
  const command = join(dir, 'browser');
  // Shell builtins only: pds in-process runs it with the test's small environment (no PATH).
  writeFileSync(command, `#!/bin/sh\nprintf '%s\\n' "$1" > '${file}'\n`);
  chmodSync(command, 0o755);
  return {
    command,
    async url(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (existsSync(file)) {
          const text = readFileSync(file, 'utf8');
          if (text.endsWith('\n')) return new URL(text.trim());
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('pds did not open a browser');
    },
  };
}

/**
 * What a browser does on the consent page: loads it, then submits Approve or Deny. Returns the
 * URL the emulator redirects to (the loopback callback), not yet followed.
 */
export async function decide(
  authorizeUrl: URL,
  decision: 'approve' | 'deny',
  params = authorizeUrl.searchParams,
): Promise<URL> {
  const page = await fetch(authorizeUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${await page.text()}`);
  await page.text();
  const form = new URLSearchParams(params);
  form.set('decision', decision);
  const answer = await fetch(new URL('/oauth/authorize', authorizeUrl), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  await answer.text();
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`authorize answered ${answer.status}`);
  return new URL(location);
}

/** Follows the redirect to pds's loopback server, as the browser would; returns the page. */
export async function deliver(callback: URL): Promise<{ status: number; text: string }> {
  const response = await fetch(callback);
  return { status: response.status, text: await response.text() };
}

export const pkcePair = (): { verifier: string; challenge: string } => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export interface Grant {
  client_id: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** A sign-in done by the test over HTTP: register, approve, exchange the code. */
export async function signInDirectly(emulator: Emulator, redirectUri = 'http://127.0.0.1:9/callback'): Promise<Grant> {
  const registered = (await (
    await fetch(`${emulator.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'test client',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    })
  ).json()) as { client_id: string };
  const { verifier, challenge } = pkcePair();
  const authorize = new URL(`${emulator.url}/oauth/authorize`);
  for (const [key, value] of Object.entries({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 's',
  })) {
    authorize.searchParams.set(key, value);
  }
  const callback = await decide(authorize, 'approve');
  const code = callback.searchParams.get('code') ?? '';
  const tokens = await tokenRequest(emulator, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: registered.client_id,
    code_verifier: verifier,
  });
  if (tokens.status !== 200) throw new Error(`token answered ${tokens.status}`);
  return { client_id: registered.client_id, ...(tokens.body as Omit<Grant, 'client_id'>) };
}

export async function tokenRequest(
  emulator: Emulator,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${emulator.url}/oauth/token`, { method: 'POST', body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The profile entry pds keeps for a browser sign-in. */
export function storedOAuth(emulator: Emulator, grant: Grant, expiresAt: Date): Record<string, string> {
  return {
    issuer: emulator.url,
    client_id: grant.client_id,
    token_endpoint: `${emulator.url}/oauth/token`,
    revocation_endpoint: `${emulator.url}/oauth/revoke`,
    access_token: grant.access_token,
    refresh_token: grant.refresh_token,
    expires_at: expiresAt.toISOString(),
  };
}

/** Writes a config file with these profiles (mode 0600), as pds would have. */
export function writeProfiles(dir: string, profiles: Record<string, Record<string, unknown>>): void {
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }, null, 2), { mode: 0o600 });
}

export function readProfiles(dir: string): Record<string, Record<string, unknown>> {
  return (
    JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> }
  ).profiles;
}

// Issue 20, sign-in and requests: what the built pds refuses from a hostile authorization server,
// a stray request to its loopback port, odd stdin, and `pds api` input that would leave /v1/.
// A rogue server (loopback) plays the API and its authorization server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { freshConfigDir } from '../helpers/cli.js';
import { captureBrowser, decide, deliver, readProfiles, writeProfiles } from '../helpers/oauth.js';
import { runPds, signedInEnv, startPds } from '../helpers/process.js';
import { startRogueServer, type RogueServer } from '../helpers/rogue-server.js';

const emulator = sharedEmulator({ flavor: 'current' });
let rogue: RogueServer | undefined;
afterEach(async () => {
  await rogue?.close();
  rogue = undefined;
});

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

interface FakeService {
  resource?: (url: string) => string | undefined;
  authorizationEndpoint?: (url: string) => string;
  /** The token endpoint's answer to a refresh. */
  refreshAnswer?: Record<string, unknown>;
}

/** An API and its authorization server in one, as generous as the test says. */
async function fakeService(options: FakeService): Promise<RogueServer> {
  let base = '';
  const server = await startRogueServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', base).pathname;
    if (path === '/.well-known/oauth-protected-resource') {
      const resource = options.resource ? options.resource(base) : base;
      return json(res, 200, { ...(resource === undefined ? {} : { resource }), authorization_servers: [base] });
    }
    if (path === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: options.authorizationEndpoint
          ? options.authorizationEndpoint(base)
          : `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (path === '/token') return json(res, 200, options.refreshAnswer ?? {});
    if (path === '/v1/projects') {
      if (req.headers.authorization !== 'Bearer fresh-access')
        return json(res, 401, { error: { code: 'unauthorized', message: 'expired' } });
      return json(res, 200, { data: [] });
    }
    return json(res, 201, { client_id: 'registered' });
  });
  base = server.url;
  return server;
}

const seen = (server: RogueServer) => server.requests.map((r) => `${r.method} ${new URL(r.url, server.url).pathname}`);

describe('1. only web URLs are opened or printed for sign-in', () => {
  const hostile = [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://attacker.example/share',
    'ms-calculator:',
    'https://ok.example/\nINJECTED',
    '-o/tmp/x',
    'https://user:pw@127.0.0.1/a',
  ];
  it.each(hostile)(
    'authorization_endpoint %j: exit 4, nothing handed to BROWSER, no client registered',
    async (endpoint) => {
      rogue = await fakeService({ authorizationEndpoint: () => endpoint });
      const browser = captureBrowser();
      const result = await runPds(['auth', 'login', '--web'], {
        env: {
          PDS_API_URL: rogue.url,
          PDS_CONFIG_DIR: freshConfigDir(),
          BROWSER: browser.command,
          PDS_TOKEN: undefined,
        },
      });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(
        /^error: refusing to open ".*": (its scheme is [\w-]+, not https|it contains a space or a control character|it starts with "-"|it carries a user name or password)\n {2}the authorization server http:\/\/127\.0\.0\.1:\d+ \(its authorization endpoint\) names it; only https:\/\/ URLs \(or http:\/\/ to this machine\) are opened\n$/,
      );
      expect(result.stdout).toBe('');
      await expect(browser.url(300)).rejects.toThrow('pds did not open a browser');
      expect(seen(rogue)).toEqual([
        'GET /.well-known/oauth-protected-resource',
        'GET /.well-known/oauth-authorization-server',
      ]);
    },
  );
});

describe('2. the protected-resource metadata must be about this API', () => {
  const cases: [string, (url: string) => string | undefined, RegExp][] = [
    [
      'another origin',
      () => 'https://other.example',
      /is for another resource \(https:\/\/other\.example\); refusing it\n/,
    ],
    [
      'another path',
      (url) => `${url}/other-api`,
      /is for another resource \(http:\/\/127\.0\.0\.1:\d+\/other-api\); refusing it\n/,
    ],
    ['no resource', () => undefined, /does not name its resource; refusing it\n/],
  ];
  it.each(cases)('%s: exit 4 before any authorization server is asked', async (_, resource, message) => {
    rogue = await fakeService({ resource });
    const browser = captureBrowser();
    const result = await runPds(['auth', 'login', '--web'], {
      env: { PDS_API_URL: rogue.url, PDS_CONFIG_DIR: freshConfigDir(), BROWSER: browser.command, PDS_TOKEN: undefined },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(message);
    expect(seen(rogue)).toEqual(['GET /.well-known/oauth-protected-resource']);
  });

  it('a resource that names the API (trailing slash or not) is taken', async () => {
    rogue = await fakeService({ resource: (url) => `${url}/` });
    const browser = captureBrowser();
    const login = startPds(['auth', 'login', '--web'], {
      env: { PDS_API_URL: rogue.url, PDS_CONFIG_DIR: freshConfigDir(), BROWSER: browser.command, PDS_TOKEN: undefined },
    });
    expect((await browser.url()).pathname).toBe('/authorize');
    login.child.kill('SIGINT');
    expect((await login.exited).code).toBe(130);
  });
});

describe('3. token lifetimes are bounded', () => {
  const lifetimes: [string, unknown][] = [
    ['absurd (1e300 s)', 1e300],
    ['over a year', 400 * 24 * 3600],
    ['negative', -5],
    ['not a number', 'soon'],
    ['missing', undefined],
  ];
  it.each(lifetimes)(
    'expires_in %s: the refresh works, the rotated refresh token is saved, the expiry unknown',
    async (_, expiresIn) => {
      rogue = await fakeService({
        refreshAnswer: {
          access_token: 'fresh-access',
          token_type: 'Bearer',
          refresh_token: 'rotated',
          ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
        },
      });
      const dir = freshConfigDir();
      writeProfiles(dir, {
        default: {
          oauth: {
            issuer: rogue.url,
            client_id: 'c',
            token_endpoint: `${rogue.url}/token`,
            access_token: 'old',
            refresh_token: 'first',
            expires_at: '2020-01-01T00:00:00.000Z',
          },
        },
      });
      const result = await runPds(['api', 'projects'], {
        env: { PDS_API_URL: rogue.url, PDS_CONFIG_DIR: dir, PDS_TOKEN: undefined },
      });
      expect(result).toMatchObject({ code: 0, stdout: '{"data":[]}\n', stderr: '' });
      const { oauth } = readProfiles(dir).default as { oauth: Record<string, string> };
      expect(oauth).toEqual({
        issuer: rogue.url,
        client_id: 'c',
        token_endpoint: `${rogue.url}/token`,
        access_token: 'fresh-access',
        refresh_token: 'rotated',
      });
      // Unknown expiry: the next run uses the token as it is, no refresh.
      rogue.requests.length = 0;
      expect(
        (
          await runPds(['api', 'projects'], {
            env: { PDS_API_URL: rogue.url, PDS_CONFIG_DIR: dir, PDS_TOKEN: undefined },
          })
        ).code,
      ).toBe(0);
      expect(seen(rogue)).toEqual(['GET /v1/projects']);
    },
  );
});

describe('4. stray requests to the loopback callback', () => {
  it('get 400 and the sign-in keeps waiting; only the right state ends it', async () => {
    const dir = freshConfigDir();
    const browser = captureBrowser();
    const login = startPds(['auth', 'login', '--web'], {
      env: { PDS_API_URL: emulator.url, PDS_CONFIG_DIR: dir, BROWSER: browser.command, PDS_TOKEN: undefined },
      killAfterMs: 30_000,
    });
    const authorize = await browser.url();
    const callback = await decide(authorize, 'approve');
    const state = authorize.searchParams.get('state') ?? '';
    const stray = async (path: string, init: RequestInit = {}) => (await fetch(new URL(path, callback), init)).status;
    expect(await stray('/favicon.ico')).toBe(400);
    expect(await stray('/')).toBe(400);
    expect(await stray(`/callback?code=x`)).toBe(400);
    expect(await stray(`/callback?code=x&state=forged`)).toBe(400);
    expect(await stray(`/callback?error=access_denied&state=forged`)).toBe(400);
    expect(await stray(`/other?code=x&state=${state}`)).toBe(400);
    expect(await stray(`/callback?code=x&state=${state}`, { method: 'POST' })).toBe(400);
    expect(login.child.exitCode).toBeNull();
    const page = await deliver(callback);
    expect(page.status).toBe(200);
    const result = await login.exited;
    expect(result.code).toBe(0);
    expect(Object.keys((readProfiles(dir).default as { oauth: object }).oauth)).toContain('refresh_token');
  });
});

describe('5. auth login --with-token reads at most 64 KiB', () => {
  it('more is a clear error, exit 2, nothing sent, nothing stored', async () => {
    const dir = freshConfigDir();
    const result = await runPds(['auth', 'login', '--with-token'], {
      env: signedInEnv(emulator.url, { PDS_TOKEN: undefined, PDS_CONFIG_DIR: dir }),
      stdin: 'x'.repeat(70 * 1024),
    });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: stdin holds more than 64 KiB, which is no token; nothing was sent\n  pipe a token in: `pds auth login --with-token < token.txt`, or sign in with a browser: `pds auth login --web`\n',
    });
    expect(emulator.requests).toEqual([]);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a long token under the limit is read and sent (the service refuses it)', async () => {
    const result = await runPds(['auth', 'login', '--with-token'], {
      env: signedInEnv(emulator.url, { PDS_TOKEN: undefined }),
      stdin: `${'x'.repeat(10 * 1024)}\n`,
    });
    expect(result.code).toBe(3);
    expect(emulator.requests).toHaveLength(1);
  });
});

describe('14. pds api paths stay under /v1/', () => {
  const paths = [
    '../admin',
    'projects/../../admin',
    '%2e%2e/admin',
    'projects/%2E%2e/%2e%2E/x',
    '.%2e/x',
    '//attacker.example/v1/projects',
    'https://attacker.example/v1/projects',
    '\\\\attacker.example/x',
    'projects\\..\\..\\x',
    'projects%2f..%2f..%2fx',
  ];
  it.each(paths)('%j: exit 2, nothing sent', async (path) => {
    const result = await runPds(['api', path], { env: signedInEnv(emulator.url) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: (give a path such as \/v1\/projects, not a URL|the path '.*' leaves \/v1\/ \(it has '\.', '\.\.' or a backslash\))/,
    );
    expect(result.stderr).toContain("requests go to the profile's service (--api-url to change it), with its token\n");
    expect(emulator.requests).toEqual([]);
  });

  it('an ordinary path with dots in a name is sent', async () => {
    const result = await runPds(['api', 'projects/a..b'], { env: signedInEnv(emulator.url) });
    expect(result.code).toBe(5);
    expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/projects/a..b']);
  });
});

describe("15. -H refuses pds's own headers and anything but visible ASCII", () => {
  const headers: [string, string][] = [
    ['Host: attacker.example', '-H cannot set Host: the host is that of the API URL (--api-url)'],
    [
      'authorization: Bearer other',
      "-H cannot set authorization: the token is the profile's (pds auth login, or PDS_TOKEN)",
    ],
    ['Content-Length: 0', '-H cannot set Content-Length: the length is that of the body pds sends'],
    ['Transfer-Encoding: chunked', '-H cannot set Transfer-Encoding: the framing is chosen by pds'],
    ['Connection: close', '-H cannot set Connection: connections are managed by pds'],
    ['X-A: b\r\nX-Injected: 1', "invalid -H 'X-A: b\\r\\nX-Injected: 1': expected 'Name: value', in visible ASCII"],
    ['X-A: caf\u00e9', "invalid -H 'X-A: café': expected 'Name: value', in visible ASCII"],
    ['X\u00c4: b', "invalid -H 'XÄ: b': expected 'Name: value', in visible ASCII"],
    ['X-A: b\u007f', "invalid -H 'X-A: b\\x7f': expected 'Name: value', in visible ASCII"],
  ];
  it.each(headers)('%j: exit 2 at once, no retries, nothing sent', async (header, message) => {
    const result = await runPds(['api', 'projects', '-H', header], { env: signedInEnv(emulator.url) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${message}\n`);
    expect(result.ms).toBeLessThan(5000);
    expect(emulator.requests).toEqual([]);
  });

  it("a visible-ASCII header of the user's own is sent", async () => {
    const result = await runPds(['api', 'projects', '-H', 'X-Trace: a b\tc', '--jq', '.data | length'], {
      env: signedInEnv(emulator.url),
    });
    expect(result).toMatchObject({ code: 0, stdout: '2\n' });
    expect(emulator.requests[0]?.headers['x-trace']).toBe('a b\tc');
  });
});

// The built CLI against a service that misbehaves: hangs, endless and cut bodies, pages that never
// end, keep-alive-only event streams, HTML error pages, 503 with Retry-After; plus the checks made
// before anything is sent (plain http, a token that cannot be a header, --timeout's range).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runPds, signedInEnv, type SpawnOptions } from '../helpers/process.js';
import { testEmulator } from '../helpers/emulator.js';
import { PAGES_AT_ONCE } from '../../src/lib/api/catalog.js';
import {
  answerBeforeBody,
  cutBody,
  DEMO_PROJECT,
  endlessBody,
  endlessEvent,
  envelopePages,
  hang,
  htmlError,
  json,
  keepAliveOnlyStream,
  pageIgnored,
  projects,
  sequence,
  startRogueServer,
  type Behaviour,
  type RogueServer,
  seedService,
} from '../helpers/rogue-server.js';

const SAMPLE_PDF = fileURLToPath(new URL('../fixtures/sample.pdf', import.meta.url));
const servers: RogueServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function rogue(behaviour: Behaviour, options: Parameters<typeof startRogueServer>[1] = {}): Promise<RogueServer> {
  const server = await startRogueServer(behaviour, options);
  servers.push(server);
  return server;
}

function pds(
  server: RogueServer | string,
  args: string[],
  env: Record<string, string | undefined> = {},
  options: SpawnOptions = {},
) {
  return runPds(args, {
    ...options,
    env: signedInEnv(typeof server === 'string' ? server : server.url, env),
  });
}

/**
 * An API whose protected-resource metadata names `issuer` (by default itself), and which is that
 * authorization server too, with its own endpoints unless `endpoints` names others.
 */
const authorizationServer =
  ({ issuer, endpoints = {} }: { issuer?: string; endpoints?: Record<string, string> }): Behaviour =>
  (req, res) => {
    const self = `http://${req.headers.host}`;
    if (req.url === '/.well-known/oauth-protected-resource')
      return json(200, { resource: self, authorization_servers: [issuer ?? self] })(req, res);
    if (req.url === '/.well-known/oauth-authorization-server') {
      return json(200, {
        issuer: self,
        authorization_endpoint: `${self}/oauth/authorize`,
        token_endpoint: `${self}/oauth/token`,
        registration_endpoint: `${self}/oauth/register`,
        revocation_endpoint: `${self}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        ...endpoints,
      })(req, res);
    }
    if (req.url === '/oauth/register') return json(201, { client_id: 'client-1' })(req, res);
    return json(404, { error: 'not_found' })(req, res);
  };

const unavailable = (headers: Record<string, string> = {}) =>
  json(503, { error: { message: 'service unavailable' } }, headers);

describe('retry waits: one budget per command, every wait announced', () => {
  it('announces a wait of 1 s or more on piped stderr, then succeeds', async () => {
    const server = await rogue(sequence(unavailable({ 'retry-after': '1' }), projects));
    const result = await pds(server, ['projects', 'ls', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(DEMO_PROJECT);
    expect(result.stderr).toBe('warning: service unavailable: retrying in 1 s (Ctrl-C to stop)\n');
    expect(result.ms).toBeGreaterThanOrEqual(1000);
    expect(server.requests).toHaveLength(2);
  });

  it('is silent with -q', async () => {
    const server = await rogue(sequence(unavailable({ 'retry-after': '1' }), projects));
    const result = await pds(server, ['projects', 'ls', '-q', '--quiet']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('does not wait longer than the budget: a Retry-After of 30 s ends at once and says when to try again', async () => {
    const server = await rogue(unavailable({ 'retry-after': '30' }));
    const result = await pds(server, ['projects', 'ls', '--retry-budget', '10']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: service unavailable\n  try again in 30 s\n  not retried: a wait of 30 s is more than the 10 s left of the 10 s retry budget (--retry-budget)\n  allow a longer wait with --retry-budget <duration> (e.g. --retry-budget 5m), or try again later\n',
    );
    // Not after the 30 s wait: a loaded machine may take seconds to start pds, never 15.
    expect(result.ms).toBeLessThan(15_000);
    expect(server.requests).toHaveLength(1);
  });

  it('spends the budget over the whole command: 2 s of waits, then it gives up', async () => {
    const server = await rogue(unavailable({ 'retry-after': '1' }));
    const result = await pds(server, ['projects', 'ls'], { PDS_RETRY_BUDGET: '2' });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      'warning: service unavailable: retrying in 1 s (Ctrl-C to stop)',
      'warning: service unavailable: retrying in 1 s (Ctrl-C to stop)',
    ]);
    expect(result.stderr).toContain(
      'not retried: a wait of 1 s is more than the 0 s left of the 2 s retry budget (--retry-budget)',
    );
    expect(server.requests).toHaveLength(3);
  });

  it('a budget of 0 (config key retry-budget) sends one request, and no "try again" the service did not ask for', async () => {
    const server = await rogue(htmlError(502));
    const configDir = mkdtempSync(join(tmpdir(), 'pds-net-'));
    expect((await pds(server, ['config', 'set', 'retry-budget', '0'], { PDS_CONFIG_DIR: configDir })).code).toBe(0);
    const result = await pds(server, ['projects', 'ls'], { PDS_CONFIG_DIR: configDir });
    expect(result.code).toBe(1);
    // A gateway's HTML page: the status says it all, the HTML is not shown.
    expect(result.stderr).toBe(
      'error: GET /v1/projects failed with HTTP 502\n  not retried: the retry budget is 0 (--retry-budget, PDS_RETRY_BUDGET or the retry-budget config key)\n',
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('--all must end', () => {
  it('a service that ignores `page`: exit 1 naming its pagination, no record printed twice', async () => {
    const server = await rogue(pageIgnored(100));
    const result = await pds(server, ['artists', 'ls', '--all', '-q']);
    expect(result.code).toBe(1);
    const ids = result.stdout.trim().split('\n');
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
    expect(result.stderr).toBe(
      "error: the service's pagination repeats itself: page 2 holds only records already listed, so --all stopped after 100 records\n" +
        '  the service seems to ignore the page parameter; list page by page with --page, or report it to the service\n',
    );
    // The first page, then one window of pages fetched ahead (followPages): page 2 shows the repeat
    // and the walk stops, and how many of the window's other pages reached the server before the
    // cancel is up to timing. Each page is asked for once, none beyond the window.
    const pages = server.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('page')));
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages).toEqual(expect.arrayContaining([1, 2]));
    expect(Math.max(...pages)).toBeLessThanOrEqual(1 + PAGES_AT_ONCE);
  });

  it('an envelope with per_page 0 ends at total_count', async () => {
    const server = await rogue(envelopePages(250, 0));
    const result = await pds(server, ['artists', 'ls', '--all', '-q']);
    expect(result.code).toBe(0);
    const ids = result.stdout.trim().split('\n');
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    expect(server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '3']);
  });
});

describe('answers that never end, end early or are not JSON', () => {
  it('an endless body fails clearly at 64 MiB instead of eating memory', async () => {
    const server = await rogue(endlessBody);
    const result = await pds(server, ['projects', 'ls'], {}, { killAfterMs: 30_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: the answer to GET /v1/projects is larger than 64 MiB: pds stopped reading it\n  this is not an answer pds expects from the service; check --api-url\n',
    );
    expect(server.requests).toHaveLength(1);
  }, 40_000);

  it('a body cut short says the connection closed before the answer was complete', async () => {
    const server = await rogue(cutBody);
    const result = await pds(server, ['projects', 'ls'], { PDS_RETRY_BUDGET: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: the connection closed before the answer was complete: GET \/v1\/projects\n/);
    expect(result.stderr).not.toContain('ECONNRESET');
  });

  it('a service that hangs times out after --timeout', async () => {
    const server = await rogue(hang);
    const result = await pds(server, ['projects', 'ls', '--timeout', '0.5']);
    expect(result).toMatchObject({
      code: 1,
      stderr: 'error: request timed out after 0.5 s: GET /v1/projects\n  raise it with --timeout <seconds>\n',
    });
    // Ended by the timeout, not by the test's SIGKILL (45 s): the bound leaves a loaded machine room.
    expect(result.ms).toBeLessThan(20_000);
  });

  it('an upload answered with keep-alive comments only ends after --timeout with the hint to follow it', async () => {
    const server = await rogue(seedService(keepAliveOnlyStream(100)));
    const result = await pds(server, ['upload', 'statement', SAMPLE_PDF, '--timeout', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the service answered the upload but sent no event for 1 s; pds stopped waiting');
    expect(result.stderr).toContain('follow it with `pds statements status <staging-id>`');
    expect(result.ms).toBeLessThan(20_000);
  });

  it('an event stream with an event that never ends fails at 1 MiB', async () => {
    const server = await rogue(seedService(endlessEvent));
    const result = await pds(server, ['upload', 'statement', SAMPLE_PDF]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the service sent more than 1 MiB of its event stream without an event');
  });

  it('an upload refused before its body was read (503): the error prints and the process exits at once', async () => {
    const server = await rogue(answerBeforeBody(503, 'over capacity'));
    // 8 MiB: more than the socket buffers take, so most of the body is still unsent when the answer comes.
    const big = join(mkdtempSync(join(tmpdir(), 'pds-net-')), 'big.pdf');
    writeFileSync(
      big,
      Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * 1024 * 1024, 0x20), Buffer.from('\n%%EOF\n')]),
    );
    const result = await pds(server, ['upload', 'statement', big]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('over capacity');
    // Not held up by the unsent body: out soon after the error, whatever the machine's load.
    expect(result.afterLastOutputMs).toBeLessThan(3_000);
    expect(result.ms).toBeLessThan(20_000);
  });
});

describe('a batch of uploads', () => {
  it('leaves no listener behind per upload (no MaxListenersExceededWarning over 12 files)', async () => {
    const emulator = await testEmulator({ flavor: 'current' });
    try {
      // Twelve files (the same file named twelve times would go once).
      const dir = mkdtempSync(join(tmpdir(), 'pds-twelve-'));
      const files = Array.from({ length: 12 }, (_, i) => join(dir, `sample-${i}.pdf`));
      for (const file of files) writeFileSync(file, readFileSync(SAMPLE_PDF));
      const result = await pds(emulator.url, ['upload', 'statement', ...files, '-q']);
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(12);
      expect(result.stderr).toBe('');
    } finally {
      await emulator.close();
    }
  });
});

describe('refused before anything is sent', () => {
  it('the token over plain http to a host that is not loopback: exit 2, nothing sent; --allow-http opts in', async () => {
    // A proxy on loopback stands in for the network: had pds sent anything, it would have seen it.
    const proxy = await rogue(projects);
    const env = { PDS_API_URL: 'http://pds.example.com', HTTP_PROXY: proxy.url };
    const refused = await pds(proxy, ['projects', 'ls', '-q'], env);
    expect(refused).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: refusing to send the token over plain http to pds.example.com: anyone on the way could read it\n' +
        '  use an https:// API URL, or, if this network is trusted, opt in with --allow-http, PDS_ALLOW_HTTP=1 or `pds config set allow-http true`\n',
    });
    expect(proxy.requests).toHaveLength(0);

    for (const optIn of [
      { args: ['--allow-http'], env: {} },
      { args: [], env: { PDS_ALLOW_HTTP: '1' } },
    ]) {
      const allowed = await pds(proxy, ['projects', 'ls', '-q', ...optIn.args], { ...env, ...optIn.env });
      expect(allowed).toMatchObject({ code: 0, stdout: `${DEMO_PROJECT}\n` });
    }
    expect(proxy.requests.map((r) => r.url)).toEqual([
      'http://pds.example.com/v1/projects',
      'http://pds.example.com/v1/projects',
    ]);
  });

  it('loopback as written stays allowed: 127.0.0.0/8, localhost and [::1]', async () => {
    const v6 = await rogue(projects, { host: '::1' });
    const v4 = await rogue(projects);
    expect(await pds(v6, ['projects', 'ls', '-q'])).toMatchObject({ code: 0, stdout: `${DEMO_PROJECT}\n` });
    expect(await pds(v4.url.replace('127.0.0.1', 'localhost'), ['projects', 'ls', '-q'])).toMatchObject({ code: 0 });
    // 127.1 is 127.0.0.1 as the URL parser reads it; no name is looked up to decide.
    expect(await pds(v4.url.replace('127.0.0.1', '127.1'), ['projects', 'ls', '-q'])).toMatchObject({ code: 0 });
  });

  it('a name that is only looked up is not loopback: localhost. and x.localhost are refused, nothing sent', async () => {
    // Both go to the resolver (a DNS server may answer them), unlike localhost from the hosts file.
    // The proxy on loopback stands in for the network: had pds sent anything, it would have seen it.
    const proxy = await rogue(projects);
    for (const host of ['localhost.', 'pds.localhost']) {
      const refused = await pds(proxy, ['projects', 'ls', '-q'], {
        PDS_API_URL: `http://${host}:9`,
        HTTP_PROXY: proxy.url,
      });
      expect(refused).toMatchObject({
        code: 2,
        stdout: '',
        stderr: expect.stringContaining(
          `error: refusing to send the token over plain http to ${host}:9: anyone on the way could read it\n`,
        ),
      });
    }
    expect(proxy.requests).toHaveLength(0);
  });

  it('browser sign-in to an API over plain http: exit 2 before any connection; --allow-http opts in', async () => {
    const proxy = await rogue(projects);
    // An honest authorization server on loopback: --oauth-issuer skips the API, and still the API
    // URL is refused (the new token would be tried on it).
    const issuer = await rogue(authorizationServer({}));
    const env = {
      PDS_API_URL: 'http://api.example.com',
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
      PDS_TOKEN: undefined,
    };
    for (const extra of [[], ['--oauth-issuer', issuer.url]]) {
      const refused = await pds(proxy, ['auth', 'login', '--web', '--no-browser', ...extra], env);
      expect(refused).toMatchObject({
        code: 2,
        stdout: '',
        stderr:
          'error: refusing to send the sign-in over plain http to api.example.com: anyone on the way could read it\n' +
          '  use an https:// API URL, or, if this network is trusted, opt in with --allow-http, PDS_ALLOW_HTTP=1 or `pds config set allow-http true`\n',
      });
    }
    expect(proxy.requests).toHaveLength(0);
    expect(issuer.requests).toHaveLength(0);

    const allowed = await pds(proxy, ['auth', 'login', '--web', '--no-browser', '--allow-http'], env);
    expect(allowed.code).not.toBe(2);
    expect(proxy.requests.map((r) => r.url)).toEqual(['http://api.example.com/.well-known/oauth-protected-resource']);
  });

  it('browser sign-in: an issuer or an endpoint over plain http to another host is refused, exit 2, nothing sent there', async () => {
    const proxy = await rogue(projects);
    const env = (server: RogueServer) => ({
      PDS_API_URL: server.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
      PDS_TOKEN: undefined,
    });
    const wayOut =
      '  use an authorization server with https:// endpoints, or, if this network is trusted, opt in with --allow-http, PDS_ALLOW_HTTP=1 or `pds config set allow-http true`\n';

    // The API's metadata names an issuer over plain http.
    const api = await rogue(authorizationServer({ issuer: 'http://auth.example.com' }));
    expect(await pds(api, ['auth', 'login', '--web', '--no-browser'], env(api))).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: refusing to send the sign-in over plain http to auth.example.com: anyone on the way could read it\n' +
        wayOut,
    });
    expect(api.requests.map((r) => r.url)).toEqual(['/.well-known/oauth-protected-resource']);

    // The issuer is on loopback, but one of its endpoints is not: refused before registering or
    // opening a browser.
    for (const name of ['authorization', 'token', 'registration', 'revocation'] as const) {
      const endpoint = `http://auth.example.com/${name}`;
      const server = await rogue(authorizationServer({ endpoints: { [`${name}_endpoint`]: endpoint } }));
      const result = await pds(server, ['auth', 'login', '--web', '--no-browser'], env(server), {
        killAfterMs: 30_000,
      });
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr:
          'error: refusing to send the sign-in over plain http to auth.example.com: anyone on the way could read it\n' +
          `  the authorization server ${server.url} names ${endpoint} as its ${name} endpoint\n` +
          wayOut,
      });
      expect(server.requests.map((r) => r.url)).toEqual([
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-authorization-server',
      ]);
    }
    expect(proxy.requests).toHaveLength(0);
  });

  it('a token with a line feed: exit 2 at once, naming its source, nothing sent', async () => {
    const server = await rogue(projects);
    const result = await pds(server, ['projects', 'ls'], { PDS_TOKEN: 'demo-org\ntoken' });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: the token from PDS_TOKEN contains a line feed (at position 9), which cannot be sent in an HTTP header\n' +
        '  set it again without it: `pds auth login --with-token`, or fix PDS_TOKEN\n',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('--timeout out of its range: exit 2 with the range', async () => {
    const server = await rogue(projects);
    for (const value of ['0.0001', '5000000']) {
      const result = await pds(server, ['projects', 'ls', '--timeout', value]);
      expect(result).toMatchObject({
        code: 2,
        stderr: `error: invalid --timeout '${value}': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)\n`,
      });
    }
    expect(server.requests).toHaveLength(0);
  });
});

// The built CLI behind a real forward proxy: absolute-URI requests for http, CONNECT for https,
// NO_PROXY, credentials in the proxy URL (never printed), and a masked API URL under --verbose.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findProgram, skipWhenMissing } from '../helpers/machine.js';
import { runPds, signedInEnv } from '../helpers/process.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import {
  DEMO_PROJECT,
  makeCertificate,
  projects,
  startRogueServer,
  type Certificate,
  type RogueServer,
} from '../helpers/rogue-server.js';

let service: RogueServer;
let tlsService: RogueServer;
let certificate: Certificate;
const proxies: ForwardProxy[] = [];

// The https service's certificate is made with the openssl command.
const noOpenssl = findProgram('openssl') ? undefined : 'openssl is not installed (it makes the test certificate)';
skipWhenMissing('proxy tests', noOpenssl);
beforeAll(async () => {
  if (noOpenssl) return;
  certificate = await makeCertificate();
  service = await startRogueServer(projects);
  tlsService = await startRogueServer(projects, { tls: certificate });
});
afterAll(async () => {
  await service?.close();
  await tlsService?.close();
});
afterEach(async () => {
  if (noOpenssl) return;
  service.requests.length = 0;
  tlsService.requests.length = 0;
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxy(options: Parameters<typeof startForwardProxy>[0] = {}): Promise<ForwardProxy> {
  const started = await startForwardProxy(options);
  proxies.push(started);
  return started;
}

function pds(args: string[], env: Record<string, string>) {
  return runPds(args, {
    env: signedInEnv(env.PDS_API_URL ?? '', {
      PDS_PROJECT: undefined,
      NODE_EXTRA_CA_CERTS: certificate.certFile,
      ...env,
    }),
  });
}

const listed = `${DEMO_PROJECT}\n`;

describe('HTTP_PROXY / HTTPS_PROXY', () => {
  for (const name of ['HTTP_PROXY', 'http_proxy']) {
    it(`${name}: an http API URL goes through the proxy as an absolute-URI request`, async () => {
      const forward = await proxy();
      const result = await pds(['projects', 'ls', '-q'], { PDS_API_URL: service.url, [name]: forward.url });
      expect(result).toMatchObject({ code: 0, stdout: listed, stderr: '' });
      expect(forward.saw.map((s) => [s.method, s.target])).toEqual([['GET', `${service.url}/v1/projects`]]);
      expect(service.requests).toHaveLength(1);
      expect(service.requests[0]!.headers.authorization).toBe('Bearer demo-org-token');
    });
  }

  for (const name of ['HTTPS_PROXY', 'https_proxy']) {
    it(`${name}: an https API URL goes through a CONNECT tunnel`, async () => {
      const forward = await proxy();
      const result = await pds(['projects', 'ls', '-q'], { PDS_API_URL: tlsService.url, [name]: forward.url });
      expect(result).toMatchObject({ code: 0, stdout: listed, stderr: '' });
      expect(forward.saw.map((s) => [s.method, s.target])).toEqual([['CONNECT', `127.0.0.1:${tlsService.port}`]]);
      // Through the tunnel the service sees a plain path: the proxy never saw the request itself.
      expect(service.requests).toHaveLength(0);
      expect(tlsService.requests.map((r) => r.url)).toEqual(['/v1/projects']);
    });
  }

  it('HTTPS_PROXY is not used for an http API URL, nor HTTP_PROXY for https', async () => {
    const forward = await proxy();
    const plain = await pds(['projects', 'ls', '-q'], { PDS_API_URL: service.url, HTTPS_PROXY: forward.url });
    expect(plain).toMatchObject({ code: 0, stdout: listed });
    const secure = await pds(['projects', 'ls', '-q'], { PDS_API_URL: tlsService.url, HTTP_PROXY: forward.url });
    expect(secure).toMatchObject({ code: 0, stdout: listed });
    expect(forward.saw).toEqual([]);
  });
});

describe('NO_PROXY', () => {
  const cases: [string, (port: number) => string][] = [
    ['a host', () => '127.0.0.1'],
    ['a host and port', (port) => `example.com, 127.0.0.1:${port}`],
    ['*', () => '*'],
  ];
  for (const [what, value] of cases) {
    it(`bypasses the proxy for ${what}`, async () => {
      const forward = await proxy();
      const result = await pds(['projects', 'ls', '-q'], {
        PDS_API_URL: service.url,
        HTTP_PROXY: forward.url,
        NO_PROXY: value(service.port),
      });
      expect(result).toMatchObject({ code: 0, stdout: listed, stderr: '' });
      expect(forward.saw).toEqual([]);
      expect(service.requests).toHaveLength(1);
    });
  }

  it('does not bypass it for another port, another host or a domain that does not match', async () => {
    const forward = await proxy();
    const noProxy = `127.0.0.1:${service.port + 1}, 127.0.0.2, .example.com`;
    const result = await pds(['projects', 'ls', '-q'], {
      PDS_API_URL: service.url,
      http_proxy: forward.url,
      no_proxy: noProxy,
    });
    expect(result).toMatchObject({ code: 0, stdout: listed });
    expect(forward.saw).toHaveLength(1);
  });
});

describe('a proxy that cannot be reached', () => {
  it('is named in the error (masked), not mistaken for the service', async () => {
    const closed = await proxy();
    await closed.close();
    const result = await pds(['projects', 'ls'], {
      PDS_API_URL: service.url,
      HTTP_PROXY: `http://ann:secret@127.0.0.1:${closed.port}`,
      PDS_RETRY_BUDGET: '0',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: cannot reach ${service.url} through the proxy http://***:***@127.0.0.1:${closed.port}/ (ECONNREFUSED)\n` +
        '  check HTTPS_PROXY / HTTP_PROXY, or bypass the proxy for this host with NO_PROXY\n' +
        '  not retried: the retry budget is 0 (--retry-budget, PDS_RETRY_BUDGET or the retry-budget config key)\n',
    );
    expect(service.requests).toHaveLength(0);
  });
});

describe('credentials in the proxy URL', () => {
  it('are sent to the proxy (http and CONNECT) and never printed, even with --verbose', async () => {
    const forward = await proxy({ credentials: { user: 'ann', password: 'p@ss word' } });
    const proxyUrl = `http://ann:p%40ss%20word@127.0.0.1:${forward.port}`;
    const expected = `Basic ${Buffer.from('ann:p@ss word').toString('base64')}`;
    const plain = await pds(['projects', 'ls', '-q', '--verbose'], { PDS_API_URL: service.url, HTTP_PROXY: proxyUrl });
    const secure = await pds(['projects', 'ls', '-q', '--verbose'], {
      PDS_API_URL: tlsService.url,
      HTTPS_PROXY: proxyUrl,
    });
    for (const result of [plain, secure]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(listed);
      expect(result.stderr).toContain(`* through the proxy http://***:***@127.0.0.1:${forward.port}/`);
      expect(result.stderr).not.toMatch(/p%40ss|p@ss|ann/);
    }
    expect(forward.saw.map((s) => [s.method, s.proxyAuthorization])).toEqual([
      ['GET', expected],
      ['CONNECT', expected],
    ]);
  });

  it('wrong credentials: the 407 says to put them in the proxy URL, and shows none', async () => {
    const forward = await proxy({ credentials: { user: 'ann', password: 'right' } });
    for (const [variable, url] of [
      ['HTTP_PROXY', service.url],
      ['HTTPS_PROXY', tlsService.url],
    ] as const) {
      const result = await pds(['projects', 'ls'], {
        PDS_API_URL: url,
        [variable]: `http://ann:wrong@127.0.0.1:${forward.port}`,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'error: the proxy asks for credentials (HTTP 407): put them in the proxy URL, e.g. HTTPS_PROXY=http://user:password@proxy:3128\n',
      );
    }
    expect(service.requests).toHaveLength(0);
    expect(tlsService.requests).toHaveLength(0);
  });
});

describe('--verbose', () => {
  it('masks user:password@ of an API URL', async () => {
    const [scheme, rest] = service.url.split('://');
    const result = await pds(['projects', 'ls', '-q', '--verbose'], {
      PDS_API_URL: `${scheme}://admin:hunter2@${rest}`,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`> GET ${scheme}://***:***@${rest}/v1/projects`);
    expect(result.stderr).not.toMatch(/hunter2|admin/);
  });
});

// Issue 20, the emulator as a process a browser on the same machine can reach: requests for another
// host name get 421 (DNS rebinding), and dynamic client registration is bounded.
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPds, type PipedProcess } from '../helpers/process.js';

let emulator: PipedProcess;
let url: string;
beforeAll(async () => {
  emulator = startPds(['emulator', 'start', '--port', '0', '--quiet'], { killAfterMs: 120_000 });
  await emulator.waitFor(/listening on http:\/\/\S+\n/);
  url = /listening on (http:\/\/\S+)/.exec(emulator.stdout())?.[1] as string;
});
afterAll(async () => {
  emulator.child.kill('SIGINT');
  await emulator.exited;
});

/** A GET with the Host header a browser would send for `host` (fetch does not let a page set it). */
function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const target = new URL(path, url);
  return new Promise((resolve, reject) => {
    const req = request(target, { headers: { host, authorization: 'Bearer demo-org-token' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('16. the emulator answers only to its own name', () => {
  it.each([['attacker.example'], ['attacker.example:4010'], ['127.0.0.1.nip.io'], ['localhost.attacker.example']])(
    'Host %j: 421, no data',
    async (host) => {
      const answer = await getWithHost('/v1/projects', host);
      expect(answer.status).toBe(421);
      expect(answer.body).not.toContain('Northern Lights');
      expect(answer.body).toContain('this emulator answers only to its own address');
    },
  );

  it.each([['127.0.0.1'], ['localhost'], ['[::1]'], ['127.0.0.2']])('Host %j (with its port): served', async (name) => {
    const answer = await getWithHost('/v1/projects', `${name}:${new URL(url).port}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Northern Lights');
  });

  it('the OAuth endpoints too (a rebound page must not register or authorize)', async () => {
    expect((await getWithHost('/.well-known/oauth-authorization-server', 'attacker.example')).status).toBe(421);
  });
});

const register = (body: unknown) =>
  fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const client = (redirect_uris: string[], client_name = 'test') => ({
  client_name,
  redirect_uris,
  token_endpoint_auth_method: 'none',
});

describe('17. dynamic client registration is bounded', () => {
  it.each([['http://attacker.example/cb'], ['http://10.0.0.1/cb'], ['file:///etc/passwd'], ['javascript:alert(1)']])(
    'redirect URI %j: refused',
    async (uri) => {
      const answer = await register(client([uri]));
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    },
  );

  it.each([
    ['http://127.0.0.1:9/callback'],
    ['http://[::1]:9/callback'],
    ['http://localhost/cb'],
    ['https://app.example/cb'],
  ])('redirect URI %j: taken', async (uri) => {
    expect((await register(client([uri]))).status).toBe(201);
  });

  it('a body over 16 KiB: 413', async () => {
    const answer = await register(client(['http://127.0.0.1/cb'], 'x'.repeat(17 * 1024)));
    expect(answer.status).toBe(413);
  });

  it('10,000 registrations: at most 100 clients kept (the least recently used dropped), under 300 MiB', {
    timeout: 120_000,
  }, async () => {
    const first = (await (await register(client(['http://127.0.0.1/cb']))).json()) as { client_id: string };
    const authorize = (id: string) =>
      fetch(
        `${url}/oauth/authorize?response_type=code&client_id=${id}&redirect_uri=${encodeURIComponent('http://127.0.0.1/cb')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&state=s`,
      );
    expect((await authorize(first.client_id)).status).toBe(200);
    const name = 'n'.repeat(100);
    const uris = Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:${9000 + i}/${'p'.repeat(1000)}`);
    let next = 0;
    const worker = async () => {
      while (next < 10_000) {
        next++;
        const answer = await register(client(uris, name));
        if (answer.status !== 201) throw new Error(`registration answered ${answer.status}`);
        await answer.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    // The first client, long unused, is gone; a fresh one is there.
    expect((await authorize(first.client_id)).status).toBe(400);
    const last = (await (await register(client(['http://127.0.0.1/cb']))).json()) as { client_id: string };
    expect((await authorize(last.client_id)).status).toBe(200);
    const status = readFileSync(`/proc/${emulator.child.pid}/status`, 'utf8');
    const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
    console.log(`emulator peak RSS after 10,000 registrations: ${peakMb.toFixed(0)} MiB`);
    expect(peakMb).toBeLessThan(300);
  });
});

// The HTTP layer alone, against a tiny node:http server (no mocks): what goes out, what comes
// back, and how failures are retried and mapped.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { HttpClient, type HttpClientOptions } from '../../src/lib/http/client.js';
import { RetryBudget, rateLimitText } from '../../src/lib/http/retry.js';
import {
  AuthError,
  InterruptedError,
  NotFoundError,
  RateLimitError,
  ServiceError,
  UsageError,
} from '../../src/lib/errors.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let base: string;
let seen: Seen[];
let replies: Reply[];

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = replies.shift() ?? json(200, { data: [] });
      reply(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
beforeEach(() => {
  seen = [];
  replies = [];
});

function client(overrides: Partial<HttpClientOptions> = {}) {
  const waits: number[] = [];
  const trace: string[] = [];
  const http = new HttpClient({
    baseUrl: base,
    token: 'secret-token-123',
    timeoutMs: 5_000,
    userAgent: 'pds/test',
    maxRetries: 3,
    signal: new AbortController().signal,
    sleep: async (ms) => {
      waits.push(ms);
    },
    trace: (line) => trace.push(line),
    env: {},
    ...overrides,
  });
  return { http, waits, trace };
}

const Item = z.looseObject({ id: z.string() });

describe('requests', () => {
  it('builds the URL with URLSearchParams and sends auth, accept and user-agent headers', async () => {
    const { http } = client({ baseUrl: `${base}/` });
    replies.push(json(200, { data: [{ id: 'a', extra: 1 }] }));
    const data = await http.data(
      {
        path: '/v1/contracts',
        query: {
          projectId: 'p',
          page: 2,
          includes: ['royalties', 'splits'],
          roles: [],
          includeMerged: undefined,
          flag: false,
          q: 'a b&c',
        },
      },
      z.array(Item),
    );
    // Unknown fields are kept.
    expect(data).toEqual([{ id: 'a', extra: 1 }]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/v1/contracts?projectId=p&page=2&includes=royalties%2Csplits&q=a+b%26c');
    expect(seen[0]!.headers).toMatchObject({
      authorization: 'Bearer secret-token-123',
      accept: 'application/json',
      'user-agent': 'pds/test',
    });
  });

  it('keeps the query of a path that has one, the parameters set over it', async () => {
    const { http } = client();
    replies.push(json(200, { data: [] }), json(200, { data: [] }));
    await http.data({ path: '/v1/artists?q=x%20y&page=9', query: { page: 2, perPage: 100 } }, z.array(Item));
    await http.data({ path: '/v1/artists', query: {} }, z.array(Item));
    expect(seen.map((request) => request.url)).toEqual(['/v1/artists?q=x+y&page=2&perPage=100', '/v1/artists']);
  });

  it('sends no authorization header without a token, and JSON bodies with their content type', async () => {
    const { http } = client({ token: undefined });
    replies.push(json(200, { data: { ok: true } }));
    await http.data({ method: 'POST', path: '/v1/x', json: { commands: ['ls'] } }, z.looseObject({ ok: z.boolean() }));
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.body).toBe('{"commands":["ls"]}');
  });

  it('rejects an answer that does not match the schema, or is not JSON', async () => {
    const { http } = client();
    replies.push(json(200, { data: [{ name: 'no id' }] }));
    const mismatch = await http.data({ path: '/v1/artists' }, z.array(Item)).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(ServiceError);
    expect((mismatch as ServiceError).message).toBe('unexpected response from GET /v1/artists');
    expect((mismatch as ServiceError).details).toEqual([
      'data.0.id: Invalid input: expected string, received undefined',
    ]);

    replies.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
    });
    await expect(http.data({ path: '/v1/artists' }, z.array(Item))).rejects.toThrow(
      'the service answered 200 with a body that is not JSON',
    );
  });
});

describe('errors', () => {
  it('maps 4xx answers without retrying them, with the service message and field details', async () => {
    const { http } = client();
    replies.push(json(400, { error: { message: 'bad query', perPage: ['perPage must be an integer from 1 to 100'] } }));
    const bad = await http.send({ path: '/v1/artists' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UsageError);
    expect((bad as UsageError).details).toEqual(['perPage: perPage must be an integer from 1 to 100']);

    replies.push(
      json(401, { error: { message: 'invalid or expired token' } }),
      json(404, { error: { message: 'artist not found' } }),
    );
    await expect(http.send({ path: '/v1/projects' })).rejects.toBeInstanceOf(AuthError);
    await expect(http.send({ path: '/v1/artists/x' })).rejects.toThrow(NotFoundError);
    expect(seen).toHaveLength(3);
  });

  it('uses method, path and status when the error body is not JSON', async () => {
    const { http } = client({ maxRetries: 0 });
    replies.push((_req, res) => {
      res.writeHead(502);
      res.end('Bad Gateway');
    });
    await expect(http.send({ path: '/v1/artists' })).rejects.toThrow('GET /v1/artists failed with HTTP 502');
  });
});

describe('retries', () => {
  it('retries a GET on 5xx with backoff and succeeds', async () => {
    const { http, waits } = client();
    replies.push(
      json(503, { error: { message: 'unavailable' } }),
      json(500, { error: { message: 'boom' } }),
      json(200, { data: [] }),
    );
    await expect(http.data({ path: '/v1/artists' }, z.array(Item))).resolves.toEqual([]);
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
    // Full jitter around the base: attempt 0 waits 125..375 ms, attempt 1 125..625 ms.
    expect(waits[0]).toBeGreaterThanOrEqual(125);
    expect(waits[0]).toBeLessThanOrEqual(375);
    expect(waits[1]).toBeLessThanOrEqual(625);
  });

  it('honours Retry-After (seconds)', async () => {
    const { http, waits } = client();
    replies.push(json(503, { error: { message: 'busy' } }, { 'retry-after': '2' }));
    await http.send({ path: '/v1/artists' });
    expect(waits).toEqual([2000]);
  });

  it('honours X-RateLimit-Reset on a 429', async () => {
    const { http, waits } = client();
    const reset = Math.ceil(Date.now() / 1000) + 3;
    replies.push(json(429, { error: { message: 'rate limit exceeded' } }, { 'x-ratelimit-reset': String(reset) }));
    await http.send({ path: '/v1/artists' });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(1000);
    expect(waits[0]).toBeLessThanOrEqual(4000);
  });

  it('gives up on a 5xx after maxRetries (exit 1); waits out a 429 while the budget lasts, then exit 6', async () => {
    const { http } = client({ maxRetries: 2 });
    for (let i = 0; i < 3; i++) replies.push(json(503, { error: { message: 'unavailable' } }));
    const failed = await http.send({ path: '/v1/artists' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ServiceError);
    expect((failed as ServiceError).exitCode).toBe(1);
    expect(seen).toHaveLength(3);

    // Six refusals: more than maxRetries, each a 1 s wait; the budget of 3.5 s holds three of them.
    seen = [];
    const budgeted = client({ maxRetries: 2, retryBudget: new RetryBudget(3_500) });
    for (let i = 0; i < 6; i++)
      replies.push(json(429, { error: { message: 'rate limit exceeded' } }, { 'retry-after': '1' }));
    const limited = await budgeted.http.send({ path: '/v1/artists' }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).exitCode).toBe(6);
    expect(seen).toHaveLength(4);
    expect(budgeted.waits).toEqual([1000, 1000, 1000]);
    expect((limited as RateLimitError).details.join('\n')).toMatch(
      /not retried: a wait of 1 s is more than the 0 s left of the 3\.5 s retry budget/,
    );
  });

  it('waits out a per-minute window within the budget, announcing every wait of 1 s or more', async () => {
    const notices: string[] = [];
    const { http, waits } = client({ notice: (line) => notices.push(line), retryBudget: new RetryBudget(70_000) });
    replies.push(json(429, { error: { message: 'rate limit exceeded' } }, { 'retry-after': '60' }));
    replies.push(json(503, { error: { message: 'unavailable' } }, { 'retry-after': '5' }));
    replies.push(json(503, { error: { message: 'unavailable' } }, { 'retry-after': '1' }));
    await http.send({ path: '/v1/artists' });
    expect(waits).toEqual([60_000, 5_000, 1_000]);
    expect(notices).toEqual([
      'rate limited: retrying in 60 s (Ctrl-C to stop)',
      'unavailable: retrying in 5 s (Ctrl-C to stop)',
      'unavailable: retrying in 1 s (Ctrl-C to stop)',
    ]);
  });

  it('says a rate-limit wait even under 1 s, with the limits the answer states', async () => {
    const notices: string[] = [];
    const { http } = client({ notice: (line) => notices.push(line) });
    replies.push(
      json(
        429,
        { error: { message: 'slow down' } },
        { 'retry-after': '0', 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '0' },
      ),
    );
    replies.push(json(200, { data: [] }));
    await http.send({ path: '/v1/artists' });
    expect(notices).toEqual(['rate limited (limit 100, remaining 0, reset in 0 s): retrying now (Ctrl-C to stop)']);
  });

  it('reads the limits from RateLimit-*, X-RateLimit-* or one RateLimit header', () => {
    const of = (headers: Record<string, string>) => rateLimitText({ headers: new Headers(headers) });
    expect(of({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '12' })).toBe('limit 60, remaining 12');
    expect(of({ ratelimit: 'limit=10, remaining=3, reset=7' })).toBe('limit 10, remaining 3, reset in 7 s');
    expect(of({ ratelimit: '"default";r=5;t=30' })).toBe('remaining 5, reset in 30 s');
    expect(of({ 'content-type': 'application/json' })).toBe('');
  });

  it('does not wait beyond the budget: the error says when to come back', async () => {
    const { http, waits } = client();
    replies.push(json(429, { error: { message: 'rate limit exceeded' } }, { 'retry-after': '120' }));
    const error = (await http.send({ path: '/v1/artists' }).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.details).toEqual([
      'rate limited: try again after 120 s',
      'not retried: a wait of 120 s is more than the 60 s left of the 60 s retry budget (--retry-budget)',
      'allow a longer wait with --retry-budget <duration> (e.g. --retry-budget 5m), or try again later',
    ]);
    expect(waits).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('shares one budget between requests: what one waited, the next cannot', async () => {
    const budget = new RetryBudget(10_000);
    const first = client({ retryBudget: budget });
    replies.push(json(503, { error: { message: 'busy' } }, { 'retry-after': '8' }), json(200, { data: [] }));
    await first.http.send({ path: '/v1/artists' });
    const second = client({ retryBudget: budget });
    replies.push(json(503, { error: { message: 'busy' } }, { 'retry-after': '8' }));
    const error = (await second.http.send({ path: '/v1/artists' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.details).toEqual([
      'try again in 8 s',
      'not retried: a wait of 8 s is more than the 2 s left of the 10 s retry budget (--retry-budget)',
      'allow a longer wait with --retry-budget <duration> (e.g. --retry-budget 5m), or try again later',
    ]);
    expect([...first.waits, ...second.waits]).toEqual([8000]);
  });

  it('charges waits by wall time: waits going at once cost their overlap once, one after another each in full', () => {
    let now = 1_000_000;
    const budget = new RetryBudget(60_000, () => now);
    // Four uploads told to wait for the same window: 60 s of the wall clock, not 240 s.
    for (let i = 0; i < 4; i++) expect(budget.take(60_000 - i * 10)).toBe(true);
    expect(budget.leftMs).toBe(0);
    for (let i = 0; i < 4; i++) budget.done();
    now += 60_000;
    expect(budget.take(1)).toBe(false);
    const longer = new RetryBudget(60_000, () => now);
    expect(longer.take(20_000)).toBe(true);
    now += 5_000;
    // Still going: of a 30 s wait from now, the 15 s past the first's end are new.
    expect(longer.take(30_000)).toBe(true);
    expect(longer.leftMs).toBe(25_000);
    longer.done();
    longer.done();
    // Over: a wait after them is new time in full.
    expect(longer.take(25_001)).toBe(false);
    expect(longer.take(25_000)).toBe(true);
  });

  it('a budget of 0 means no retries at all', async () => {
    const { http, waits } = client({ retryBudget: new RetryBudget(0) });
    replies.push(json(503, { error: { message: 'busy' } }));
    const error = (await http.send({ path: '/v1/artists' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.details.at(-1)).toBe(
      'not retried: the retry budget is 0 (--retry-budget, PDS_RETRY_BUDGET or the retry-budget config key)',
    );
    expect(waits).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('reads a negative Retry-After as no advice (backoff), and X-RateLimit-Reset in milliseconds or as seconds left', async () => {
    const { http, waits } = client();
    replies.push(json(503, { error: { message: 'busy' } }, { 'retry-after': '-5' }));
    replies.push(json(429, { error: { message: 'slow down' } }, { 'x-ratelimit-reset': String(Date.now() + 3000) }));
    replies.push(json(429, { error: { message: 'slow down' } }, { 'x-ratelimit-reset': '2' }));
    await http.send({ path: '/v1/artists' });
    expect(waits).toHaveLength(3);
    expect(waits[0]).toBeLessThanOrEqual(375);
    expect(waits[1]).toBeGreaterThan(2000);
    expect(waits[1]).toBeLessThanOrEqual(3000);
    expect(waits[2]).toBe(2000);
  });

  it('never retries a POST unless told it may', async () => {
    const { http } = client();
    replies.push(json(503, { error: { message: 'unavailable' } }));
    await expect(http.send({ method: 'POST', path: '/v1/contracts', json: {} })).rejects.toBeInstanceOf(ServiceError);
    expect(seen).toHaveLength(1);

    seen = [];
    let started = false;
    replies.push(json(503, { error: { message: 'unavailable' } }), json(503, { error: { message: 'unavailable' } }));
    const retry = () => {
      const allowed = !started;
      started = true;
      return allowed;
    };
    await expect(http.send({ method: 'POST', path: '/v1/contracts', json: {}, retry })).rejects.toBeInstanceOf(
      ServiceError,
    );
    expect(seen).toHaveLength(2);
  });

  it('retries a refused connection, then says it cannot reach the service', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { http, waits } = client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2 });
    const error = await http.send({ path: '/v1/projects' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).message).toBe(`cannot reach http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect(waits).toHaveLength(2);
  });
});

describe('bodies', () => {
  it('says that the connection closed before the answer was complete, and retries a GET', async () => {
    const { http } = client({ maxRetries: 1 });
    const cut: Reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data": [');
      setTimeout(() => res.destroy(), 20);
    };
    replies.push(cut, cut);
    const error = (await http.send({ path: '/v1/artists' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.message).toBe('the connection closed before the answer was complete: GET /v1/artists');
    expect(seen).toHaveLength(2);
  });

  it('refuses an answer larger than 64 MiB without reading it, and does not retry', async () => {
    const { http } = client();
    replies.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(65 * 1024 * 1024) });
      res.write('{');
    });
    const error = (await http.send({ path: '/v1/artists' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.message).toBe('the answer to GET /v1/artists is larger than 64 MiB: pds stopped reading it');
    expect(seen).toHaveLength(1);
  });
});

describe('timeouts and Ctrl-C', () => {
  it('times out a slow answer, without retrying it', async () => {
    const { http } = client({ timeoutMs: 100 });
    replies.push((_req, res) => {
      setTimeout(() => json(200, { data: [] })(_req, res), 1000);
    });
    const error = await http.send({ path: '/v1/projects' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).message).toBe('request timed out after 0.1 s: GET /v1/projects');
    expect(seen).toHaveLength(1);
  });

  it('turns an abort into InterruptedError', async () => {
    const controller = new AbortController();
    const { http } = client({ signal: controller.signal });
    replies.push((_req, res) => {
      setTimeout(() => json(200, { data: [] })(_req, res), 1000);
    });
    setTimeout(() => controller.abort(), 50);
    await expect(http.send({ path: '/v1/projects' })).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('long-lived signals (Ctrl-C, an --all walk)', () => {
  it('hold one listener for all requests, and still abort every request in flight', async () => {
    const interrupt = new AbortController();
    const walk = new AbortController();
    const { http } = client({ signal: interrupt.signal });
    for (let i = 0; i < 20; i++) replies.push(json(200, { data: [] }));
    for (let i = 0; i < 5; i++) {
      await Promise.all(Array.from({ length: 4 }, () => http.send({ path: '/v1/projects', signal: walk.signal })));
    }
    const slow: Reply = (_req, res) => {
      setTimeout(() => json(200, { data: [] })(_req, res), 2000);
    };
    replies.push(slow, slow, slow);
    const pending = Array.from({ length: 3 }, () =>
      http.send({ path: '/v1/projects', signal: walk.signal }).catch((e: unknown) => e),
    );
    while (seen.length < 23) await new Promise((resolve) => setTimeout(resolve, 5));
    // One listener each for the three requests in flight, not one per request added and removed:
    // Node's EventTarget keeps a removed listener linked to the next, which chained every request
    // of a long walk together (and kept them all from the young generation's collector).
    expect(getEventListeners(interrupt.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(walk.signal, 'abort')).toHaveLength(1);
    interrupt.abort();
    const errors = await Promise.all(pending);
    for (const error of errors) expect(error).toBeInstanceOf(InterruptedError);
    expect(seen).toHaveLength(23);
  });

  it('aborts a request whose signal is already aborted without sending it', async () => {
    const walk = new AbortController();
    walk.abort();
    const { http } = client();
    const error = await http.send({ path: '/v1/projects', signal: walk.signal, retry: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(seen).toHaveLength(0);
  });
});

describe('--verbose trace', () => {
  it('logs one line per request and response, never the token', async () => {
    const { http, trace } = client({ maxRetries: 1 });
    replies.push(
      json(503, { error: { message: 'x' } }, { 'retry-after': '0', 'x-ratelimit-remaining': '9' }),
      json(200, { data: [] }),
    );
    await http.send({ path: '/v1/projects', query: { q: 'x' } });
    expect(trace.map((line) => line.replace(/\(\d+ ms/, '(N ms'))).toEqual([
      `> GET ${base}/v1/projects?q=x`,
      '< 503 Service Unavailable (N ms, rate limit: remaining 9)',
      '* retrying in 0 ms (attempt 2 of 2)',
      `> GET ${base}/v1/projects?q=x`,
      '< 200 OK (N ms)',
    ]);
    expect(trace.join('\n')).not.toContain('secret-token-123');
  });
});

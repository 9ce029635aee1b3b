// The emulator's frame over real HTTP: projects and search (SPEC 4.1), auth and the error envelope
// (5, 7), rate limiting (8), fault injection, latency, persistence, scale and the CLI entry point.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  Artist,
  ErrorBody,
  Project,
  SERVICE_NOW_STATEMENT_FIELDS,
  SearchResult,
  Statement,
  StatementUpload,
  envelope,
  paged,
} from '../helpers/spec-forms.js';
import { serveFromCli } from '../../src/emulator/cli.js';
import { defaultOptions, type Emulator } from '../../src/emulator/server.js';
import {
  DEMO_ORG_ID,
  DEMO_PROJECT_ID,
  DEMO_PROJECT_TOKEN,
  OTHER_PROJECT_ID,
  SECOND_PROJECT_ID,
  seedState,
} from '../../src/emulator/seed.js';
import { call, testEmulator } from '../helpers/emulator.js';

async function json(res: Response): Promise<unknown> {
  return res.json();
}

const errorOf = async (res: Response) => ErrorBody.parse(await json(res)).error;

describe('projects, auth and errors', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'current' });
  });
  afterAll(() => emulator.close());

  it('lists the organization’s projects for an organization token', async () => {
    const res = await call(emulator, '/v1/projects');
    expect(res.status).toBe(200);
    const projects = envelope(z.array(Project)).parse(await json(res)).data;
    expect(projects.map((p) => p.id)).toEqual([DEMO_PROJECT_ID, SECOND_PROJECT_ID]);
    for (const project of projects) {
      expect(Object.keys(project).sort()).toEqual(['created_at', 'id', 'name', 'organization_id']);
      expect(project.organization_id).toBe(DEMO_ORG_ID);
    }
  });

  it('lists only the assigned project for a project token', async () => {
    const res = await call(emulator, '/v1/projects', { token: DEMO_PROJECT_TOKEN });
    const projects = envelope(z.array(Project)).parse(await json(res)).data;
    expect(projects.map((p) => p.id)).toEqual([DEMO_PROJECT_ID]);
  });

  it('gets a project, 404 outside the organization, 403 outside the token scope', async () => {
    const res = await call(emulator, `/v1/projects/${SECOND_PROJECT_ID}`);
    expect(envelope(Project).parse(await json(res)).data.name).toBe('Harbor Sessions');
    const other = await call(emulator, `/v1/projects/${OTHER_PROJECT_ID}`);
    expect(other.status).toBe(404);
    expect(await errorOf(other)).toEqual({ message: 'project not found' });
    expect((await call(emulator, '/v1/projects/not-a-uuid')).status).toBe(404);
    const scoped = await call(emulator, `/v1/projects/${SECOND_PROJECT_ID}`, { token: DEMO_PROJECT_TOKEN });
    expect(scoped.status).toBe(403);
  });

  it('answers 401 without a token, with a bad one, and with another scheme', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: 'Basic ZGVtbw==' },
    ];
    for (const headers of variants) {
      const res = await call(emulator, '/v1/projects', { token: null, headers });
      expect(res.status).toBe(401);
      expect((await errorOf(res)).message).toEqual(expect.any(String));
    }
  });

  it('answers 404 for an unknown path and 405 for a known path with another method', async () => {
    const missing = await call(emulator, '/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toEqual({ message: 'not found' });
    const wrong = await call(emulator, '/v1/artists', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
  });

  it('sends no CORS headers', async () => {
    const res = await call(emulator, '/v1/projects', { headers: { origin: 'https://example.com' } });
    expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('GET /v1/projects/:id/search', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'current' });
  });
  afterAll(() => emulator.close());

  const search = async (params: Record<string, string>, project = DEMO_PROJECT_ID, token?: string) =>
    call(emulator, `/v1/projects/${project}/search?${new URLSearchParams(params)}`, { token });
  const results = async (params: Record<string, string>) => {
    const res = await search(params);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    return envelope(z.array(SearchResult)).parse(body).data;
  };

  it('ranks an exact name, then a prefix, then word matches, then substrings', async () => {
    const hits = await results({ q: 'Nova Reyes', limit: '100' });
    expect(hits[0]).toEqual({ type: 'artist', id: 'art_00001', name: 'Nova Reyes', score: 1 });
    const names = hits.map((h) => h.name);
    const prefix = names.indexOf('Nova Reyes Music LLC');
    const words = names.indexOf('Recording Agreement — Nova Reyes / Lumen Records');
    const partial = hits.findIndex((h) => !h.name.toLowerCase().includes('nova reyes'));
    expect(prefix).toBeGreaterThan(0);
    expect(words).toBeGreaterThan(prefix);
    expect(partial).toBeGreaterThan(words);
    for (const hit of hits) {
      expect(Object.keys(hit).sort()).toEqual(['id', 'name', 'score', 'type']);
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(1);
    }
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score ?? 0);
  });

  it('is case- and accent-insensitive and scores multi-word queries by the share of words matched', async () => {
    const accented = await results({ q: 'bergstrom' });
    expect(accented.length).toBeGreaterThan(0);
    expect(accented.every((h) => h.name.includes('Bergström'))).toBe(true);
    const upper = await results({ q: 'NOVA REYES' });
    expect(upper[0]?.score).toBe(1);
    const hits = await results({ q: 'nova lumen', limit: '100' });
    const score = (id: string) => hits.find((h) => h.id === id)?.score ?? 0;
    // "Recording Agreement — Nova Reyes / Lumen Records" has both words, "Nova Reyes" one of two.
    expect(score('20001')).toBeGreaterThan(0.7);
    expect(score('art_00001')).toBeGreaterThanOrEqual(0.36);
    expect(score('art_00001')).toBeLessThanOrEqual(0.4);
  });

  it('covers every kind of record and only root records', async () => {
    const types = new Set<string>();
    for (const q of ['golden', 'lumen', 'nova', 'agreement', 'petrov']) {
      for (const hit of await results({ q, limit: '100' })) types.add(hit.type);
    }
    expect([...types].sort()).toEqual(['artist', 'composition', 'contract', 'entity', 'recording', 'writer']);
    const duplicates = emulator.state.data[DEMO_PROJECT_ID]?.artists.filter((a) => a.merged_into !== undefined) ?? [];
    const hits = await results({ q: duplicates[0]?.name ?? '', limit: '100' });
    expect(hits.map((h) => h.id)).not.toContain(duplicates[0]?.id);
  });

  it('filters by type and caps the count with limit', async () => {
    const contracts = await results({ q: 'agreement', type: 'contract', limit: '7' });
    expect(contracts).toHaveLength(7);
    expect(contracts.every((h) => h.type === 'contract')).toBe(true);
    const mixed = await results({ q: 'golden', type: 'recordings,composition' });
    expect(new Set(mixed.map((h) => h.type))).toEqual(new Set(['recording', 'composition']));
    expect(await results({ q: 'a' })).toHaveLength(20);
    expect(await results({ q: 'qqqqqq' })).toEqual([]);
  });

  it.each([
    [{}, 'q'],
    [{ q: '' }, 'q'],
    [{ q: '   ' }, 'q'],
    [{ q: 'x'.repeat(501) }, 'q'],
    [{ q: 'nova', limit: '0' }, 'limit'],
    [{ q: 'nova', limit: '101' }, 'limit'],
    [{ q: 'nova', type: 'song' }, 'type'],
  ])('answers 400 with field details for %j', async (params, field) => {
    const res = await search(params);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(Object.keys(error)).toEqual([field]);
    expect(error[field]).toEqual([expect.any(String)]);
  });

  it('accepts a query of exactly 500 characters', async () => {
    expect((await search({ q: 'é'.repeat(500) })).status).toBe(200);
  });

  it('answers 403 out of the token scope and 404 outside the organization', async () => {
    expect((await search({ q: 'nova' }, SECOND_PROJECT_ID, DEMO_PROJECT_TOKEN)).status).toBe(403);
    expect((await search({ q: 'nova' }, DEMO_PROJECT_ID, DEMO_PROJECT_TOKEN)).status).toBe(200);
    expect((await search({ q: 'nova' }, OTHER_PROJECT_ID)).status).toBe(404);
    const bad = await search({ q: 'nova' }, 'nope');
    expect(await errorOf(bad)).toEqual({ project_id: ['project_id must be a valid UUID'] });
  });
});

describe('rate limiting', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'current', rateLimit: 3 });
  });
  afterAll(() => emulator.close());

  const limitHeaders = (res: Response) => ({
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: Number(res.headers.get('x-ratelimit-reset')),
  });

  it('counts down per token, then answers 429 with Retry-After', async () => {
    const now = Date.now() / 1000;
    const seen = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(emulator, '/v1/projects');
      seen.push({
        status: res.status,
        ...limitHeaders(res),
        retryAfter: res.headers.get('retry-after'),
        body: await json(res),
      });
    }
    expect(seen.map((s) => [s.status, s.limit, s.remaining])).toEqual([
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
      [429, '3', '0'],
    ]);
    const refused = seen[3];
    expect(refused?.body).toEqual({ error: { message: 'rate limit exceeded' } });
    expect(Number(refused?.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.retryAfter)).toBeLessThanOrEqual(60);
    expect(refused?.reset).toBeGreaterThan(now);
    expect(refused?.reset).toBeLessThanOrEqual(now + 61);
    // Another token has its own window.
    const other = await call(emulator, '/v1/projects', { token: DEMO_PROJECT_TOKEN });
    expect([other.status, other.headers.get('x-ratelimit-remaining')]).toEqual([200, '2']);
  });

  it('sends the headers on errors too, and counts clients without a token by address', async () => {
    const unauthorized = await call(emulator, '/v1/projects', { token: null });
    expect(unauthorized.status).toBe(401);
    expect(limitHeaders(unauthorized)).toMatchObject({ limit: '3', remaining: '2' });
    const missing = await call(emulator, '/v1/nowhere', { token: 'some-unknown-token' });
    expect(missing.status).toBe(404);
    expect(limitHeaders(missing).remaining).toBe('2');
  });
});

describe('rate-limit headers without a limit', () => {
  it('are sent with a generous limit', async () => {
    const emulator = await testEmulator({ flavor: 'current' });
    try {
      const res = await call(emulator, '/v1/projects');
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000000');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('999999');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    } finally {
      await emulator.close();
    }
  });
});

describe('fault injection and latency', () => {
  const statuses = async (seed: number, count: number): Promise<number[]> => {
    const emulator = await testEmulator({ flavor: 'current', failRate: 0.4, seed });
    try {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) {
        const res = await call(emulator, '/v1/projects');
        if (res.status === 503) {
          expect(res.headers.get('retry-after')).toBe('1');
          expect(await json(res)).toEqual({ error: { message: 'service unavailable (injected fault)' } });
        } else {
          await res.arrayBuffer();
        }
        seen.push(res.status);
      }
      return seen;
    } finally {
      await emulator.close();
    }
  };

  it('fails the same requests for the same seed', async () => {
    const first = await statuses(42, 30);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses(42, 30)).toEqual(first);
    expect(await statuses(7, 30)).not.toEqual(first);
  });

  it('refuses before the handler runs: a failed upload leaves nothing behind', async () => {
    const emulator = await testEmulator({ flavor: 'current', failRate: 1 });
    try {
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n').toString('base64');
      for (let i = 0; i < 3; i++) {
        const res = await call(emulator, `/v1/contracts?projectId=${DEMO_PROJECT_ID}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ file: pdf, fileName: 'deal.pdf' }),
        });
        expect(res.status).toBe(503);
        await res.arrayBuffer();
      }
      expect(emulator.state.uploads).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  it('answers a large refused upload instead of resetting the connection', async () => {
    const emulator = await testEmulator({ flavor: 'current', failRate: 1 });
    try {
      const res = await call(emulator, `/v1/statements?projectId=${DEMO_PROJECT_ID}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file: Buffer.alloc(8 * 1024 * 1024, 1).toString('base64'), fileName: 'big.pdf' }),
      });
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({ error: { message: 'service unavailable (injected fault)' } });
    } finally {
      await emulator.close();
    }
  });

  it('delays every response by the latency', async () => {
    const emulator = await testEmulator({ flavor: 'current', latencyMs: 150 });
    try {
      for (const token of ['demo-org-token', null]) {
        const started = performance.now();
        await (await call(emulator, '/v1/projects', { token })).arrayBuffer();
        expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      }
    } finally {
      await emulator.close();
    }
  });
});

describe('persistence with a data file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pds-emulator-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds the file on first start and loads it on the next', async () => {
    const dataFile = join(dir, 'nested', 'state.json');
    const first = await testEmulator({ flavor: 'current', dataFile });
    expect(first.origin).toBe('seeded');
    await first.close();
    const saved = z.looseObject({ projects: z.array(Project) }).parse(JSON.parse(readFileSync(dataFile, 'utf8')));
    expect(saved.projects).toHaveLength(3);

    // An edit to the file shows: the state comes from it, not from a new seed.
    writeFileSync(dataFile, readFileSync(dataFile, 'utf8').replace('Harbor Sessions', 'Harbor Sessions (restored)'));
    const second = await testEmulator({ flavor: 'current', dataFile });
    try {
      expect(second.origin).toBe('loaded');
      const res = await call(second, `/v1/projects/${SECOND_PROJECT_ID}`);
      expect(envelope(Project).parse(await json(res)).data.name).toBe('Harbor Sessions (restored)');
    } finally {
      await second.close();
    }
  });

  it('keeps an upload across a restart', async () => {
    const dataFile = join(dir, 'uploads.json');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n').toString('base64');
    const first = await testEmulator({ flavor: 'current', dataFile });
    let stagingId: number;
    try {
      const res = await call(first, `/v1/statements?projectId=${DEMO_PROJECT_ID}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file: pdf, fileName: 'q3-royalties.pdf' }),
      });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      stagingId = envelope(StatementUpload).parse(body).data.staging_id;
    } finally {
      await first.close();
    }
    const second = await testEmulator({ flavor: 'current', dataFile });
    try {
      expect(second.state.uploads.map((u) => u.staging_id)).toEqual([stagingId]);
      const res = await call(second, `/v1/statements/${stagingId}/processes?projectId=${DEMO_PROJECT_ID}`);
      expect(res.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a file that is not a data file', async () => {
    const dataFile = join(dir, 'broken.json');
    writeFileSync(dataFile, '{"projects": 3}');
    await expect(testEmulator({ flavor: 'current', dataFile })).rejects.toThrow(/not an emulator data file/);
  });
});

describe('seed data', () => {
  it('is the same on every start, whichever records are read first', () => {
    const a = seedState({ scale: 1 });
    const b = seedState({ scale: 1 });
    const data = b.data[DEMO_PROJECT_ID];
    // Reading contracts first builds everything they depend on in another order than JSON does.
    expect(data?.contracts.length).toBeGreaterThan(0);
    expect(b.data[SECOND_PROJECT_ID]?.statements.length).toBeGreaterThan(0);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('is quick to seed at scale 100', () => {
    const started = performance.now();
    seedState({ scale: 100 });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('rejects a scale that is not a whole number ≥ 1', () => {
    expect(() => seedState({ scale: 0 })).toThrow(RangeError);
    expect(() => seedState({ scale: 1.5 })).toThrow(RangeError);
  });
});

describe('--scale 100', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'current', scale: 100 });
  });
  afterAll(() => emulator.close());

  it('serves at least 10,000 root artists', async () => {
    const page = async (n: number) => {
      const res = await call(emulator, `/v1/artists?projectId=${DEMO_PROJECT_ID}&perPage=100&page=${n}`);
      expect(res.status).toBe(200);
      return envelope(z.array(Artist)).parse(await json(res)).data;
    };
    expect(await page(100)).toHaveLength(100);
    const first = await page(1);
    const last = await page(100);
    expect(new Set([...first, ...last].map((a) => a.id)).size).toBe(200);
  });

  it('pages the statements envelope with the scaled total', async () => {
    const res = await call(emulator, `/v1/statements?projectId=${DEMO_PROJECT_ID}&perPage=100&page=120`);
    // The `current` flavor's statements carry SERVICE-NOW.md's fields beside SPEC.md's.
    const data = envelope(paged(z.extend(Statement, SERVICE_NOW_STATEMENT_FIELDS))).parse(await json(res)).data;
    expect(data.total_count).toBeGreaterThanOrEqual(12_000);
    expect(data.items).toHaveLength(100);
  });
});

describe('serveFromCli', () => {
  const streams = () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    return { stdout, stderr, out: () => out, err: () => err };
  };

  it('prints where it listens first, serves, and stops on abort', async () => {
    const io = streams();
    const controller = new AbortController();
    const done = serveFromCli({ ...defaultOptions, port: 0, quiet: false }, io, controller.signal);
    await expect.poll(() => io.out()).toMatch(/\n/);
    const [first, ...rest] = io.out().split('\n');
    expect(first).toMatch(/^pds emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(rest.join('\n')).toContain('demo-org-token');
    expect(rest.join('\n')).toContain(`demo-project-token  (project: Northern Lights Catalog ${DEMO_PROJECT_ID})`);
    const base = (first ?? '').replace('pds emulator listening on ', '');
    const res = await fetch(`${base}/v1/projects`, { headers: { authorization: 'Bearer demo-org-token' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expect.poll(() => io.err()).toMatch(/^GET \/v1\/projects 200 \d+ms\n$/);
    controller.abort();
    expect(await done).toBe(0);
    await expect(fetch(`${base}/v1/projects`)).rejects.toThrow();
  });

  it('reports a port in use on stderr and returns 1', async () => {
    const taken = await testEmulator({ flavor: 'current' });
    try {
      const io = streams();
      const code = await serveFromCli(
        { ...defaultOptions, port: taken.port, quiet: true },
        io,
        new AbortController().signal,
      );
      expect(code).toBe(1);
      expect(io.out()).toBe('');
      expect(io.err()).toMatch(/^error: cannot listen on 127\.0\.0\.1:\d+: the address is already in use/);
    } finally {
      await taken.close();
    }
  });
});

describe('project ids in any case', () => {
  it('resolves an upper-case project UUID like its canonical form', async () => {
    const emulator = await testEmulator({ flavor: 'current' });
    try {
      const upper = '5F1C7E0A-2B3D-4C8E-9F01-A2B3C4D5E6F7';
      const project = await call(emulator, `/v1/projects/${upper}`);
      expect(project.status).toBe(200);
      const artists = await call(emulator, `/v1/artists?projectId=${upper}&perPage=1`, { token: 'demo-project-token' });
      expect(artists.status).toBe(200);
    } finally {
      await emulator.close();
    }
  });
});

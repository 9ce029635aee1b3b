// The emulator's routes of the deployed service (SERVICE-NOW.md) over real HTTP: the three-step
// upload on its storage host, paused staging and retry, tags, statement edits, projects, knowledge
// search, the new contract and statement options, and the seed flavor without any of them.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DriftedStatementProcesses, ErrorBody } from '../helpers/spec-forms.js';
import { DEMO_PROJECT_ID, DEMO_PROJECT_TOKEN } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { call, sharedEmulator, testEmulator } from '../helpers/emulator.js';

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));
const CSV = Buffer.from('isrc,units,amount\nUSRC17607839,120,3.60\n');
const P = `projectId=${DEMO_PROJECT_ID}`;
const emulator = sharedEmulator({ flavor: 'current', processingMs: 20 });

async function json(em: Emulator, path: string, method: string, body?: unknown, token?: string) {
  const response = await call(em, path, {
    method,
    ...(token === undefined ? {} : { token }),
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const mintBody = (fileName: string, bytes: Buffer, fileType: string, extra: Record<string, unknown> = {}) => ({
  fileName,
  fileType,
  fileSize: bytes.length,
  ...extra,
});

/** The three steps; returns the staging id and the complete answer. */
async function upload(
  em: Emulator,
  kind: 'contracts' | 'statements',
  fileName: string,
  bytes: Buffer,
  fileType: string,
  extra: Record<string, unknown> = {},
) {
  const minted = await json(em, `/v1/${kind}/uploads?${P}`, 'POST', mintBody(fileName, bytes, fileType, extra));
  expect(minted.status, JSON.stringify(minted.body)).toBe(200);
  const { staging_id, upload_url, file_path } = minted.body.data;
  expect(new URL(upload_url).origin).toBe(em.storage.origin);
  expect(file_path).toBe(`${DEMO_PROJECT_ID}/${kind}/${staging_id}/${fileName}`);
  const put = await fetch(upload_url, {
    method: 'PUT',
    body: bytes,
    headers: { 'content-type': fileType, 'x-upsert': 'true' },
  });
  expect(put.status).toBe(200);
  const done = await json(em, `/v1/${kind}/uploads/complete?${P}`, 'POST', { stagingId: staging_id });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { stagingId: staging_id as number, complete: done.body.data };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('three-step upload', () => {
  it('stores a CSV statement with its context and tags, and serves it with file_name, file_type, file_size', async () => {
    const context = {
      accountingPeriod: { value: '2026Q1' },
      targetPeriod: { value: '2026H1' },
      currencyRoyalty: 'EUR',
      currencyTransaction: 'USD',
      payee: 'Label A',
      payor: 'Distributor B',
      classification: { scenarioFamily: 'dsp.spotify', targetFamily: 'recording_dsp_usage' },
      tags: ['q1', 'spotify'],
    };
    const { stagingId, complete } = await upload(emulator, 'statements', 'sales.csv', CSV, 'text/csv', {
      context,
      folderName: 'inbox',
    });
    expect(complete).toEqual({
      staging_id: stagingId,
      status: 'queued',
      context_applied: true,
      enqueued: true,
      paused: false,
    });
    await settle();
    const list = await json(emulator, `/v1/statements?${P}&stagingIds=${stagingId}`, 'GET');
    expect(list.body.data.items).toHaveLength(1);
    const statement = list.body.data.items[0];
    expect(statement).toMatchObject({
      file_name: 'sales.csv',
      file_type: 'text/csv',
      file_size: CSV.length,
      staging_id: stagingId,
      accounting_period: '2026Q1',
      target_period: '2026H1',
      payee: 'Label A',
      payor: 'Distributor B',
      currency_royalty: 'EUR',
      currency_transaction: 'USD',
      tags: ['q1', 'spotify'],
      extraction_stage: 'completed',
    });
    const detailed = await json(emulator, `/v1/statements/${statement.id}?${P}&detailed=true&score=true`, 'GET');
    expect(detailed.body.data).toMatchObject({ folder_name: 'inbox', file_size: CSV.length });
    expect(detailed.body.data.score).toBeGreaterThanOrEqual(0.5);
  });

  it('takes a gzip and an xlsx statement and a contract PDF; the storage host saw no Authorization header', async () => {
    emulator.storage.requests.length = 0;
    await upload(emulator, 'statements', 'royalties.gz', gzipSync(CSV), 'application/gzip');
    const xlsx = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(100, 1)]);
    await upload(
      emulator,
      'statements',
      'royalties.xlsx',
      xlsx,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const { stagingId } = await upload(emulator, 'contracts', 'deal.pdf', PDF, 'application/pdf', {
      extractions: ['extract-royalties'],
      context: { tags: ['deal'] },
    });
    expect(emulator.storage.requests.map((r) => [r.method, r.authorization])).toEqual([
      ['PUT', false],
      ['PUT', false],
      ['PUT', false],
    ]);
    await settle();
    await json(emulator, `/v1/contracts/${stagingId}/processes?${P}`, 'GET'); // the clock moves on a request
    const contract = emulator.state.data[DEMO_PROJECT_ID]?.contracts.find((c) => c.staging_id === stagingId);
    const got = await json(emulator, `/v1/contracts/${contract?.id}?${P}&includes=royalties,languages`, 'GET');
    expect(got.body.data).toMatchObject({
      file_name: 'deal.pdf',
      file_type: 'application/pdf',
      tags: ['deal'],
      languages: [],
    });
    expect(got.body.data.royalties).toHaveLength(1);
  });

  it('fails staging for bytes that are not what the name says', async () => {
    const { stagingId } = await upload(emulator, 'statements', 'fake.gz', CSV, 'application/gzip');
    await settle();
    const processes = await json(emulator, `/v1/statements/${stagingId}/processes?${P}`, 'GET');
    expect(processes.body.data.staging_processes).toMatchObject({
      stage: 'failed',
      info: { message: 'the file is not gzip-compressed' },
    });
  });

  it('refuses a bad mint with field details', async () => {
    const bad = await json(emulator, `/v1/statements/uploads?${P}`, 'POST', {
      fileName: 'virus.exe',
      fileType: 'application/x-msdownload',
      fileSize: 60 * 1024 * 1024,
      extractions: ['extract-royalties'],
      context: {
        accountingPeriod: { value: '2026-13' },
        currencyRoyalty: 'euro',
        classification: { scenarioFamily: 'dsp.nope', targetFamily: 'x' },
        bogus: 1,
      },
    });
    expect(bad.status).toBe(400);
    const error = ErrorBody.parse(bad.body).error;
    expect(Object.keys(error).sort()).toEqual([
      'context.accountingPeriod',
      'context.bogus',
      'context.classification.scenarioFamily',
      'context.classification.targetFamily',
      'context.currencyRoyalty',
      'extractions',
      'fileName',
      'fileSize',
    ]);
    const contract = await json(emulator, `/v1/contracts/uploads?${P}`, 'POST', {
      fileName: 'a.csv',
      fileType: 'text/csv',
      fileSize: 3,
      context: { payee: 'x' },
    });
    expect(Object.keys(ErrorBody.parse(contract.body).error).sort()).toEqual(['context.payee', 'fileName']);
    const mismatch = await json(emulator, `/v1/statements/uploads?${P}`, 'POST', {
      fileName: 'a.csv',
      fileType: 'application/pdf',
      fileSize: 3,
    });
    expect(ErrorBody.parse(mismatch.body).error).toEqual({
      fileType: ["fileType 'application/pdf' does not match 'a.csv' (expected text/csv)"],
    });
    const empty = await json(emulator, `/v1/statements/uploads?${P}`, 'POST', {});
    expect(Object.keys(ErrorBody.parse(empty.body).error).sort()).toEqual(['fileName', 'fileSize', 'fileType']);
  });

  it('refuses a complete before the PUT, of an unknown staging, or with a bad id', async () => {
    const minted = await json(emulator, `/v1/statements/uploads?${P}`, 'POST', mintBody('a.csv', CSV, 'text/csv'));
    const early = await json(emulator, `/v1/statements/uploads/complete?${P}`, 'POST', {
      stagingId: minted.body.data.staging_id,
    });
    expect(early.status).toBe(400);
    expect(ErrorBody.parse(early.body).error.stagingId).toBeDefined();
    expect((await json(emulator, `/v1/statements/uploads/complete?${P}`, 'POST', { stagingId: 999_999 })).status).toBe(
      404,
    );
    const bad = await json(emulator, `/v1/statements/uploads/complete?${P}`, 'POST', { stagingId: 'x' });
    expect(bad.body).toEqual({ error: { stagingId: ['stagingId must be a positive integer'] } });
  });

  it('the storage host: 400 with an Authorization header, 403 for a tampered or GET use, 409 without x-upsert', async () => {
    const minted = await json(emulator, `/v1/statements/uploads?${P}`, 'POST', mintBody('a.csv', CSV, 'text/csv'));
    const url: string = minted.body.data.upload_url;
    const leak = await fetch(url, { method: 'PUT', body: CSV, headers: { authorization: 'Bearer demo-org-token' } });
    expect(leak.status).toBe(400);
    expect(await leak.text()).toContain('send no Authorization header');
    expect(emulator.storage.requests.at(-1)?.authorization).toBe(true);
    // Tampered: the signature's first character changed (to another one, whatever it was).
    const tampered = url.replace(/signature=(.)/, (_, first: string) => `signature=${first === '0' ? '1' : '0'}`);
    expect(tampered).not.toBe(url);
    expect((await fetch(tampered, { method: 'PUT', body: CSV })).status).toBe(403);
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(url, { method: 'PUT', body: CSV })).status).toBe(200);
    expect((await fetch(url, { method: 'PUT', body: CSV })).status).toBe(409);
    expect((await fetch(url, { method: 'PUT', body: CSV, headers: { 'x-upsert': 'true' } })).status).toBe(200);
  });

  it('a completed staging completed again answers the same, with no second record', async () => {
    const { stagingId } = await upload(emulator, 'statements', 'twice.csv', CSV, 'text/csv');
    const again = await json(emulator, `/v1/statements/uploads/complete?${P}`, 'POST', { stagingId });
    expect(again.body.data).toMatchObject({ staging_id: stagingId, status: 'queued', enqueued: false });
    expect(emulator.state.uploads.filter((u) => u.staging_id === stagingId)).toHaveLength(1);
  });
});

describe('--pause-uploads and retry', () => {
  it('pauses new uploads with a reason; a retry while paused stays paused with the quota; then queues', async () => {
    const em = await testEmulator({ flavor: 'current', processingMs: 20, pauseUploads: true });
    try {
      const { stagingId, complete } = await upload(em, 'statements', 'p.csv', CSV, 'text/csv');
      expect(complete).toMatchObject({ status: 'paused', paused: true, enqueued: false });
      await settle();
      const processes = await json(em, `/v1/statements/${stagingId}/processes?${P}`, 'GET');
      expect(processes.body.data).toMatchObject({
        staging_done: false,
        requires_action: true,
        available_actions: ['retry'],
        staging_processes: { stage: 'paused' },
      });
      expect(processes.body.data.pause_reason).toMatch(/quota/);
      const still = await json(em, `/v1/statements/staging/${stagingId}/retry?${P}`, 'POST', {});
      expect(still.body.data).toMatchObject({ staging_id: stagingId, status: 'paused', enqueued: false, limit: 100 });
      em.options.pauseUploads = false;
      const retried = await json(em, `/v1/statements/staging/${stagingId}/retry?${P}`, 'POST', {});
      expect(retried.body.data).toMatchObject({ staging_id: stagingId, status: 'queued', enqueued: true });
      await settle();
      const after = await json(em, `/v1/statements/${stagingId}/processes?${P}`, 'GET');
      expect(after.body.data).toMatchObject({ staging_done: true, processing_done: true });
      const again = await json(em, `/v1/statements/staging/${stagingId}/retry?${P}`, 'POST', {});
      expect(again.status).toBe(409);
      expect((await json(em, `/v1/contracts/staging/${stagingId}/retry?${P}`, 'POST', {})).status).toBe(404);
    } finally {
      await em.close();
    }
  });
});

describe('tags and statement edits', () => {
  it('puts and lists tags; PUT /contracts/{id} replaces them; bad input is a field error', async () => {
    const contract = emulator.state.data[DEMO_PROJECT_ID]?.contracts[1];
    const put = await json(emulator, `/v1/tags?${P}`, 'PUT', {
      scope: 'contracts',
      resourceId: contract?.id,
      tags: ['urgent', 'urgent', 'review'],
    });
    expect(put.status).toBe(200);
    expect(put.body.data.resource_id).toBe(contract?.id);
    expect(put.body.data.tags.map((t: { tag: string }) => t.tag)).toEqual(['urgent', 'review']);
    const list = await json(emulator, `/v1/tags?${P}&scope=contracts&search=urg`, 'GET');
    expect(list.body.data).toEqual([
      { id: put.body.data.tags[0].id, tag: 'urgent', scope: 'contracts', usage_count: 1 },
    ]);
    expect(list.body.pagination).toMatchObject({ page: 1, total_count: 1 });
    const cleared = await json(emulator, `/v1/contracts/${contract?.id}?${P}`, 'PUT', { tags: [] });
    expect(cleared.body.data).toEqual({ id: contract?.id, tags: [] });
    const bad = await json(emulator, `/v1/tags?${P}`, 'PUT', { scope: 'artists', tags: 'x' });
    expect(Object.keys(ErrorBody.parse(bad.body).error).sort()).toEqual(['resourceId', 'scope', 'tags']);
    expect((await json(emulator, `/v1/tags?${P}&scope=nope`, 'GET')).status).toBe(400);
    expect((await json(emulator, `/v1/contracts/nope?${P}`, 'PUT', { tags: [] })).status).toBe(404);
    expect((await json(emulator, `/v1/contracts/${contract?.id}?${P}`, 'PUT', { name: 'x', tags: [] })).body).toEqual({
      error: { name: ['a contract takes only tags'] },
    });
  });

  it('updates a statement and clears a field with null', async () => {
    const statement = emulator.state.data[DEMO_PROJECT_ID]?.statements[0];
    const put = await json(emulator, `/v1/statements/${statement?.id}?${P}`, 'PUT', {
      payee: 'New Payee',
      accountingPeriod: '2026M11',
      currencyTx: 'GBP',
      currency: null,
      tags: ['x'],
    });
    expect(put.body.data).toEqual({
      id: statement?.id,
      tags: ['x'],
      payee: 'New Payee',
      payor: null,
      accounting_period: '2026M11',
      target_period: null,
      currency_tx: 'GBP',
      currency: null,
    });
    const bad = await json(emulator, `/v1/statements/${statement?.id}?${P}`, 'PUT', {
      accountingPeriod: '2026-Q3',
      currency: 'eur',
      other: 1,
    });
    expect(Object.keys(ErrorBody.parse(bad.body).error).sort()).toEqual(['accountingPeriod', 'currency', 'other']);
  });
});

describe('projects, knowledge, list options', () => {
  it('creates a project (organization tokens only), which then lists', async () => {
    const made = await json(emulator, '/v1/projects', 'POST', { name: 'New catalogue', entityName: 'New Label' });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ name: 'New catalogue', entity_name: 'New Label' });
    const list = await json(emulator, '/v1/projects', 'GET');
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(made.body.data.id);
    expect((await json(emulator, '/v1/projects', 'POST', { name: 'x' }, DEMO_PROJECT_TOKEN)).status).toBe(403);
    expect((await json(emulator, '/v1/projects', 'POST', { name: '' })).body).toEqual({
      error: { name: ['name is required (1 to 200 characters)'] },
    });
  });

  it('searches knowledge nodes seeded from the catalog, by kind and limit', async () => {
    const artist = emulator.state.data[DEMO_PROJECT_ID]?.artists[0];
    const word = artist?.name ?? '';
    const found = await json(
      emulator,
      `/v1/projects/${DEMO_PROJECT_ID}/knowledge/search?q=${encodeURIComponent(word)}&kind=person&limit=3`,
      'GET',
    );
    expect(found.status).toBe(200);
    expect(found.body.data.results.length).toBeGreaterThan(0);
    expect(found.body.data.results.length).toBeLessThanOrEqual(3);
    const first = found.body.data.results[0];
    expect(first).toMatchObject({ kind: 'person', name: artist?.name });
    expect(first.claims[0]).toMatchObject({ predicate: 'credited_as', state: 'accepted' });
    expect(first.relationships[0]).toMatchObject({
      edge_type: 'member_of',
      node: { kind: 'team', name: 'Royalty Operations' },
    });
    expect(found.body.data.freshness).toMatchObject({ eventually_consistent: true });
    const bad = await json(emulator, `/v1/projects/${DEMO_PROJECT_ID}/knowledge/search?kind=robot&limit=0`, 'GET');
    expect(Object.keys(ErrorBody.parse(bad.body).error).sort()).toEqual(['kind', 'limit', 'q']);
  });

  it('takes the new contract and statement options and refuses bad ones', async () => {
    const list = await json(
      emulator,
      `/v1/contracts?${P}&score=true&citations=true&extractorIds=a,b&includes=commitments,targets,relations`,
      'GET',
    );
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({
      commitments: [],
      targets: [],
      relations: [],
      file_type: 'application/pdf',
    });
    expect(typeof list.body.data[0].score).toBe('number');
    const bad = await json(emulator, `/v1/contracts?${P}&score=yes&includes=nope`, 'GET');
    expect(Object.keys(ErrorBody.parse(bad.body).error).sort()).toEqual(['includes', 'score']);
    const st = await json(emulator, `/v1/statements?${P}&extractionStage=completed`, 'GET');
    expect(st.body.data.items.every((s: { extraction_stage: string }) => s.extraction_stage === 'completed')).toBe(
      true,
    );
    const badSt = await json(emulator, `/v1/statements?${P}&extractionStage=done&stagingIds=a`, 'GET');
    expect(Object.keys(ErrorBody.parse(badSt.body).error).sort()).toEqual(['extractionStage', 'stagingIds']);
  });
});

describe('--flavor seed', () => {
  it('serves the seed spec only: no /uploads (404/405), no tags, no new includes or fields', async () => {
    const em = await testEmulator({ flavor: 'seed' });
    try {
      expect((await json(em, `/v1/statements/uploads?${P}`, 'POST', mintBody('a.csv', CSV, 'text/csv'))).status).toBe(
        405,
      );
      expect((await json(em, `/v1/statements/uploads/complete?${P}`, 'POST', { stagingId: 1 })).status).toBe(404);
      expect((await json(em, `/v1/tags?${P}`, 'GET')).status).toBe(404);
      expect((await json(em, `/v1/contracts?${P}&includes=languages`, 'GET')).status).toBe(400);
      const contracts = await json(em, `/v1/contracts?${P}`, 'GET');
      expect(Object.keys(contracts.body.data[0]).sort()).toEqual(['created_at', 'id', 'name', 'project_id']);
    } finally {
      await em.close();
    }
  });

  it('statement processes carry processing_done in the drifted form too', async () => {
    const em = await testEmulator({ flavor: 'current', drift: true });
    try {
      const statement = em.state.data[DEMO_PROJECT_ID]?.statements[0];
      const processes = await json(em, `/v1/statements/${statement?.id}/processes?${P}`, 'GET');
      // The drifted form of CLI.md ("Tolerance"), with SPEC.md's processing_done beside it.
      DriftedStatementProcesses.parse(processes.body.data);
      expect(processes.body.data).toHaveProperty('processing_done');
      expect(processes.body.data).toHaveProperty('extraction_done');
      expect(processes.body.data.processing_done).toBe(processes.body.data.extraction_done);
    } finally {
      await em.close();
    }
  });
});

describe('the client and the emulator agree on the vocabulary (two copies, each from the spec)', () => {
  it('includes, extractions, statement formats and their types, families, knowledge kinds', async () => {
    const client = await import('../../src/lib/vocabulary.js');
    const formats = await import('../../src/lib/transfer/formats.js');
    const own = await import('../../src/emulator/vocabulary.js');
    expect([...client.CONTRACT_INCLUDES]).toEqual([...own.CURRENT_INCLUDES]);
    expect([...client.SEED_CONTRACT_INCLUDES]).toEqual([...own.SEED_INCLUDES]);
    expect([...client.EXTRACTIONS]).toEqual([...own.CURRENT_EXTRACTION_NAMES]);
    expect(formats.STATEMENT_EXTENSIONS).toEqual(own.STATEMENT_EXTENSIONS);
    expect(Object.fromEntries(Object.entries(formats.STATEMENT_FORMATS).map(([ext, f]) => [ext, f.type]))).toEqual(
      own.STATEMENT_TYPES,
    );
    expect([...formats.SCENARIO_FAMILIES]).toEqual([...own.SCENARIO_FAMILY_NAMES]);
    expect([...formats.TARGET_FAMILIES]).toEqual([...own.TARGET_FAMILY_NAMES]);
    expect([...formats.KNOWLEDGE_KINDS]).toEqual([...own.KNOWLEDGE_KIND_NAMES]);
    // And the emulator serves its own: its 400 lists what it takes.
    const bad = await json(emulator, `/v1/contracts?${P}&includes=nope`, 'GET');
    expect(bad.body.error.includes[0]).toBe(`unknown include 'nope'; valid: ${own.CURRENT_INCLUDES.join(', ')}`);
  });
});

// The deployed flavor read over HTTP and held to SERVICE-NOW.md ("Records as the deployed service
// returns them", "Processes", the upload answers), not to pds: the forms are written down below
// from that document, one small checker per record type, and the example answers of
// ../shared/examples/deployed/ give the key sets where they are exact. Also: the same records in
// the same order as the seed's forms, the seed flavor still in SPEC.md's forms, and issue 32 item 13
// (staging checks that fit the file, statement sizes that match their download).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID, SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { call, sharedEmulator, testEmulator } from '../helpers/emulator.js';

// ---- the forms of SERVICE-NOW.md, written down ----

/** A problem with a value, or undefined when it has the form. */
type Check = (value: unknown, at: string) => string | undefined;
const is =
  (what: string, test: (v: unknown) => boolean): Check =>
  (v, at) =>
    test(v) ? undefined : `${at}: expected ${what}, got ${JSON.stringify(v)}`;
const int = is('an integer', (v) => Number.isSafeInteger(v));
const num = is('a number', (v) => typeof v === 'number' && Number.isFinite(v));
const str = is('a string', (v) => typeof v === 'string');
const bool = is('a boolean', (v) => typeof v === 'boolean');
const any: Check = () => undefined;
const oneOf = (...values: unknown[]): Check => is(`one of ${values.join('|')}`, (v) => values.includes(v));
const orNull =
  (check: Check): Check =>
  (v, at) =>
    v === null ? undefined : check(v, at);
const _numOrStr: Check = (v, at) => (typeof v === 'string' ? undefined : num(v, at));
const list =
  (item: Check): Check =>
  (v, at) =>
    Array.isArray(v)
      ? v.map((x, i) => item(x, `${at}[${i}]`)).find((p) => p !== undefined)
      : `${at}: expected an array, got ${JSON.stringify(v)}`;

/**
 * An object with the `required` keys and any of the `optional` ones; `open` lets other keys by
 * (the document says unknown fields may appear; the emulator's own records are held to the list).
 */
function record(required: Record<string, Check>, optional: Record<string, Check> = {}, open = false): Check {
  return (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return `${at}: expected an object, got ${JSON.stringify(v)}`;
    const fields = v as Record<string, unknown>;
    for (const [key, check] of Object.entries(required)) {
      if (!(key in fields)) return `${at}.${key}: missing`;
      const problem = check(fields[key], `${at}.${key}`);
      if (problem) return problem;
    }
    for (const [key, value] of Object.entries(fields)) {
      if (key in required) continue;
      const check = optional[key];
      if (!check) {
        if (!open) return `${at}.${key}: not in the document's form`;
        continue;
      }
      const problem = check(value, `${at}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

const merged = list(record({ id: int, name: str, merged_at: str }));
const link = list(record({ id: int, name: str, role: str }));
const artistRef = record({ name: str }, { spotify_id: str });
const identifier = (type: string) => record({ type: oneOf(type), value: str, source: str });
const product = record({ name: str, upc: str, store: str }, { release_date: str, artists: list(artistRef) });
const scoreForm = record({
  summary: orNull(record({ score: num, meanScore: num, failed: int, warned: int }, { buckets: any })),
  triggered_rules: list(
    record({
      rule_id: str,
      status: oneOf('fail', 'warn'),
      severity: str,
      message: orNull(str),
      level: str,
      section: orNull(str),
      item_kind: orNull(str),
      item_id: orNull(str),
      meta: any,
    }),
  ),
});
const nullable = (keys: string): Record<string, Check> => Object.fromEntries(keys.split(' ').map((k) => [k, any]));

const FORMS = {
  project: record(
    { id: str, name: str, created_at: str, updated_at: orNull(str) },
    {
      entity_name: orNull(str),
      billing_type: orNull(str),
      user_id: str,
      organization_id: str,
      live: orNull(bool),
      archived: bool,
    },
  ),
  entity: record(
    { id: int, internal_uuid: str, name: str, created_at: str, updated_at: str },
    {
      email: str,
      phone: str,
      address: str,
      shorthand: str,
      division_of: int,
      artists: link,
      writers: link,
      relations: link,
      merged,
    },
  ),
  relation: record(
    { id: int, internal_uuid: str, name: str, created_at: str, updated_at: str },
    { email: str, phone: str, department: str, merged },
  ),
  artist: record({ id: int, name: str, created_at: str, internal_uuid: str }, { merged }),
  writer: record({ id: int, name: str, created_at: str }, { merged }),
  recording: record(
    {
      id: int,
      internal_uuid: str,
      name: str,
      type: oneOf('original', 'derivative'),
      identifiers: list(identifier('isrc')),
      artists: list(artistRef),
      creators: list(record({ name: str, role: str })),
    },
    // Fetched by id, a recording has its dates (the list leaves them out).
    { duration_ms: int, release_date: str, products: list(product), created_at: str, updated_at: orNull(str) },
  ),
  composition: record(
    {
      id: int,
      name: str,
      identifiers: list(identifier('iswc')),
      creators: list(record({ name: str }, { role: str })),
      created_at: str,
      updated_at: str,
    },
    { type: str, writers: any, artists: any, products: list(product) },
  ),
  contract: record(
    { id: int, internal_uuid: str, file_name: str, file_type: str, created_at: str },
    {
      extractions: any,
      custom_extractions: list(
        record({ id: int, extractor_id: any, extractor_name: orNull(str), data: any }, {}, true),
      ),
      score: scoreForm,
    },
  ),
  statement: record(
    { id: int, file_name: str, file_type: str, created_at: str },
    {
      ...Object.fromEntries(
        'statement_name statement_desc statement_type statement_category statement_subtype statement_producer statement_version upload_status approval_status currency_transaction currency_royalty processed_at modified_at accounting_period'
          .split(' ')
          .map((k) => [k, orNull(str)]),
      ),
      ...Object.fromEntries('has_revenues has_costs has_summary has_summary_lines'.split(' ').map((k) => [k, bool])),
      staging_id: int,
      file_size: int,
      entity_id: int,
      extraction_stage: oneOf('queued', 'processing', 'completed', 'failed', 'paused', 'timed_out', 'skipped'),
      financials: record({ currency: orNull(str), period: orNull(str), licensee_revenue: num, licensor_revenue: num }),
      statement_summary: record(
        { summary: list(str) },
        { meta: record({}, { generated_at: str, schema_version: str, extraction_run_id: any }) },
      ),
      detailed: orNull(record({ csv_url: str, file_name: str, row_count: int })),
      detailed_error: orNull(str),
      score: scoreForm,
      // What PUT /statements/{id} sets, named in "Records" by the `…` of the statement's fields.
      target_period: str,
      payee: str,
      payor: str,
      tags: list(str),
    },
  ),
};

const citation = record(nullable('field page section_number section_title section_structure citation'));
/** Each include's fields (SERVICE-NOW.md, "Contract"): present, any of them may be null. */
const INCLUDE_FIELDS: Record<string, string> = {
  royalties: 'rule_id rate rate_type title description selection applies_to calculation_base',
  splits: 'split_type rights_type revenue_type asset_identifier parties assets',
  costs: 'rule_id title description recoupment_rate requires_approval cost_base',
  compensations: 'currency currency_estimated advances fixed_fees recurring_payment_type',
  dates: 'extracted_dates extracted_terms missing_dates calculated_end_dates',
  'accounting-periods':
    'accounting_period reporting_delay_value reporting_delay_unit payment_period_value payment_period_unit payout_threshold_value payout_threshold_currency cross_collateralizes audit_rights',
  types: 'type note',
  languages: 'language',
  signatures: 'name entity signed signing_date effective_date',
  'control-areas': 'rule_id description control_type exclusivity rights_type territories',
  'creative-approvals': 'approval_id title approval_party description',
  balances: 'title description reasoning',
  commitments: 'title type description recurring_unit recurring_quantity linked_deliverables linked_assets',
  entities: 'name email phone address shorthand is_entity identifiers division_of role behalf_of',
  artists: 'name role entity_id',
  writers: 'name role entity_id',
  relations: 'name email phone department role entity_id',
  recordings: 'name work_type artists creators identifiers confidence notes',
  compositions: 'name work_type artists creators identifiers confidence notes',
  targets: 'composition_id recording_id album_id number_of_tracks sales_targets price_targets',
};
const INCLUDES = Object.keys(INCLUDE_FIELDS);
const extractionRow = (include: string, citations: boolean): Check =>
  record({
    id: int,
    internal_uuid: str,
    created_at: orNull(str),
    updated_at: orNull(str),
    ...nullable(INCLUDE_FIELDS[include] as string),
    ...(citations && { citations: list(citation) }),
  });

const paged = (item: Check): Check => record({ items: list(item), total_count: int, page: int, per_page: int });

// ---- the emulator ----

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const P = `projectId=${DEMO_PROJECT_ID}`;
// The copies in test/fixtures/deployed (held byte for byte to ../shared by deployed-reads.test.ts), so a clone without ../shared runs this too.
const EXAMPLES = new URL('../fixtures/deployed/', import.meta.url);
const example = (name: string): any => JSON.parse(readFileSync(new URL(`${name}.json`, EXAMPLES), 'utf8')).data;
const keysOf = (value: object): string[] => Object.keys(value).sort();

async function answer(
  em: Emulator,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; data: any; headers: Headers }> {
  const response = await call(em, path, {
    method: init.method ?? 'GET',
    ...(init.body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) }),
  });
  const body = (await response.json()) as { data?: unknown };
  return { status: response.status, data: body.data ?? body, headers: response.headers };
}

/** The `data` of a 2xx answer, held to a form. */
async function formed(path: string, form: Check): Promise<any> {
  const { status, data } = await answer(emulator, path);
  expect(status, JSON.stringify(data)).toBe(200);
  expect(form(data, 'data')).toBeUndefined();
  return data;
}

async function upload(
  kind: 'contracts' | 'statements',
  fileName: string,
  bytes: Buffer,
  fileType: string,
  extra: Record<string, unknown> = {},
) {
  const mint = record({ staging_id: int, upload_url: str, file_path: str });
  const minted = await answer(emulator, `/v1/${kind}/uploads?${P}`, {
    method: 'POST',
    body: { fileName, fileType, fileSize: bytes.length, ...extra },
  });
  expect(minted.status, JSON.stringify(minted.data)).toBe(201);
  expect(mint(minted.data, 'mint')).toBeUndefined();
  expect(
    (
      await fetch(minted.data.upload_url, {
        method: 'PUT',
        body: bytes,
        headers: { 'content-type': fileType, 'x-upsert': 'true' },
      })
    ).status,
  ).toBe(200);
  const complete = await answer(emulator, `/v1/${kind}/uploads/complete?${P}`, {
    method: 'POST',
    body: { stagingId: minted.data.staging_id },
  });
  expect(complete.status).toBe(200);
  const form = record(
    { staging_id: int, status: oneOf('uploaded', 'queued', 'paused'), file_path: str, context_applied: bool },
    { snapshot_hash: str, enqueued: int, paused: int },
  );
  expect(form(complete.data, 'complete')).toBeUndefined();
  return complete.data;
}

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));

describe('every list paged, every record in its form', () => {
  it.each([
    ['entities', FORMS.entity],
    ['relations', FORMS.relation],
    ['artists', FORMS.artist],
    ['writers', FORMS.writer],
    ['recordings', FORMS.recording],
    ['compositions', FORMS.composition],
    ['contracts', FORMS.contract],
    ['statements', FORMS.statement],
  ])('%s: the paged envelope, numeric ids, every record in the form', async (resource, form) => {
    const page = await formed(`/v1/${resource}?${P}&perPage=100`, paged(form));
    expect(page.items.length).toBeGreaterThan(10);
    expect(page).toMatchObject({ page: 1, per_page: 100 });
    const merged = ['entities', 'relations', 'artists', 'writers'].includes(resource)
      ? '&includeMerged=true'
      : '&includeProducts=true';
    const full = await formed(`/v1/${resource}?${P}&perPage=100${merged}`, paged(form));
    expect(full.items.map((r: { id: number }) => r.id)).toEqual(page.items.map((r: { id: number }) => r.id));
  });

  it('gets one of each by its numeric id; an id of another kind is a 404', async () => {
    const firsts: Record<string, number> = {};
    for (const [resource, form] of Object.entries({
      entities: FORMS.entity,
      relations: FORMS.relation,
      artists: FORMS.artist,
      writers: FORMS.writer,
      recordings: FORMS.recording,
      compositions: FORMS.composition,
      contracts: FORMS.contract,
      statements: FORMS.statement,
    })) {
      const page = await formed(`/v1/${resource}?${P}&perPage=1`, paged(form));
      firsts[resource] = page.items[0].id;
      const { created_at, updated_at, ...got } = await formed(`/v1/${resource}/${firsts[resource]}?${P}`, form);
      // A recording fetched by id adds its dates to what the list shows of it.
      const dates = resource === 'recordings' ? {} : { created_at, updated_at };
      expect(JSON.parse(JSON.stringify({ ...got, ...dates }))).toEqual(page.items[0]);
    }
    // Disjoint ranges: no id of one kind names a record of another.
    expect(new Set(Object.values(firsts)).size).toBe(8);
    for (const [resource, id] of Object.entries(firsts)) {
      for (const other of Object.keys(firsts).filter((o) => o !== resource && o !== 'statements')) {
        expect((await answer(emulator, `/v1/${other}/${id}?${P}`)).status, `${other}/${id}`).toBe(404);
      }
    }
    // The seed's own ids are not the deployed service's.
    expect((await answer(emulator, `/v1/artists/art_00001?${P}`)).status).toBe(404);
  });

  it('gets an entity by its internal_uuid too', async () => {
    const [entity] = (await formed(`/v1/entities?${P}&perPage=1`, paged(FORMS.entity))).items;
    expect(await formed(`/v1/entities/${entity.internal_uuid.toUpperCase()}?${P}`, FORMS.entity)).toEqual(entity);
  });

  it('shows merged variants with their own ids of the same range and when they were merged', async () => {
    const page = await formed(`/v1/artists?${P}&perPage=100&includeMerged=true`, paged(FORMS.artist));
    const withMerged = page.items.filter((a: { merged: unknown[] }) => a.merged.length > 0);
    expect(withMerged.length).toBeGreaterThan(5);
    const variant = withMerged[0].merged[0];
    expect(variant.id).toBeGreaterThan(3_000_000);
    expect(Date.parse(variant.merged_at)).not.toBeNaN();
    // A variant's id still gets it (the seed's merged records stay reachable).
    expect((await formed(`/v1/artists/${variant.id}?${P}`, FORMS.artist)).name).toBe(variant.name);
  });

  it('projects: a plain array as in the example, nulls where the service has none', async () => {
    const projects = await formed('/v1/projects', list(FORMS.project));
    expect(projects.map((p: { id: string }) => p.id)).toEqual([DEMO_PROJECT_ID, SECOND_PROJECT_ID]);
    expect(keysOf(projects[0])).toEqual(keysOf(example('projects.get')));
    expect(projects[1]).toMatchObject({ entity_name: null, billing_type: null, live: null, updated_at: null });
    expect(await formed(`/v1/projects/${DEMO_PROJECT_ID}`, FORMS.project)).toEqual(projects[0]);
  });

  it('the example answers and the emulator give records the same keys', async () => {
    const first = async (resource: string, query = '') =>
      (await answer(emulator, `/v1/${resource}?${P}&perPage=1${query}`)).data.items[0];
    expect(keysOf(await first('contracts'))).toEqual(keysOf(example('contracts.list').items[0]));
    expect(keysOf(await first('recordings'))).toEqual(keysOf(example('recordings.list').items[0]));
    expect(keysOf(await first('relations'))).toEqual(keysOf(example('relations.list').items[0]));
    expect(keysOf(await first('statements'))).toEqual(keysOf(example('statements.list').items[0]));
    expect(keysOf((await answer(emulator, `/v1/writers/4000001?${P}`)).data)).toEqual(keysOf(example('writers.get')));
    const recording = (await answer(emulator, `/v1/recordings/5000001?${P}&includeProducts=true`)).data;
    expect(keysOf(recording)).toEqual(keysOf(example('recordings.get.products')));
  });
});

describe('contracts', () => {
  it('carry every include under extractions, each row in its fields, with numeric ids and no internal_id', async () => {
    const contract = await formed(`/v1/contracts/20001?${P}&includes=${INCLUDES.join(',')}`, FORMS.contract);
    expect(Object.keys(contract.extractions)).toEqual(INCLUDES);
    let rows = 0;
    for (const include of INCLUDES) {
      for (const [i, row] of (contract.extractions[include] as object[]).entries()) {
        expect(extractionRow(include, false)(row, `${include}[${i}]`)).toBeUndefined();
        rows++;
      }
    }
    expect(rows).toBeGreaterThan(20);
    expect(JSON.stringify(contract)).not.toContain('internal_id');
    expect(contract).not.toHaveProperty('name');
    expect(contract).not.toHaveProperty('project_id');
  });

  it('citations only with citations=true, six keys each', async () => {
    const plain = await formed(`/v1/contracts?${P}&perPage=5&includes=royalties,dates`, paged(FORMS.contract));
    expect(JSON.stringify(plain)).not.toContain('citations');
    const cited = await formed(
      `/v1/contracts?${P}&perPage=5&includes=royalties,dates&citations=true`,
      paged(FORMS.contract),
    );
    for (const contract of cited.items) {
      for (const include of ['royalties', 'dates']) {
        for (const row of contract.extractions[include])
          expect(extractionRow(include, true)(row, include)).toBeUndefined();
      }
    }
  });

  it('score and custom_extractions on request, in the example get key set', async () => {
    const contract = await formed(
      `/v1/contracts/20001?${P}&includes=royalties&score=true&extractorIds=12,13`,
      FORMS.contract,
    );
    expect(keysOf(contract)).toEqual(keysOf(example('contracts.get.all-includes.score')));
    expect(contract.custom_extractions.map((c: { extractor_id: number }) => c.extractor_id)).toEqual([12, 13]);
  });

  it('takes the includes SERVICE-NOW.md lists, and only those', async () => {
    expect((await answer(emulator, `/v1/contracts?${P}&includes=${INCLUDES.join(',')}`)).status).toBe(200);
    expect((await answer(emulator, `/v1/contracts?${P}&includes=royalties,nope`)).status).toBe(400);
  });
});

describe('statements', () => {
  it('processed ones carry financials and a summary; the others neither', async () => {
    const { items } = await formed(`/v1/statements?${P}&perPage=12`, paged(FORMS.statement));
    const processed = items.filter((s: { extraction_stage: string }) => s.extraction_stage === 'completed');
    const waiting = items.filter((s: { extraction_stage: string }) => s.extraction_stage !== 'completed');
    expect(processed.length).toBeGreaterThan(0);
    expect(waiting.length).toBeGreaterThan(0);
    for (const s of processed) {
      expect(s.financials.licensee_revenue).toBeGreaterThan(s.financials.licensor_revenue);
      expect(s.statement_summary.summary.length).toBeGreaterThan(0);
      expect(Number.isInteger(s.entity_id)).toBe(true);
    }
    for (const s of waiting) expect(s).not.toHaveProperty('financials');
  });

  it('detailed=true links the lines as CSV on the storage host, fetched without a credential', async () => {
    const statement = await formed(`/v1/statements/40001?${P}&detailed=true`, FORMS.statement);
    const { csv_url: url, row_count: rows } = statement.detailed;
    expect(new URL(url).origin).toBe(emulator.storage.origin);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines).toHaveLength(rows + 1);
    expect(lines[0]).toBe('line,territory,isrc,title,units,currency,licensee_revenue,licensor_revenue');
    // The totals are the lines' sums.
    const sum = (column: number) =>
      Math.round(lines.slice(1).reduce((total, line) => total + Number(line.split(',').at(column - 8)), 0) * 100) / 100;
    expect(sum(6)).toBe(statement.financials.licensee_revenue);
    expect(sum(7)).toBe(statement.financials.licensor_revenue);
    // What the record says of its lines is what the export holds.
    const territories = new Set(lines.slice(1).map((line) => line.split(',')[1])).size;
    expect(statement.statement_desc).toContain(
      `${rows.toLocaleString('en-US')} lines across ${territories} territories`,
    );
    expect(statement.statement_summary.summary[0]).toMatch(new RegExp(` across ${territories} territories$`));
    expect(statement).toMatchObject({ has_summary: true, has_summary_lines: true, has_revenues: true });
    expect(emulator.storage.requests.at(-1)).toMatchObject({
      path: new URL(url).pathname,
      authorization: false,
      status: 200,
    });
    // The signature holds for this statement only.
    expect((await fetch(url.replace('/40001.csv', '/40002.csv'))).status).toBe(403);
  });

  it('detailed=true of a statement not processed yet: detailed null and the reason', async () => {
    const { items } = await formed(`/v1/statements?${P}&extractionStage=processing&perPage=1`, paged(FORMS.statement));
    const statement = await formed(`/v1/statements/${items[0].id}?${P}&detailed=true`, FORMS.statement);
    expect(statement).toMatchObject({ detailed: null, detailed_error: expect.stringMatching(/not completed/) });
  });

  it('the CSV link expires as download links do', async () => {
    const quick = await testEmulator({ flavor: 'deployed', urlTtlSeconds: 0 });
    try {
      const { data } = await answer(quick, `/v1/statements/40001?${P}&detailed=true`);
      expect((await fetch(data.detailed.csv_url)).status).toBe(403);
    } finally {
      await quick.close();
    }
  });
});

describe('search, processes, uploads, knowledge, tags, headers', () => {
  it('search: grouped by type, contracts by file name; an empty q is a 400', async () => {
    const search = record({
      recordings: list(
        record({
          id: int,
          name: str,
          duration_ms: orNull(int),
          artists: orNull(list(artistRef)),
          matched_keywords: any,
          is_metadata_match: bool,
          rank: num,
        }),
      ),
      compositions: list(
        record({
          id: int,
          name: str,
          writers: any,
          artists: any,
          matched_keywords: any,
          is_metadata_match: bool,
          rank: num,
        }),
      ),
      contracts: list(
        record({ id: int, matched_file_name: str, matched_keywords: any, is_content_match: bool, rank: num }),
      ),
      entities: list(record({ id: int, name: str })),
      artists: list(record({ id: int, name: str })),
      writers: list(record({ id: int, name: str })),
    });
    const found = await formed(`/v1/projects/${DEMO_PROJECT_ID}/search?q=recording`, search);
    expect(found.contracts.length).toBeGreaterThan(0);
    expect(found.contracts[0].matched_file_name).toMatch(/\.pdf$/);
    expect(keysOf(found)).toEqual(keysOf(example('projects.search')));
    expect((await answer(emulator, `/v1/projects/${DEMO_PROJECT_ID}/search?q=`)).status).toBe(400);
  });

  const processes = (kind: 'contract' | 'statement') =>
    record(
      {
        staging_id: int,
        [`${kind}_id`]: orNull(int),
        staging_done: bool,
        extraction_done: bool,
        staging_processes: record({ stage: str, info: any }),
        extraction_processes: orNull(
          kind === 'contract'
            ? record({ stage: str, extractions: list(record({ name: str, status: str, completed_at: orNull(str) })) })
            : record({ stage: str, step: int, remarks: any }),
        ),
        staging_terminal: bool,
        requires_action: bool,
        available_actions: list(str),
        pause_reason: orNull(str),
      },
      {},
      true,
    );

  it('uploads: uploaded with no context or folder, queued with one, counts as numbers; extract-language taken; processes in the form', async () => {
    const plain = await upload('contracts', 'plain.pdf', PDF, 'application/pdf', {
      extractions: ['extract-royalties', 'extract-language'],
    });
    expect(plain).toMatchObject({ status: 'uploaded', context_applied: false });
    const queued = await upload('statements', 'q.csv', Buffer.from('a,b\n1,2\n'), 'text/csv', { folderName: 'inbox' });
    expect(queued).toMatchObject({ status: 'queued', enqueued: 1 });
    const first = await formed(`/v1/contracts/${plain.staging_id}/processes?${P}`, processes('contract'));
    expect(first.pause_reason).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const done = await formed(`/v1/contracts/${plain.staging_id}/processes?${P}`, processes('contract'));
    expect(done).toMatchObject({ extraction_done: true, staging_terminal: true });
    expect(done.extraction_processes.extractions.map((e: { name: string }) => e.name)).toEqual([
      'extract-royalties',
      'extract-language',
    ]);
    const contract = await formed(`/v1/contracts/${done.contract_id}?${P}&includes=languages`, FORMS.contract);
    expect(contract.extractions.languages).toEqual([expect.objectContaining({ language: 'en' })]);
    await formed(`/v1/statements/${queued.staging_id}/processes?${P}`, processes('statement'));
  });

  it('retry of a paused staging: the counts as numbers', async () => {
    const paused = await testEmulator({ flavor: 'deployed', pauseUploads: true });
    try {
      const minted = await answer(paused, `/v1/statements/uploads?${P}`, {
        method: 'POST',
        body: { fileName: 'p.csv', fileType: 'text/csv', fileSize: 4 },
      });
      await fetch(minted.data.upload_url, {
        method: 'PUT',
        body: 'a,b\n',
        headers: { 'content-type': 'text/csv', 'x-upsert': 'true' },
      });
      const complete = await answer(paused, `/v1/statements/uploads/complete?${P}`, {
        method: 'POST',
        body: { stagingId: minted.data.staging_id },
      });
      expect(complete.data).toMatchObject({ status: 'paused', paused: 1 });
      const retry = await answer(paused, `/v1/statements/staging/${minted.data.staging_id}/retry?${P}`, {
        method: 'POST',
        body: {},
      });
      expect(
        record(
          { staging_id: int, status: oneOf('queued', 'paused') },
          { enqueued: int, current_count: orNull(int), limit: orNull(int) },
        )(retry.data, 'retry'),
      ).toBeUndefined();
      expect(retry.data.enqueued).toBe(0);
    } finally {
      await paused.close();
    }
  });

  it('knowledge: numeric ids for nodes, claims and edges, and no kind filter', async () => {
    const all = await answer(emulator, `/v1/projects/${DEMO_PROJECT_ID}/knowledge/search?q=royalty`);
    const filtered = await answer(emulator, `/v1/projects/${DEMO_PROJECT_ID}/knowledge/search?q=royalty&kind=person`);
    expect(filtered.data).toEqual(all.data);
    expect(all.data.results.length).toBeGreaterThan(0);
    for (const node of all.data.results) {
      expect(Number.isInteger(node.id)).toBe(true);
      for (const claim of node.claims) expect(Number.isInteger(claim.id)).toBe(true);
      for (const edge of node.relationships) expect([edge.edge_id, edge.node.id].every(Number.isInteger)).toBe(true);
    }
  });

  it('tags: paged like every list', async () => {
    await answer(emulator, `/v1/contracts/20001?${P}`, { method: 'PUT', body: { tags: ['urgent'] } });
    await formed(`/v1/tags?${P}&scope=contracts`, paged(record({ id: int, tag: str, scope: str, usage_count: int })));
  });

  it('tag writes name the contract by its number, as every other answer does', async () => {
    const put = await answer(emulator, `/v1/contracts/20001?${P}`, { method: 'PUT', body: { tags: ['urgent'] } });
    expect(put.data).toEqual({ id: 20001, tags: ['urgent'] });
    const tagged = await answer(emulator, `/v1/tags?${P}`, {
      method: 'PUT',
      body: { scope: 'contracts', resourceId: 20001, tags: ['urgent'] },
    });
    expect(tagged.data).toMatchObject({ resource_id: 20001, scope: 'contracts' });
  });

  it('every answer carries the rate-limit headers, errors too', async () => {
    for (const path of ['/v1/projects', `/v1/artists?${P}`, `/v1/artists/1?${P}`, '/v1/nope']) {
      const { headers } = await answer(emulator, path);
      expect(Number(headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
      expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
  });
});

describe('the same records in both forms', () => {
  const seed = sharedEmulator({ flavor: 'seed' });

  it.each(['entities', 'relations', 'artists', 'writers', 'recordings', 'compositions', 'contracts', 'statements'])(
    '%s: same names, same order',
    async (resource) => {
      const names = async (em: Emulator) => {
        const { data } = await answer(em, `/v1/${resource}?${P}&perPage=100`);
        const items = (Array.isArray(data) ? data : data.items) as Record<string, unknown>[];
        return items.map((r) =>
          resource === 'contracts' ? (r.file_name ?? r.name) : resource === 'statements' ? r.file_name : r.name,
        );
      };
      const seeded = await names(seed);
      // The shared emulator may hold an upload of the tests above, after the seeded records.
      const deployed = (await names(emulator)).slice(0, seeded.length);
      if (resource === 'contracts')
        expect(deployed).toEqual(
          seeded.map(
            (name) =>
              `${String(name)
                .replace(/[^\p{L}\p{N}]+/gu, '_')
                .replace(/^_+|_+$/g, '')}.pdf`,
          ),
        );
      else expect(deployed).toEqual(seeded);
    },
  );

  it('the seed flavor still answers in SPEC.md forms: string ids, plain arrays, names on contracts', async () => {
    const artists = (await answer(seed, `/v1/artists?${P}`)).data;
    expect(Array.isArray(artists)).toBe(true);
    expect(artists[0]).toEqual({ id: 'art_00001', name: expect.any(String), project_id: DEMO_PROJECT_ID });
    const contracts = (await answer(seed, `/v1/contracts?${P}&perPage=1`)).data;
    expect(keysOf(contracts[0])).toEqual(['created_at', 'id', 'name', 'project_id']);
    const recording = (await answer(seed, `/v1/recordings/rec_00001?${P}`)).data;
    expect(recording.artists.every((a: unknown) => typeof a === 'string')).toBe(true);
    const search = (await answer(seed, `/v1/projects/${DEMO_PROJECT_ID}/search?q=golden`)).data;
    expect(search[0]).toEqual({
      type: expect.any(String),
      id: expect.any(String),
      name: expect.any(String),
      score: expect.any(Number),
    });
  });
});

describe('statements consistent with their files (issue 32, item 13)', () => {
  it('a seeded statement says the size its download serves, in both flavors', async () => {
    for (const em of [emulator, await testEmulator({ flavor: 'seed' })]) {
      for (const id of [40001, 40006]) {
        const { data } = await answer(em, `/v1/statements/${id}?${P}`);
        const link = await answer(em, `/v1/statements/${id}/download?${P}`);
        const bytes = Buffer.from(await (await fetch(link.data.url)).arrayBuffer());
        expect(data.file_size, `statement ${id}`).toBe(bytes.length);
      }
      if (em !== emulator) await em.close();
    }
  });

  it("a CSV statement's staging check fits a CSV, not a PDF", async () => {
    const done = await upload('statements', 'sales.csv', Buffer.from('isrc,units\nX,1\n'), 'text/csv');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { data } = await answer(emulator, `/v1/statements/${done.staging_id}/processes?${P}`);
    expect(data.staging_processes.info).toMatchObject({ check: 'text-content', status: 'passed' });
    expect(JSON.stringify(data)).not.toContain('pdf');
  });
});

// The emulator's catalog endpoints (SPEC 4.2–4.7) over real HTTP: shapes checked against SPEC.md's
// forms as written down in test/helpers/spec-forms.ts (not the client's schemas), exact key sets
// where the spec is exact, both list envelopes, paging and the errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  Artist,
  Composition,
  Contract,
  Entity,
  ErrorBody,
  Product,
  Recording,
  Relation,
  Statement,
  StatementDetail,
  Writer,
  CONTRACT_INCLUDES,
  envelope,
  paged,
} from '../helpers/spec-forms.js';
import { DEMO_PROJECT_ID, DEMO_PROJECT_TOKEN, OTHER_PROJECT_ID, SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { ProjectData } from '../../src/emulator/store.js';
import { call, testEmulator } from '../helpers/emulator.js';

let emulator: Emulator;
let seeded: ProjectData;

beforeAll(async () => {
  // The spec's exact shapes: the seed flavor (the deployed service's additions are tested apart).
  emulator = await testEmulator({ flavor: 'seed' });
  const data = emulator.state.data[DEMO_PROJECT_ID];
  if (!data) throw new Error('demo project missing');
  seeded = data;
});
afterAll(() => emulator.close());

const url = (path: string, params: Record<string, string> = {}, projectId: string | null = DEMO_PROJECT_ID) =>
  `${path}?${new URLSearchParams({ ...(projectId === null ? {} : { projectId }), ...params })}`;

/** GET and parse a 200 body with `{data: schema}`. */
async function get<T extends z.ZodMiniType>(
  schema: T,
  path: string,
  params: Record<string, string> = {},
): Promise<z.output<T>> {
  const res = await call(emulator, url(path, params));
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return z.parse(schema, envelope(z.unknown()).parse(body).data);
}

/** GET expecting an error status; returns the parsed `error` object. */
async function failure(
  status: number,
  path: string,
  params: Record<string, string> = {},
  token?: string | null,
  projectId?: string | null,
) {
  const res = await call(emulator, url(path, params, projectId === undefined ? DEMO_PROJECT_ID : projectId), { token });
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  return ErrorBody.parse(body).error;
}

const keys = (record: object) => Object.keys(record).sort();
const rootIds = (records: readonly { id: string; merged_into?: string }[]) =>
  records.filter((r) => r.merged_into === undefined).map((r) => r.id);
const mergedIds = (records: readonly { id: string; merged_into?: string }[]) =>
  new Set(records.filter((r) => r.merged_into !== undefined).map((r) => r.id));

const ENTITY_KEYS = [
  'id',
  'internal_uuid',
  'name',
  'email',
  'phone',
  'address',
  'shorthand',
  'division_of',
  'project_id',
  'created_at',
  'updated_at',
];
const STATEMENT_LIST_KEYS = [
  'id',
  'file_name',
  'file_type',
  'file_size',
  'statement_name',
  'statement_type',
  'statement_category',
  'statement_producer',
  'processing_status',
  'upload_status',
  'approval_status',
  'has_revenues',
  'has_costs',
  'has_summary',
  'currency_transaction',
  'currency_royalty',
  'entity_id',
  'created_at',
  'processed_at',
];
const STATEMENT_SINGLE_KEYS = [
  'statement_desc',
  'statement_subtype',
  'statement_version',
  'has_summary_lines',
  'modified_at',
];
const CONTRACT_BASE_KEYS = ['created_at', 'id', 'name', 'project_id'];

describe('the seed behind the catalog', () => {
  it('has the sizes the demo promises', () => {
    expect(seeded.contracts.length).toBeGreaterThanOrEqual(30);
    expect(seeded.statements.length).toBeGreaterThanOrEqual(100);
    for (const kind of ['entities', 'artists', 'writers', 'relations'] as const) {
      expect(rootIds(seeded[kind]).length, kind).toBeGreaterThanOrEqual(50);
      expect(mergedIds(seeded[kind]).size, kind).toBeGreaterThan(0);
    }
    expect(seeded.recordings.length).toBeGreaterThanOrEqual(50);
    expect(seeded.compositions.length).toBeGreaterThanOrEqual(50);
    expect(seeded.statements.some((s) => s.processed_at === undefined)).toBe(true);
  });
});

describe('GET /v1/entities', () => {
  it('lists root entities as a plain array of the spec shape, nulls omitted', async () => {
    const list = await get(z.array(Entity), '/v1/entities');
    expect(list).toHaveLength(20);
    const merged = mergedIds(seeded.entities);
    for (const entity of list) {
      expect(merged.has(entity.id)).toBe(false);
      expect(entity.project_id).toBe(DEMO_PROJECT_ID);
      expect(entity).not.toHaveProperty('merged');
      for (const key of Object.keys(entity)) expect(ENTITY_KEYS).toContain(key);
      for (const value of Object.values(entity)) expect(value).not.toBeNull();
    }
    expect(list.some((e) => e.email === undefined)).toBe(true);
    expect(list.some((e) => e.email !== undefined && e.phone !== undefined)).toBe(true);
  });

  it('pages by page and perPage without paging metadata', async () => {
    const first = await get(z.array(Entity), '/v1/entities', { perPage: '10' });
    const second = await get(z.array(Entity), '/v1/entities', { perPage: '10', page: '2' });
    const all = await get(z.array(Entity), '/v1/entities', { perPage: '100' });
    const roots = rootIds(seeded.entities);
    expect(all.map((e) => e.id)).toEqual(roots);
    expect(first.map((e) => e.id)).toEqual(roots.slice(0, 10));
    expect(second.map((e) => e.id)).toEqual(roots.slice(10, 20));
    expect(await get(z.array(Entity), '/v1/entities', { perPage: '100', page: '99' })).toEqual([]);
  });

  it.each([
    ['perPage', '0'],
    ['perPage', '101'],
    ['perPage', 'abc'],
    ['perPage', '2.5'],
    ['page', '0'],
    ['page', '-1'],
  ])('answers 400 with field details for %s=%s', async (name, value) => {
    const error = await failure(400, '/v1/entities', { [name]: value });
    expect(Object.keys(error)).toEqual([name]);
    expect(error[name]).toEqual([expect.any(String)]);
  });

  it('adds merged duplicates with includeMerged=true', async () => {
    const list = await get(z.array(Entity), '/v1/entities', { includeMerged: 'true', perPage: '100' });
    for (const entity of list) expect(Array.isArray(entity.merged)).toBe(true);
    const withMerged = list.filter((e) => (e.merged ?? []).length > 0);
    expect(withMerged.length).toBeGreaterThan(0);
    for (const entity of withMerged) {
      for (const ref of entity.merged ?? []) {
        expect(keys(ref)).toEqual(['id', 'name']);
        expect(seeded.entities.find((e) => e.id === ref.id)?.merged_into).toBe(entity.id);
      }
    }
    // Any value other than "true" leaves the flag off.
    const off = await get(z.array(Entity), '/v1/entities', { includeMerged: '1' });
    expect(off[0]).not.toHaveProperty('merged');
  });

  it('filters by the roles entities sign contracts under', async () => {
    const byRole = (roles: string[]) =>
      new Set(seeded.contracts.flatMap((c) => c.parties.filter((p) => roles.includes(p.role)).map((p) => p.entity_id)));
    const all = rootIds(seeded.entities);
    for (const roles of [['assignor'], ['assignee'], ['assignee', 'assignor']]) {
      const list = await get(z.array(Entity), '/v1/entities', { roles: roles.join(','), perPage: '100' });
      const expected = all.filter((id) => byRole(roles).has(id));
      expect(
        list.map((e) => e.id),
        roles.join(','),
      ).toEqual(expected);
      expect(list.length).toBeGreaterThan(0);
      expect(list.length).toBeLessThan(all.length);
    }
    const assignors = await get(z.array(Entity), '/v1/entities', { roles: 'assignor', perPage: '100' });
    const assignees = await get(z.array(Entity), '/v1/entities', { roles: 'assignee', perPage: '100' });
    expect(assignors.map((e) => e.id)).not.toEqual(assignees.map((e) => e.id));
    const empty = await get(z.array(Entity), '/v1/entities', { roles: '', perPage: '100' });
    expect(empty.map((e) => e.id)).toEqual(all);
  });

  it('rejects an unknown role with field details', async () => {
    const error = await failure(400, '/v1/entities', { roles: 'assignee,licensor' });
    expect(error).toEqual({ roles: ["unknown role 'licensor'; valid: assignee, assignor"] });
  });

  it('gets one entity by id or by internal_uuid', async () => {
    const root = seeded.entities.find(
      (e) => e.merged_into === undefined && seeded.entities.some((d) => d.merged_into === e.id),
    );
    if (!root) throw new Error('no entity with duplicates');
    const byId = await get(Entity, `/v1/entities/${root.id}`);
    const byUuid = await get(Entity, `/v1/entities/${root.internal_uuid}`);
    const byUpperUuid = await get(Entity, `/v1/entities/${root.internal_uuid.toUpperCase()}`);
    expect(byId).toEqual(byUuid);
    expect(byId).toEqual(byUpperUuid);
    expect(byId.name).toBe(root.name);
    expect(byId).not.toHaveProperty('merged');
    const merged = await get(Entity, `/v1/entities/${root.id}`, { includeMerged: 'true' });
    expect(merged.merged?.length).toBeGreaterThan(0);
  });

  it('serves a merged duplicate asked for by id', async () => {
    const duplicate = seeded.entities.find((e) => e.merged_into !== undefined);
    if (!duplicate) throw new Error('no duplicate');
    const entity = await get(Entity, `/v1/entities/${duplicate.id}`);
    expect(entity.id).toBe(duplicate.id);
    expect(entity).not.toHaveProperty('merged_into');
  });

  it('answers 404 for an unknown entity', async () => {
    expect(await failure(404, '/v1/entities/ent_99999')).toEqual({ message: 'entity not found' });
  });
});

describe('projectId and token scope on the catalog endpoints', () => {
  const paths = [
    '/v1/entities',
    '/v1/statements',
    '/v1/contracts',
    '/v1/compositions',
    '/v1/recordings',
    '/v1/relations',
    '/v1/writers',
    '/v1/artists',
  ];

  it.each(paths)('%s needs projectId', async (path) => {
    expect(await failure(400, path, {}, undefined, null)).toEqual({ projectId: ['projectId is required'] });
  });

  it.each(paths)('%s needs projectId to be a UUID', async (path) => {
    expect(await failure(400, path, {}, undefined, 'not-a-uuid')).toEqual({
      projectId: ['projectId must be a valid UUID'],
    });
  });

  it.each(paths)('%s refuses a project token on another project with 403', async (path) => {
    const error = await failure(403, path, {}, DEMO_PROJECT_TOKEN, SECOND_PROJECT_ID);
    expect(error.message).toEqual(expect.any(String));
  });

  it('refuses a project of another organization with 403', async () => {
    await failure(403, '/v1/artists', {}, undefined, OTHER_PROJECT_ID);
  });

  it('serves the second project with an organization token and the first with the project token', async () => {
    const second = await call(emulator, url('/v1/artists', { perPage: '100' }, SECOND_PROJECT_ID));
    const artists = envelope(z.array(Artist)).parse(await second.json()).data;
    expect(artists.length).toBeGreaterThan(0);
    expect(artists.length).toBeLessThan(rootIds(seeded.artists).length);
    for (const artist of artists) expect(artist.project_id).toBe(SECOND_PROJECT_ID);
    const first = await call(emulator, url('/v1/artists'), { token: DEMO_PROJECT_TOKEN });
    expect(first.status).toBe(200);
  });

  it('answers 401 without a token or with an unknown one', async () => {
    expect(await failure(401, '/v1/contracts', {}, null)).toEqual({ message: 'missing bearer token' });
    expect(await failure(401, '/v1/contracts', {}, 'nope')).toEqual({ message: 'invalid or expired token' });
  });
});

describe('GET /v1/statements', () => {
  const StatementPage = paged(Statement);

  it('answers the paged envelope with list-shaped items', async () => {
    const page = await get(StatementPage, '/v1/statements');
    expect(keys(page)).toEqual(['items', 'page', 'per_page', 'total_count']);
    expect(page).toMatchObject({ page: 1, per_page: 20, total_count: seeded.statements.length });
    expect(page.items).toHaveLength(20);
    for (const item of page.items) {
      for (const key of Object.keys(item)) expect(STATEMENT_LIST_KEYS).toContain(key);
      for (const value of Object.values(item)) expect(value).not.toBeNull();
    }
    const processed = page.items.find((s) => s.processed_at !== undefined);
    expect(processed && keys(processed)).toEqual([...STATEMENT_LIST_KEYS].sort());
  });

  it('leaves the derived fields out of an unprocessed statement', async () => {
    const page = await get(StatementPage, '/v1/statements', { perPage: '100' });
    const unprocessed = page.items.find((s) => s.processed_at === undefined);
    expect(unprocessed).toBeDefined();
    expect(unprocessed).not.toHaveProperty('statement_name');
    expect(unprocessed).not.toHaveProperty('statement_type');
    expect(unprocessed).toMatchObject({ file_type: 'application/pdf' });
  });

  it('pages through all statements', async () => {
    const total = seeded.statements.length;
    const last = Math.ceil(total / 20);
    const page = await get(StatementPage, '/v1/statements', { page: String(last) });
    expect(page.items).toHaveLength(total - (last - 1) * 20);
    expect(page.page).toBe(last);
    const beyond = await get(StatementPage, '/v1/statements', { page: String(last + 1) });
    expect(beyond).toEqual({ items: [], total_count: total, page: last + 1, per_page: 20 });
    const big = await get(StatementPage, '/v1/statements', { perPage: '100', page: '2' });
    expect(big.items[0]?.id).toBe(seeded.statements[100]?.id);
  });

  it('gets one statement in the full shape', async () => {
    const processed = seeded.statements.find((s) => s.processed_at !== undefined);
    if (!processed) throw new Error('no processed statement');
    const statement = await get(StatementDetail, `/v1/statements/${processed.id}`);
    expect(keys(statement)).toEqual([...STATEMENT_LIST_KEYS, ...STATEMENT_SINGLE_KEYS].sort());
    expect(statement.entity_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gets an unprocessed statement without processed_at', async () => {
    const unprocessed = seeded.statements.find((s) => s.processed_at === undefined);
    if (!unprocessed) throw new Error('no unprocessed statement');
    const statement = await get(StatementDetail, `/v1/statements/${unprocessed.id}`);
    expect(keys(statement)).toEqual(['created_at', 'file_name', 'file_size', 'file_type', 'id', 'upload_status']);
  });

  it('answers 400 for a non-integer id and 404 for an unknown one', async () => {
    expect(await failure(400, '/v1/statements/abc')).toEqual({ statement_id: ['statement_id must be an integer'] });
    expect(await failure(404, '/v1/statements/999999')).toEqual({ message: 'statement not found' });
  });
});

describe('GET /v1/contracts', () => {
  it('lists base fields only without includes', async () => {
    const list = await get(z.array(Contract), '/v1/contracts');
    expect(list).toHaveLength(20);
    for (const contract of list) expect(keys(contract)).toEqual(CONTRACT_BASE_KEYS);
    expect(list[0]?.name).toBe('Recording Agreement — Nova Reyes / Lumen Records');
    const all = await get(z.array(Contract), '/v1/contracts', { perPage: '100' });
    expect(all.map((c) => c.id)).toEqual(seeded.contracts.map((c) => c.id));
  });

  it('adds one array per requested include', async () => {
    const list = await get(z.array(Contract), '/v1/contracts', { includes: 'royalties,splits' });
    for (const contract of list) {
      expect(keys(contract)).toEqual([...CONTRACT_BASE_KEYS, 'royalties', 'splits'].sort());
      const royalties = z
        .array(z.looseObject({ id: z.string(), rate: z.number(), type: z.string() }))
        .parse(contract.royalties);
      expect(royalties.length).toBeGreaterThan(0);
      expect(Array.isArray(contract.splits)).toBe(true);
    }
  });

  it('serves content for every include', async () => {
    const list = await get(z.array(Contract), '/v1/contracts', {
      includes: CONTRACT_INCLUDES.join(','),
      perPage: '100',
    });
    for (const include of CONTRACT_INCLUDES) {
      const rows = list.flatMap((c) => z.array(z.looseObject({ id: z.string() })).parse(c[include]));
      expect(rows.length, include).toBeGreaterThan(0);
    }
    const Party = z.looseObject({ id: z.string(), name: z.string(), role: z.string() });
    const entities = list.flatMap((c) => z.array(Party).parse(c.entities));
    expect(new Set(entities.map((e) => e.role))).toEqual(new Set(['assignee', 'assignor']));
  });

  it('accepts includes repeated and with spaces', async () => {
    const [contract] = await get(z.array(Contract), '/v1/contracts', { includes: 'dates, types' });
    expect(keys(contract ?? {})).toEqual([...CONTRACT_BASE_KEYS, 'dates', 'types'].sort());
  });

  it('rejects an unknown include', async () => {
    const error = await failure(400, '/v1/contracts', { includes: 'royalties,bogus' });
    expect(error).toEqual({ includes: [`unknown include 'bogus'; valid: ${CONTRACT_INCLUDES.join(', ')}`] });
  });

  it('gets one contract, with includes, and 404 for an unknown one', async () => {
    const id = seeded.contracts[3]?.id ?? '';
    const bare = await get(Contract, `/v1/contracts/${id}`);
    expect(keys(bare)).toEqual(CONTRACT_BASE_KEYS);
    const withDates = await get(Contract, `/v1/contracts/${id}`, { includes: 'dates' });
    expect(keys(withDates)).toEqual([...CONTRACT_BASE_KEYS, 'dates'].sort());
    await failure(400, `/v1/contracts/${id}`, { includes: 'nope' });
    expect(await failure(404, '/v1/contracts/1')).toEqual({ message: 'contract not found' });
  });
});

const isUpc = (upc: string): boolean => {
  if (!/^\d{12}$/.test(upc)) return false;
  const digits = [...upc].map(Number);
  const sum = digits.slice(0, 11).reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[11];
};

describe.each([
  ['compositions', Composition, ['artists', 'created_at', 'id', 'name', 'type', 'updated_at', 'writers']],
  ['recordings', Recording, ['artists', 'created_at', 'duration_ms', 'id', 'name', 'type', 'updated_at']],
] as const)('GET /v1/%s', (kind, schema, baseKeys) => {
  const Page = paged(schema);

  it('answers the paged envelope without products by default', async () => {
    const page = await get(Page, `/v1/${kind}`, { perPage: '50', page: '2' });
    expect(page).toMatchObject({ page: 2, per_page: 50, total_count: seeded[kind].length });
    expect(page.items.map((i) => i.id)).toEqual(seeded[kind].slice(50, 100).map((r) => r.id));
    for (const item of page.items) expect(keys(item)).toEqual([...baseKeys]);
  });

  it('adds products with 12-digit UPCs with includeProducts=true', async () => {
    const page = await get(Page, `/v1/${kind}`, { includeProducts: 'true', perPage: '100' });
    const products = page.items.flatMap((item) => z.array(Product).parse(item.products));
    expect(products.length).toBeGreaterThan(0);
    for (const product of products) {
      expect(isUpc(product.upc), product.upc).toBe(true);
      expect(product.release_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('gets one by id, with or without products, and 404 for an unknown one', async () => {
    const id = seeded[kind][7]?.id ?? '';
    const bare = await get(schema, `/v1/${kind}/${id}`);
    expect(keys(bare)).toEqual([...baseKeys]);
    const full = await get(schema, `/v1/${kind}/${id}`, { includeProducts: 'true' });
    expect(keys(full)).toEqual([...baseKeys, 'products'].sort());
    await failure(404, `/v1/${kind}/nope`);
  });
});

describe('GET /v1/relations', () => {
  const Page = paged(Relation);

  it('answers the paged envelope of root relations', async () => {
    const page = await get(Page, '/v1/relations', { perPage: '100' });
    expect(page.total_count).toBe(rootIds(seeded.relations).length);
    expect(page.items.map((r) => r.id)).toEqual(rootIds(seeded.relations));
    for (const item of page.items) {
      expect(keys(item)).toEqual(['created_at', 'department', 'email', 'id', 'name', 'phone', 'updated_at']);
    }
  });

  it('adds merged duplicates with merged_at', async () => {
    const page = await get(Page, '/v1/relations', { perPage: '100', includeMerged: 'true' });
    const refs = page.items.flatMap((r) => r.merged ?? []);
    expect(refs.length).toBe(mergedIds(seeded.relations).size);
    for (const ref of refs) {
      expect(keys(ref)).toEqual(['id', 'merged_at', 'name']);
      expect(Number.isNaN(Date.parse(ref.merged_at))).toBe(false);
    }
  });

  it('gets one relation and 404 for an unknown one', async () => {
    const root = rootIds(seeded.relations)[2] ?? '';
    const relation = await get(Relation, `/v1/relations/${root}`, { includeMerged: 'true' });
    expect(relation.id).toBe(root);
    expect(Array.isArray(relation.merged)).toBe(true);
    await failure(404, '/v1/relations/rel_99999');
  });
});

describe.each([
  ['artists', Artist, 'artist'],
  ['writers', Writer, 'writer'],
] as const)('GET /v1/%s', (kind, schema, what) => {
  it('lists root records as a plain array', async () => {
    const list = await get(z.array(schema), `/v1/${kind}`, { perPage: '100' });
    expect(list.map((p) => p.id)).toEqual(rootIds(seeded[kind]).slice(0, 100));
    for (const person of list) expect(keys(person)).toEqual(['id', 'name', 'project_id']);
  });

  it('adds merged duplicates with includeMerged=true', async () => {
    const list = await get(z.array(schema), `/v1/${kind}`, { perPage: '100', includeMerged: 'true' });
    const withMerged = list.filter((p) => (p.merged ?? []).length > 0);
    expect(withMerged.length).toBeGreaterThan(0);
    for (const person of withMerged) {
      for (const ref of person.merged ?? []) expect(keys(ref)).toEqual(['id', 'name']);
    }
  });

  it('gets one record, a merged duplicate too, and 404 for an unknown one', async () => {
    const duplicate = seeded[kind].find((p) => p.merged_into !== undefined);
    if (!duplicate) throw new Error('no duplicate');
    const root = await get(schema, `/v1/${kind}/${duplicate.merged_into ?? ''}`, { includeMerged: 'true' });
    expect(root.merged?.map((m) => m.id)).toContain(duplicate.id);
    const served = await get(schema, `/v1/${kind}/${duplicate.id}`);
    expect(served.name).toBe(duplicate.name);
    expect(await failure(404, `/v1/${kind}/nobody`)).toEqual({ message: `${what} not found` });
  });
});

describe("every record of the seed, listed and fetched, in SPEC.md's form", () => {
  /** Every page of a list, the plain array or the paged envelope's items. */
  async function everyPage<T extends z.ZodMiniType>(
    item: T,
    path: string,
    params: Record<string, string>,
    isPaged: boolean,
  ) {
    const all: z.output<T>[] = [];
    for (let page = 1; ; page++) {
      const query = { ...params, perPage: '100', page: String(page) };
      const items = isPaged ? (await get(paged(item), path, query)).items : await get(z.array(item), path, query);
      all.push(...items);
      if (items.length < 100) return all;
    }
  }

  it.each([
    ['entities', Entity, { includeMerged: 'true' }, false],
    ['artists', Artist, { includeMerged: 'true' }, false],
    ['writers', Writer, { includeMerged: 'true' }, false],
    ['contracts', Contract, { includes: CONTRACT_INCLUDES.join(',') }, false],
    ['relations', Relation, { includeMerged: 'true' }, true],
    ['compositions', Composition, { includeProducts: 'true' }, true],
    ['recordings', Recording, { includeProducts: 'true' }, true],
  ] as const)('%s', async (kind, schema, options, isPaged) => {
    for (const params of [{}, options]) {
      const listed = await everyPage(schema as z.ZodMiniType, `/v1/${kind}`, params, isPaged);
      expect(listed.length).toBeGreaterThanOrEqual(20);
      for (const record of listed as { id: string }[]) await get(schema, `/v1/${kind}/${record.id}`, params);
    }
  });

  it('statements: the list shape in the list, the full shape by id', async () => {
    const listed = await everyPage(Statement, '/v1/statements', {}, true);
    expect(listed).toHaveLength(seeded.statements.length);
    for (const statement of listed) await get(StatementDetail, `/v1/statements/${statement.id}`);
  });
});

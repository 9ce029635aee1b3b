// SPEC 4.2–4.7: entities, statements, contracts, compositions, recordings, relations, writers and
// artists. Records are stored with bookkeeping fields (merged_into, parties, staging_id…); every
// response goes through a shape function that emits the spec's fields only, in the spec's order,
// and drops absent or null values.
import { CONTRACT_INCLUDES, type ContractInclude } from '../../lib/schemas.js';
import { HttpError, flag, paging, queryProject, type Handler, type Reply, type RouteContext, type Route } from '../http.js';
import type {
  CompositionRecord,
  ContractRecord,
  EntityRecord,
  PersonRecord,
  RecordingRecord,
  RelationRecord,
  StatementRecord,
} from '../store.js';

type Fields = Record<string, unknown>;

/** The object without its undefined and null values (SPEC 2: such fields are omitted). */
function compact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** A page of a list whose `data` is a plain array (projects, entities, contracts, writers, artists). */
function arrayPage<T>(ctx: RouteContext, items: readonly T[], shape: (item: T) => Fields): Reply {
  if (ctx.options.drift) return envelopePage(ctx, items, shape);
  const { page, perPage } = paging(ctx);
  return { body: { data: items.slice((page - 1) * perPage, page * perPage).map(shape) } };
}

/** A page in the envelope of statements, compositions, recordings and relations. */
function envelopePage<T>(ctx: RouteContext, items: readonly T[], shape: (item: T) => Fields): Reply {
  const { page, perPage } = paging(ctx);
  return {
    body: {
      data: {
        items: items.slice((page - 1) * perPage, page * perPage).map(shape),
        total_count: items.length,
        page,
        per_page: perPage,
      },
    },
  };
}

function found<T>(record: T | undefined, what: string): T {
  if (record === undefined) throw new HttpError(404, `${what} not found`);
  return record;
}

interface Mergeable {
  id: string;
  merged_into?: string;
}

const roots = <T extends Mergeable>(records: readonly T[]): T[] => records.filter((r) => r.merged_into === undefined);

/**
 * The duplicates merged into each root, when `includeMerged=true`; undefined otherwise, which the
 * shape functions read as "no `merged` key".
 */
function mergedIndex<T extends Mergeable>(ctx: RouteContext, records: readonly T[]): Map<string, T[]> | undefined {
  if (!flag(ctx, 'includeMerged')) return undefined;
  const index = new Map<string, T[]>();
  for (const record of records) {
    if (record.merged_into === undefined) continue;
    const list = index.get(record.merged_into);
    if (list) list.push(record);
    else index.set(record.merged_into, [record]);
  }
  return index;
}

const mergedRefs = <T extends Mergeable & { name: string }>(index: Map<string, T[]> | undefined, id: string) =>
  index && (index.get(id) ?? []).map((m) => ({ id: m.id, name: m.name }));

// ---- entities (4.2) ----

const entityShape = (index: Map<string, EntityRecord[]> | undefined) => (e: EntityRecord): Fields =>
  compact({
    id: e.id,
    internal_uuid: e.internal_uuid,
    name: e.name,
    email: e.email,
    phone: e.phone,
    address: e.address,
    shorthand: e.shorthand,
    division_of: e.division_of,
    project_id: e.project_id,
    created_at: e.created_at,
    updated_at: e.updated_at,
    merged: mergedRefs(index, e.id),
  });

const ROLES = ['assignee', 'assignor'] as const;
type Role = (typeof ROLES)[number];
const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Comma-separated values of a query parameter, also when it is repeated (`?a=x&a=y`). */
const listParam = (ctx: RouteContext, name: string): string[] =>
  ctx.query
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');

function parseRoles(ctx: RouteContext): Set<Role> | undefined {
  const values = listParam(ctx, 'roles');
  const unknown = values.filter((value) => !isRole(value));
  if (unknown.length > 0) {
    throw new HttpError(400, { roles: unknown.map((value) => `unknown role '${value}'; valid: ${ROLES.join(', ')}`) });
  }
  // Omitted or empty means every entity, whatever its role (SPEC 4.2).
  return values.length === 0 ? undefined : new Set(values.filter(isRole));
}

/** Ids of the root entities that sign at least one contract under one of the roles. */
function entitiesInRoles(contracts: readonly ContractRecord[], entities: readonly EntityRecord[], roles: Set<Role>): Set<string> {
  const rootOf = new Map<string, string>();
  for (const e of entities) if (e.merged_into !== undefined) rootOf.set(e.id, e.merged_into);
  const ids = new Set<string>();
  for (const contract of contracts) {
    for (const party of contract.parties) {
      if (roles.has(party.role)) ids.add(rootOf.get(party.entity_id) ?? party.entity_id);
    }
  }
  return ids;
}

const listEntities: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const roles = parseRoles(ctx);
  let items = roots(data.entities);
  if (roles) {
    const signers = entitiesInRoles(data.contracts, data.entities, roles);
    items = items.filter((e) => signers.has(e.id));
  }
  return arrayPage(ctx, items, entityShape(mergedIndex(ctx, data.entities)));
};

// A merged (non-root) record asked for by id is served as it is: the id stays valid after a merge,
// and a client following a reference to it should not get a 404.
const getEntity: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const key = ctx.params.id ?? '';
  const uuid = key.toLowerCase();
  const entity = found(
    data.entities.find((e) => e.id === key || e.internal_uuid.toLowerCase() === uuid),
    'entity',
  );
  return { body: { data: entityShape(mergedIndex(ctx, data.entities))(entity) } };
};

// ---- statements (4.3) ----

/** Both shapes, in the spec's field order; the list item stops at processed_at. */
function statementShape(s: StatementRecord, full: boolean): Fields {
  const listed: Fields = {
    id: s.id,
    file_name: s.file_name,
    file_type: s.file_type,
    file_size: s.file_size,
    statement_name: s.statement_name,
    statement_type: s.statement_type,
    statement_category: s.statement_category,
    statement_producer: s.statement_producer,
    processing_status: s.processing_status,
    upload_status: s.upload_status,
    approval_status: s.approval_status,
    has_revenues: s.has_revenues,
    has_costs: s.has_costs,
    has_summary: s.has_summary,
    currency_transaction: s.currency_transaction,
    currency_royalty: s.currency_royalty,
    entity_id: s.entity_id,
    created_at: s.created_at,
    processed_at: s.processed_at,
  };
  if (!full) return compact(listed);
  return compact({
    ...listed,
    statement_desc: s.statement_desc,
    statement_subtype: s.statement_subtype,
    statement_version: s.statement_version,
    has_summary_lines: s.has_summary_lines,
    modified_at: s.modified_at,
  });
}

const listStatements: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, data.statements, (s) => statementShape(s, false));
};

// The path parameter is an integer (SPEC 4.3): anything else is a malformed request, so 400 with
// the field named, not a 404 that would suggest the id merely does not exist.
const getStatement: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const raw = ctx.params.id ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, { statement_id: ['statement_id must be an integer'] });
  const id = Number(raw);
  const statement = found(
    data.statements.find((s) => s.id === id),
    'statement',
  );
  return { body: { data: statementShape(statement, true) } };
};

// ---- contracts (4.4) ----

const isInclude = (value: string): value is ContractInclude => (CONTRACT_INCLUDES as readonly string[]).includes(value);

function parseIncludes(ctx: RouteContext): ContractInclude[] {
  const values = listParam(ctx, 'includes');
  const unknown = values.filter((value) => !isInclude(value));
  if (unknown.length > 0) {
    throw new HttpError(400, {
      includes: unknown.map((value) => `unknown include '${value}'; valid: ${CONTRACT_INCLUDES.join(', ')}`),
    });
  }
  return [...new Set(values.filter(isInclude))];
}

/** The base fields, plus one array per requested include (empty when nothing was extracted). */
const contractShape = (includes: readonly ContractInclude[]) => (c: ContractRecord): Fields => {
  const out: Fields = compact({ id: c.id, name: c.name, file_name: c.file_name, project_id: c.project_id, created_at: c.created_at });
  for (const include of includes) out[include] = c.includes[include] ?? [];
  return out;
};

const listContracts: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const includes = parseIncludes(ctx);
  return arrayPage(ctx, data.contracts, contractShape(includes));
};

const getContract: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const includes = parseIncludes(ctx);
  const id = ctx.params.id ?? '';
  const contract = found(
    data.contracts.find((c) => c.id === id),
    'contract',
  );
  return { body: { data: contractShape(includes)(contract) } };
};

// ---- compositions and recordings (4.5) ----

const compositionShape = (withProducts: boolean) => (c: CompositionRecord): Fields =>
  compact({
    id: c.id,
    name: c.name,
    type: c.type,
    writers: c.writers,
    artists: c.artists,
    created_at: c.created_at,
    updated_at: c.updated_at,
    products: withProducts ? c.products : undefined,
  });

const recordingShape = (withProducts: boolean) => (r: RecordingRecord): Fields =>
  compact({
    id: r.id,
    name: r.name,
    duration_ms: r.duration_ms,
    type: r.type,
    artists: r.artists,
    created_at: r.created_at,
    updated_at: r.updated_at,
    products: withProducts ? r.products : undefined,
  });

const listCompositions: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, data.compositions, compositionShape(flag(ctx, 'includeProducts')));
};

const getComposition: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const composition = found(
    data.compositions.find((c) => c.id === ctx.params.id),
    'composition',
  );
  return { body: { data: compositionShape(flag(ctx, 'includeProducts'))(composition) } };
};

const listRecordings: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, data.recordings, recordingShape(flag(ctx, 'includeProducts')));
};

const getRecording: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const recording = found(
    data.recordings.find((r) => r.id === ctx.params.id),
    'recording',
  );
  return { body: { data: recordingShape(flag(ctx, 'includeProducts'))(recording) } };
};

// ---- relations (4.6) ----

const relationShape = (index: Map<string, RelationRecord[]> | undefined) => (r: RelationRecord): Fields =>
  compact({
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    department: r.department,
    created_at: r.created_at,
    updated_at: r.updated_at,
    // A relation's duplicates also say when they were merged (SPEC 2, Relation).
    merged: index && (index.get(r.id) ?? []).map((m) => ({ id: m.id, name: m.name, merged_at: m.merged_at ?? m.updated_at })),
  });

const listRelations: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, roots(data.relations), relationShape(mergedIndex(ctx, data.relations)));
};

const getRelation: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const relation = found(
    data.relations.find((r) => r.id === ctx.params.id),
    'relation',
  );
  return { body: { data: relationShape(mergedIndex(ctx, data.relations))(relation) } };
};

// ---- writers and artists (4.7) ----

const personShape = (index: Map<string, PersonRecord[]> | undefined) => (p: PersonRecord): Fields =>
  compact({ id: p.id, name: p.name, project_id: p.project_id, merged: mergedRefs(index, p.id) });

const personRoutes = (path: string, kind: 'artists' | 'writers', what: string): Route[] => [
  {
    method: 'GET',
    pattern: path,
    handler: (ctx) => {
      const { data } = queryProject(ctx);
      return arrayPage(ctx, roots(data[kind]), personShape(mergedIndex(ctx, data[kind])));
    },
  },
  {
    method: 'GET',
    pattern: `${path}/:id`,
    handler: (ctx) => {
      const { data } = queryProject(ctx);
      const person = found(
        data[kind].find((p) => p.id === ctx.params.id),
        what,
      );
      return { body: { data: personShape(mergedIndex(ctx, data[kind]))(person) } };
    },
  },
];

export const catalogRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/entities', handler: listEntities },
  { method: 'GET', pattern: '/v1/entities/:id', handler: getEntity },
  { method: 'GET', pattern: '/v1/statements', handler: listStatements },
  { method: 'GET', pattern: '/v1/statements/:id', handler: getStatement },
  { method: 'GET', pattern: '/v1/contracts', handler: listContracts },
  { method: 'GET', pattern: '/v1/contracts/:id', handler: getContract },
  { method: 'GET', pattern: '/v1/compositions', handler: listCompositions },
  { method: 'GET', pattern: '/v1/compositions/:id', handler: getComposition },
  { method: 'GET', pattern: '/v1/recordings', handler: listRecordings },
  { method: 'GET', pattern: '/v1/recordings/:id', handler: getRecording },
  { method: 'GET', pattern: '/v1/relations', handler: listRelations },
  { method: 'GET', pattern: '/v1/relations/:id', handler: getRelation },
  ...personRoutes('/v1/writers', 'writers', 'writer'),
  ...personRoutes('/v1/artists', 'artists', 'artist'),
];

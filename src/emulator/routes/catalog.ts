// docs/service.md, "Records": entities, statements, contracts, compositions, recordings, relations, writers and
// artists. Records are stored with bookkeeping fields (merged_into, parties, staging_id…); every
// response goes through a shape function: in the seed's forms (here) the spec's fields only, in the
// spec's order, absent or null values dropped; in the deployed flavor the service's forms
// (../deployed/). Both read the same records through the same lookups.
import { generatedFileName } from '../generated-files.js';
import { CURRENT_INCLUDES, SEED_INCLUDES, type Include as ContractInclude } from '../vocabulary.js';
import {
  HttpError,
  deployedForms,
  driftedForms,
  flag,
  paging,
  queryProject,
  type Handler,
  type Reply,
  type RouteContext,
  type Route,
} from '../http.js';
import { storeIdOf, type NumberedKind } from '../deployed/ids.js';
import { byId, derived, entityByUuid } from '../deployed/indexes.js';
import {
  deployedComposition,
  deployedEntity,
  deployedPerson,
  deployedRecording,
  deployedRelation,
} from '../deployed/records.js';
import { deployedContract, deployedScore } from '../deployed/contracts.js';
import { deployedStatement, detailedExport, extractionStage, stagingIdOf } from '../deployed/statements.js';
import type {
  CompositionRecord,
  ProjectRecord,
  ContractRecord,
  EntityRecord,
  PersonRecord,
  ProjectData,
  RecordingRecord,
  RelationRecord,
  StatementRecord,
} from '../store.js';

type Fields = Record<string, unknown>;

/** The object without its undefined and null values (docs/service.md, "Records": such fields are omitted). */
function compact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** A page of a list whose `data` is a plain array (projects, entities, contracts, writers, artists). */
function arrayPage<T>(ctx: RouteContext, items: readonly T[], shape: (item: T) => Fields): Reply {
  if (driftedForms(ctx.options)) return envelopePage(ctx, items, shape);
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

const deployed = (ctx: RouteContext): boolean => deployedForms(ctx.options);

/**
 * The catalog record a path's id names: the store's id in the seed's forms, the numeric id of the
 * kind's range in the deployed forms (../deployed/ids.ts). These lists are only ever appended to,
 * so their index by id stays true.
 */
function recordOf<T extends { id: string }>(ctx: RouteContext, list: readonly T[], kind: NumberedKind): T | undefined {
  const key = ctx.params.id ?? '';
  const id = deployed(ctx) ? storeIdOf(kind, key) : key;
  return id === undefined ? undefined : byId(list).get(id);
}

interface Mergeable {
  id: string;
  merged_into?: string;
}

/**
 * What a list page needs from a whole list, computed once per list rather than once per page (a
 * page then costs its own records, not the list's: walking 100,000 artists took 5000 passes over
 * them). The root records in order, and the duplicates merged into each root.
 */
interface MergeIndex<T extends Mergeable> {
  roots: T[];
  merged: Map<string, T[]>;
}

// Kept while the list keeps its length (../deployed/indexes.ts): merges are made when records are
// created (seeded), never later, so a list of the same length has the same roots.
const mergeIndex = <T extends Mergeable>(records: readonly T[]): MergeIndex<T> =>
  derived(records, 'merges', () => {
    const index: MergeIndex<T> = { roots: [], merged: new Map() };
    for (const record of records) {
      if (record.merged_into === undefined) {
        index.roots.push(record);
        continue;
      }
      const list = index.merged.get(record.merged_into);
      if (list) list.push(record);
      else index.merged.set(record.merged_into, [record]);
    }
    return index;
  });

const roots = <T extends Mergeable>(records: readonly T[]): T[] => mergeIndex(records).roots;

/**
 * The duplicates merged into each root, when `includeMerged=true`; undefined otherwise, which the
 * shape functions read as "no `merged` key".
 */
function mergedIndex<T extends Mergeable>(ctx: RouteContext, records: readonly T[]): Map<string, T[]> | undefined {
  return flag(ctx, 'includeMerged') ? mergeIndex(records).merged : undefined;
}

const mergedRefs = <T extends Mergeable & { name: string }>(index: Map<string, T[]> | undefined, id: string) =>
  index && (index.get(id) ?? []).map((m) => ({ id: m.id, name: m.name }));

// ---- entities (4.2) ----

const entityShape =
  (index: Map<string, EntityRecord[]> | undefined) =>
  (e: EntityRecord): Fields =>
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
  // Omitted or empty means every entity, whatever its role (docs/service.md, "Records").
  return values.length === 0 ? undefined : new Set(values.filter(isRole));
}

/** Ids of the root entities that sign at least one contract under one of the roles. */
function entitiesInRoles(
  contracts: readonly ContractRecord[],
  entities: readonly EntityRecord[],
  roles: Set<Role>,
): Set<string> {
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

/**
 * The root entities in any of the roles, in list order. Kept per set of roles while the contracts
 * and entities keep their lengths: a contract's parties are set when it is created.
 */
function entitiesWithRoles(data: ProjectData, roles: Set<Role>): EntityRecord[] {
  const key = ROLES.filter((role) => roles.has(role)).join(',');
  return derived(data.contracts, `roles:${key}:${data.entities.length}`, () => {
    const signers = entitiesInRoles(data.contracts, data.entities, roles);
    return roots(data.entities).filter((e) => signers.has(e.id));
  });
}

const listEntities: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const roles = parseRoles(ctx);
  const items = roles ? entitiesWithRoles(data, roles) : roots(data.entities);
  return arrayPage(ctx, items, entityRenderer(ctx, data));
};

const entityRenderer = (ctx: RouteContext, data: ProjectData): ((e: EntityRecord) => Fields) =>
  deployed(ctx) ? deployedEntity(data, mergedIndex(ctx, data.entities)) : entityShape(mergedIndex(ctx, data.entities));

// A merged (non-root) record asked for by id is served as it is: the id stays valid after a merge,
// and a client following a reference to it should not get a 404.
const getEntity: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const entity = found(
    recordOf(ctx, data.entities, 'entity') ?? entityByUuid(data.entities, ctx.params.id ?? ''),
    'entity',
  );
  return { body: { data: entityRenderer(ctx, data)(entity) } };
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

const current = (ctx: RouteContext): boolean => ctx.options.flavor !== 'seed';

/** A boolean option of the deployed service: `true` or `false`, anything else a 400. */
function boolParam(ctx: RouteContext, name: string, errors: Record<string, string[]>): boolean {
  const raw = ctx.query.get(name);
  if (raw !== null && raw !== 'true' && raw !== 'false') errors[name] = [`${name} must be true or false`];
  return raw === 'true';
}

/** A stable score in [0.5, 1) for a record, as the service's extraction-confidence score. */
function scoreOf(id: string | number): number {
  let hash = 0;
  for (const char of String(id)) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1000;
  return 0.5 + hash / 2000;
}

const EXTRACTION_STAGES = ['queued', 'processing', 'completed', 'failed', 'paused', 'timed_out', 'skipped'];

/** The deployed service's statement list options: stagingIds, extractionStage, score. */
function statementFilter(ctx: RouteContext): { keep: (s: StatementRecord) => boolean; score: boolean } {
  const errors: Record<string, string[]> = {};
  const staging = listParam(ctx, 'stagingIds');
  if (staging.some((id) => !/^\d{1,15}$/.test(id)))
    errors.stagingIds = ['stagingIds must be a comma-separated list of integers'];
  const stage = ctx.query.get('extractionStage');
  if (stage !== null && !EXTRACTION_STAGES.includes(stage))
    errors.extractionStage = [`extractionStage must be one of ${EXTRACTION_STAGES.join(', ')}`];
  const score = boolParam(ctx, 'score', errors);
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  const ids = new Set(staging.map(Number));
  return {
    keep: (s) => (ids.size === 0 || ids.has(stagingIdOf(s))) && (stage === null || extractionStage(s) === stage),
    score,
  };
}

/** The deployed service's fields of a statement: its staging, extraction stage, context and tags. */
function statementExtras(s: StatementRecord, score: boolean): Fields {
  return compact({
    staging_id: s.staging_id,
    extraction_stage: extractionStage(s),
    accounting_period: s.accounting_period,
    target_period: s.target_period,
    payee: s.payee,
    payor: s.payor,
    tags: s.tags ?? [],
    score: score ? scoreOf(s.id) : undefined,
  });
}

/** A statement with the deployed service's `score`: a warning when it has no summary. */
const deployedStatementScore = (s: StatementRecord): Fields => ({
  score: deployedScore(s.id, s.has_summary === true ? [] : ['summary']),
});

const listStatements: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  if (!current(ctx)) return envelopePage(ctx, data.statements, (s) => statementShape(s, false));
  const { keep, score } = statementFilter(ctx);
  const kept = data.statements.filter(keep);
  if (deployed(ctx))
    return envelopePage(ctx, kept, (s) => ({ ...deployedStatement(data, s), ...(score && deployedStatementScore(s)) }));
  return envelopePage(ctx, kept, (s) => ({ ...statementShape(s, false), ...statementExtras(s, score) }));
};

// The path parameter is an integer (docs/service.md, "Records"): anything else is a malformed request, so 400 with
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
  if (!current(ctx)) return { body: { data: statementShape(statement, true) } };
  const errors: Record<string, string[]> = {};
  const detailed = boolParam(ctx, 'detailed', errors);
  const score = boolParam(ctx, 'score', errors);
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  if (deployed(ctx)) return { body: { data: deployedStatementGet(ctx, data, statement, { detailed, score }) } };
  const extras = statementExtras(statement, score);
  return {
    body: {
      data: {
        ...statementShape(statement, true),
        ...extras,
        ...(detailed && { folder_name: statement.folder_name ?? null, file_size: statement.file_size }),
      },
    },
  };
};

/** One statement in the deployed form; `detailed` links its lines on the storage host. */
function deployedStatementGet(
  ctx: RouteContext,
  data: ProjectData,
  s: StatementRecord,
  asked: { detailed: boolean; score: boolean },
): Fields {
  const { storage } = ctx;
  const projectId = ctx.query.get('projectId')?.toLowerCase() ?? '';
  const sign = () => {
    if (!storage) throw new HttpError(503, 'the storage host is not running');
    return storage.signExport(projectId, s.id, ctx.now(), ctx.options.urlTtlSeconds);
  };
  return {
    ...deployedStatement(data, s),
    ...(asked.detailed && detailedExport(data, s, sign)),
    ...(asked.score && deployedStatementScore(s)),
  };
}

// ---- contracts (4.4) ----

/** The contract options of the deployed service: extractorIds, score, citations. */
interface ContractOptions {
  includes: ContractInclude[];
  score: boolean;
  citations: boolean;
  extractorIds: string[];
}

function contractOptions(ctx: RouteContext): ContractOptions {
  const known: readonly string[] = current(ctx) ? CURRENT_INCLUDES : SEED_INCLUDES;
  const values = listParam(ctx, 'includes');
  const errors: Record<string, string[]> = {};
  const unknown = values.filter((value) => !known.includes(value));
  if (unknown.length > 0)
    errors.includes = unknown.map((value) => `unknown include '${value}'; valid: ${known.join(', ')}`);
  let score = false;
  let citations = false;
  const extractorIds = current(ctx) ? [...new Set(listParam(ctx, 'extractorIds'))] : [];
  if (current(ctx)) {
    score = boolParam(ctx, 'score', errors);
    citations = boolParam(ctx, 'citations', errors);
    if (extractorIds.some((id) => !/^[\w.-]{1,64}$/.test(id)))
      errors.extractorIds = ['extractorIds must be a comma-separated list of ids'];
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return { includes: [...new Set(values)] as ContractInclude[], score, citations, extractorIds };
}

/** The base fields, plus one array per requested include (empty when nothing was extracted). */
const contractShape =
  (ctx: RouteContext, data: ProjectData, options: ContractOptions) =>
  (c: ContractRecord): Fields => {
    if (deployed(ctx)) return deployedContract(c, data, options);
    const out: Fields = { id: c.id, name: c.name, project_id: c.project_id, created_at: c.created_at };
    if (current(ctx)) {
      // Every deployed record has its file; seeded contracts are named after the generated PDF.
      out.file_name = c.file_name ?? generatedFileName(c.name);
      out.file_type = c.file_type ?? 'application/pdf';
      out.tags = c.tags ?? [];
      if (options.score) out.score = scoreOf(c.id);
    }
    for (const include of options.includes) {
      const rows = c.includes[include] ?? [];
      out[include] = options.citations
        ? rows.map((row) => ({ ...row, citations: [{ page: 1, text: String(row.id ?? '') }] }))
        : rows;
    }
    return out;
  };

const listContracts: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return arrayPage(ctx, data.contracts, contractShape(ctx, data, contractOptions(ctx)));
};

const getContract: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const options = contractOptions(ctx);
  const id = ctx.params.id ?? '';
  const contract = found(
    data.contracts.find((c) => c.id === id),
    'contract',
  );
  return { body: { data: contractShape(ctx, data, options)(contract) } };
};

// ---- compositions and recordings (4.5) ----

const compositionShape =
  (withProducts: boolean) =>
  (c: CompositionRecord): Fields =>
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

const recordingShape =
  (withProducts: boolean) =>
  (r: RecordingRecord): Fields =>
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

const compositionRenderer = (ctx: RouteContext): ((c: CompositionRecord) => Fields) =>
  (deployed(ctx) ? deployedComposition : compositionShape)(flag(ctx, 'includeProducts'));

const recordingRenderer = (ctx: RouteContext, data: ProjectData, byId = false): ((r: RecordingRecord) => Fields) =>
  deployed(ctx)
    ? deployedRecording(data, flag(ctx, 'includeProducts'), byId)
    : recordingShape(flag(ctx, 'includeProducts'));

const listCompositions: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, data.compositions, compositionRenderer(ctx));
};

const getComposition: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const composition = found(recordOf(ctx, data.compositions, 'composition'), 'composition');
  return { body: { data: compositionRenderer(ctx)(composition) } };
};

const listRecordings: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, data.recordings, recordingRenderer(ctx, data));
};

const getRecording: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const recording = found(recordOf(ctx, data.recordings, 'recording'), 'recording');
  return { body: { data: recordingRenderer(ctx, data, true)(recording) } };
};

// ---- relations (4.6) ----

const relationShape =
  (index: Map<string, RelationRecord[]> | undefined) =>
  (r: RelationRecord): Fields =>
    compact({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      department: r.department,
      created_at: r.created_at,
      updated_at: r.updated_at,
      // A relation's duplicates also say when they were merged (docs/service.md, "Records").
      merged:
        index &&
        (index.get(r.id) ?? []).map((m) => ({ id: m.id, name: m.name, merged_at: m.merged_at ?? m.updated_at })),
    });

const relationRenderer = (ctx: RouteContext, data: ProjectData): ((r: RelationRecord) => Fields) =>
  (deployed(ctx) ? deployedRelation : relationShape)(mergedIndex(ctx, data.relations));

const listRelations: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, roots(data.relations), relationRenderer(ctx, data));
};

const getRelation: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const relation = found(recordOf(ctx, data.relations, 'relation'), 'relation');
  return { body: { data: relationRenderer(ctx, data)(relation) } };
};

// ---- writers and artists (4.7) ----

const personShape =
  (index: Map<string, PersonRecord[]> | undefined) =>
  (p: PersonRecord): Fields =>
    compact({ id: p.id, name: p.name, project_id: p.project_id, merged: mergedRefs(index, p.id) });

const personRenderer = (
  ctx: RouteContext,
  project: ProjectRecord,
  data: ProjectData,
  kind: 'artists' | 'writers',
): ((p: PersonRecord) => Fields) => {
  const merged = mergedIndex(ctx, data[kind]);
  return deployed(ctx)
    ? deployedPerson(kind === 'artists' ? 'artist' : 'writer', project.created_at, merged)
    : personShape(merged);
};

const personRoutes = (path: string, kind: 'artists' | 'writers', what: 'artist' | 'writer'): Route[] => [
  {
    method: 'GET',
    pattern: path,
    handler: (ctx) => {
      const { project, data } = queryProject(ctx);
      return arrayPage(ctx, roots(data[kind]), personRenderer(ctx, project, data, kind));
    },
  },
  {
    method: 'GET',
    pattern: `${path}/:id`,
    handler: (ctx) => {
      const { project, data } = queryProject(ctx);
      const person = found(recordOf(ctx, data[kind], what), what);
      return { body: { data: personRenderer(ctx, project, data, kind)(person) } };
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

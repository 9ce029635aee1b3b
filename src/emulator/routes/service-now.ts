// What the deployed service has beyond the spec form, apart from uploads (docs/service.md): creating
// projects, tags on contracts and statements, editing a statement, and the knowledge search.
// Served by the `deployed` and `current` flavors, not by `seed`.
import { randomUUID } from 'node:crypto';
import {
  HttpError,
  deployedForms,
  fieldErrors,
  notSaved,
  paging,
  projectInScope,
  queryProject,
  type Handler,
  type RouteContext,
  type Route,
} from '../http.js';
import type { ContractRecord, ProjectData, ProjectRecord, StatementRecord } from '../store.js';
import { CURRENCY_RE, PERIOD_RE } from '../vocabulary.js';
import { knowledgeSearch, parseKinds } from '../knowledge.js';
import { jsonBody } from './signed-uploads.js';
import { projectBody } from './projects.js';
import { documentId } from '../deployed/ids.js';
import { deployedStatement } from '../deployed/statements.js';

type Errors = Record<string, string[]>;
type Scope = 'contracts' | 'statements';
const SCOPES: readonly Scope[] = ['contracts', 'statements'];

// ---- projects ----

const createProject: Handler = async (ctx) => {
  if (ctx.scope.project_id) throw new HttpError(403, 'a project-scoped token cannot create projects');
  const body = await jsonBody(ctx);
  const errors: Errors = {};
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '' || name.length > 200) errors.name = ['name is required (1 to 200 characters)'];
  if (body.entityName !== undefined && (typeof body.entityName !== 'string' || body.entityName.trim() === '')) {
    errors.entityName = ['entityName must be a non-empty string'];
  }
  fieldErrors(errors);
  const project: ProjectRecord = {
    id: randomUUID(),
    name,
    created_at: new Date(ctx.now()).toISOString(),
    organization_id: ctx.scope.organization_id,
    ...(typeof body.entityName === 'string' && { entity_name: body.entityName.trim() }),
  };
  try {
    await ctx.commit([{ created_project: project }]);
  } catch {
    throw notSaved('the project');
  }
  return { status: 201, body: { data: projectBody(ctx, project) } };
};

// ---- tags ----

/** A tag's id: stable for its text and scope, so every answer names it the same. */
function tagId(scope: Scope, tag: string): number {
  let hash = 2166136261;
  for (const char of `${scope}\u0000${tag}`) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return hash % 1_000_000_000;
}

const records = (data: ProjectData, scope: Scope): (ContractRecord | StatementRecord)[] => data[scope];

const listTags: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const raw = ctx.query.get('scope');
  if (raw !== null && !SCOPES.includes(raw as Scope))
    throw new HttpError(400, { scope: ['scope must be contracts or statements'] });
  const search = (ctx.query.get('search') ?? '').toLowerCase();
  const { page, perPage } = paging(ctx);
  const counts = new Map<string, { tag: string; scope: Scope; usage_count: number }>();
  for (const scope of raw === null ? SCOPES : [raw as Scope]) {
    for (const record of records(data, scope)) {
      for (const tag of record.tags ?? []) {
        if (search !== '' && !tag.toLowerCase().includes(search)) continue;
        const key = `${scope}\u0000${tag}`;
        const entry = counts.get(key) ?? { tag, scope, usage_count: 0 };
        entry.usage_count++;
        counts.set(key, entry);
      }
    }
  }
  const all = [...counts.values()].sort((a, b) => a.tag.localeCompare(b.tag) || a.scope.localeCompare(b.scope));
  const items = all.slice((page - 1) * perPage, page * perPage).map((t) => ({ id: tagId(t.scope, t.tag), ...t }));
  // The deployed service pages it as every other list (examples/deployed/tags.list.json).
  if (deployedForms(ctx.options))
    return { body: { data: { items, total_count: all.length, page, per_page: perPage } } };
  return {
    body: {
      data: items,
      pagination: { page, per_page: perPage, total_count: all.length, total_pages: Math.ceil(all.length / perPage) },
    },
  };
};

function tagList(errors: Errors, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((t) => typeof t === 'string' && t.trim() !== '' && t.length <= 64)) {
    errors.tags = [
      'tags must be an array of non-empty strings of at most 64 characters (the complete list; [] clears)',
    ];
    return [];
  }
  return [...new Set(value.map((t: string) => t.trim()))];
}

function findRecord(data: ProjectData, scope: Scope, raw: unknown): ContractRecord | StatementRecord {
  const id = String(raw ?? '');
  const record =
    scope === 'contracts' ? data.contracts.find((c) => c.id === id) : data.statements.find((s) => String(s.id) === id);
  if (!record) throw new HttpError(404, `${scope === 'contracts' ? 'contract' : 'statement'} not found`);
  return record;
}

/** A record's id as the flavor answers it: the deployed service numbers contracts too. */
const answeredId = (ctx: RouteContext, record: ContractRecord | StatementRecord): string | number =>
  deployedForms(ctx.options) ? documentId(record.id) : record.id;

async function saveTagged(
  ctx: RouteContext,
  project: string,
  scope: Scope,
  record: ContractRecord | StatementRecord,
): Promise<void> {
  try {
    await ctx.commit([
      scope === 'contracts'
        ? { contract: record as ContractRecord, project }
        : { statement: record as StatementRecord, project },
    ]);
  } catch {
    throw notSaved('the tags');
  }
}

const putTags: Handler = async (ctx) => {
  const { project, data } = queryProject(ctx);
  const body = await jsonBody(ctx);
  const errors: Errors = {};
  if (!SCOPES.includes(body.scope as Scope)) errors.scope = ['scope must be contracts or statements'];
  if (typeof body.resourceId !== 'string' && typeof body.resourceId !== 'number')
    errors.resourceId = ['resourceId is required'];
  const tags = tagList(errors, body.tags);
  fieldErrors(errors);
  const scope = body.scope as Scope;
  const record = { ...findRecord(data, scope, body.resourceId), tags };
  await saveTagged(ctx, project.id, scope, record);
  return {
    body: {
      data: { resource_id: answeredId(ctx, record), scope, tags: tags.map((tag) => ({ id: tagId(scope, tag), tag })) },
    },
  };
};

const putContract: Handler = async (ctx) => {
  const { project, data } = queryProject(ctx);
  const body = await jsonBody(ctx);
  const errors: Errors = {};
  for (const key of Object.keys(body)) if (key !== 'tags') errors[key] = ['a contract takes only tags'];
  const tags = tagList(errors, body.tags);
  fieldErrors(errors);
  const record = { ...findRecord(data, 'contracts', ctx.params.id), tags } as ContractRecord;
  await saveTagged(ctx, project.id, 'contracts', record);
  return { body: { data: { id: answeredId(ctx, record), tags } } };
};

// ---- statements ----

/** The fields PUT /statements/{id} takes, the record field each sets, and its check. */
const STATEMENT_FIELDS = {
  payee: { field: 'payee', valid: (v: string) => v.trim() !== '' && v.length <= 255, want: 'a non-empty string' },
  payor: { field: 'payor', valid: (v: string) => v.trim() !== '' && v.length <= 255, want: 'a non-empty string' },
  accountingPeriod: {
    field: 'accounting_period',
    valid: (v: string) => PERIOD_RE.test(v),
    want: 'a period such as 2026Q3',
  },
  targetPeriod: { field: 'target_period', valid: (v: string) => PERIOD_RE.test(v), want: 'a period such as 2026H1' },
  currencyTx: {
    field: 'currency_transaction',
    valid: (v: string) => CURRENCY_RE.test(v),
    want: 'a three-letter currency code',
  },
  currency: {
    field: 'currency_royalty',
    valid: (v: string) => CURRENCY_RE.test(v),
    want: 'a three-letter currency code',
  },
} as const;

const putStatement: Handler = async (ctx) => {
  const { project, data } = queryProject(ctx);
  const body = await jsonBody(ctx);
  const errors: Errors = {};
  const record = { ...findRecord(data, 'statements', ctx.params.id) } as StatementRecord & Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'tags') {
      record.tags = tagList(errors, value);
      continue;
    }
    const spec = STATEMENT_FIELDS[key as keyof typeof STATEMENT_FIELDS];
    if (!spec) errors[key] = ['unknown field'];
    else if (value === null) delete record[spec.field];
    else if (typeof value !== 'string' || !spec.valid(value))
      errors[key] = [`${key} must be ${spec.want} (or null to clear it)`];
    else record[spec.field] = value;
  }
  fieldErrors(errors);
  await saveTagged(ctx, project.id, 'statements', record);
  // The service answers the statement as it now is: a field the edit left alone keeps its value, and
  // a value the deployed record derives (a processed statement's period) is the one a read shows.
  const shown = deployedForms(ctx.options) ? deployedStatement(data, record) : record;
  return {
    body: {
      data: {
        id: record.id,
        tags: record.tags ?? [],
        payee: shown.payee ?? null,
        payor: shown.payor ?? null,
        accounting_period: shown.accounting_period ?? null,
        target_period: shown.target_period ?? null,
        currency_tx: shown.currency_transaction ?? null,
        currency: shown.currency_royalty ?? null,
      },
    },
  };
};

// ---- knowledge ----

const search: Handler = (ctx) => {
  const project = projectInScope(ctx, ctx.params.project_id ?? '', 'project_id');
  const data = ctx.state.data[project.id];
  if (!data) throw new HttpError(500, 'project data missing');
  const q = (ctx.query.get('q') ?? '').trim();
  const errors: Errors = {};
  if (q === '' || q.length > 500) errors.q = ['q is required (1 to 500 characters)'];
  const rawLimit = ctx.query.get('limit');
  const limit = rawLimit === null ? 10 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) errors.limit = ['limit must be an integer from 1 to 50'];
  // The deployed service has no kind filter (docs/service.md): it answers every kind, as here.
  const kinds = deployedForms(ctx.options) ? undefined : parseKinds(errors, ctx.query.getAll('kind'));
  fieldErrors(errors);
  return { body: { data: knowledgeSearch(project.id, data, q, limit, kinds, deployedForms(ctx.options)) } };
};

export const serviceNowRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/projects', handler: createProject },
  { method: 'GET', pattern: '/v1/tags', handler: listTags },
  { method: 'PUT', pattern: '/v1/tags', handler: putTags },
  { method: 'PUT', pattern: '/v1/contracts/:id', handler: putContract },
  { method: 'PUT', pattern: '/v1/statements/:id', handler: putStatement },
  { method: 'GET', pattern: '/v1/projects/:project_id/knowledge/search', handler: search },
];

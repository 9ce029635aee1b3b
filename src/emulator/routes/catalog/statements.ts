// GET /v1/statements and /v1/statements/{id}, with the deployed service's filters and lines link.
import { HttpError, queryProject, type Handler, type RouteContext } from '../../http.js';
import { deployedScore } from '../../deployed/contracts.js';
import { deployedStatement, detailedExport, extractionStage, stagingIdOf } from '../../deployed/statements.js';
import type { ProjectData, StatementRecord } from '../../store.js';
import { type Fields, compact, envelopePage, found, deployed } from './common.js';
import { listParam } from './entities.js';

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

export const current = (ctx: RouteContext): boolean => ctx.options.flavor !== 'seed';

/** A boolean option of the deployed service: `true` or `false`, anything else a 400. */
export function boolParam(ctx: RouteContext, name: string, errors: Record<string, string[]>): boolean {
  const raw = ctx.query.get(name);
  if (raw !== null && raw !== 'true' && raw !== 'false') errors[name] = [`${name} must be true or false`];
  return raw === 'true';
}

/** A stable score in [0.5, 1) for a record, as the service's extraction-confidence score. */
export function scoreOf(id: string | number): number {
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

export const listStatements: Handler = (ctx) => {
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
export const getStatement: Handler = (ctx) => {
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

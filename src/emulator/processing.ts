// The upload state machine of docs/service.md, "Processes". An upload's stage is never stored: it is
// derived from the clock (`created_ms` and the step length), so polling, restarts with `--data`
// and slow or fast clocks all agree. The only stored effects are the records an upload becomes.
import type { Extraction as ExtractionName, Include as ContractInclude } from './vocabulary.js';
import { stagingCheck } from './staging-check.js';
import { stagingIdOf } from './deployed/statements.js';
import {
  countersOf,
  type ContractRecord,
  type EmulatorState,
  type ProjectData,
  type StateChange,
  type StatementRecord,
  type UploadRecord,
} from './store.js';

type StagingStage = 'queued' | 'processing' | 'completed' | 'failed' | 'paused';
type ExtractionStatus = 'pending' | 'processing' | 'completed';

/** Statement processing runs through these numbered stages, one step each. */
const STATEMENT_STAGES = 3;

/** When each phase of an upload ends, in epoch milliseconds. */
interface Timeline {
  stagingStart: number;
  stagingEnd: number;
  /** Contract: start and end of each extraction, in request order. */
  extractions: { start: number; end: number }[];
  /** When nothing is left to do: extractions (contract) or processing (statement) done. */
  end: number;
}

function timeline(upload: UploadRecord, step: number): Timeline {
  const t0 = upload.created_ms;
  if (upload.kind === 'statement') {
    // Statements have no visible `processing` staging stage (docs/service.md, "Processes"): queued, then done.
    const stagingEnd = t0 + step;
    return { stagingStart: stagingEnd, stagingEnd, extractions: [], end: stagingEnd + STATEMENT_STAGES * step };
  }
  const stagingStart = t0 + step;
  const stagingEnd = t0 + 2 * step;
  // Extractions wait one step as `pending` after staging, then run one by one, a step each.
  const extractions = upload.extractions.map((_, i) => ({
    start: stagingEnd + (i + 1) * step,
    end: stagingEnd + (i + 2) * step,
  }));
  return { stagingStart, stagingEnd, extractions, end: extractions.at(-1)?.end ?? stagingEnd };
}

function stagingStage(upload: UploadRecord, t: Timeline, now: number): StagingStage {
  // A paused upload's clock is stopped until it is retried (docs/service.md, "Staging").
  if (upload.pause_reason !== undefined) return 'paused';
  if (upload.minted || now < t.stagingStart) return 'queued';
  if (now < t.stagingEnd) return 'processing';
  return upload.staging_error === undefined ? 'completed' : 'failed';
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * `staging_processes.info`: the spec's flat `{check, status, …}` and, beside it, the deployed
 * service's `staging_check: {status, info}`, which its official client reads for the reason.
 */
function stagingInfo(upload: UploadRecord, stage: StagingStage): Record<string, unknown> {
  // The check that fits the file's format (issue 32: a CSV was said to be checked for a PDF trailer).
  const check = stagingCheck(upload.file_type);
  switch (stage) {
    case 'queued':
      return {};
    case 'paused':
      return { status: 'paused', pause_reason: upload.pause_reason };
    case 'processing':
      return { check, status: 'running', staging_check: { status: 'running', info: null } };
    case 'completed':
      return {
        check,
        status: 'passed',
        file_name: upload.file_name,
        file_size: upload.file_size,
        staging_check: { status: 'passed', info: null },
      };
    case 'failed':
      return {
        check,
        status: 'failed',
        message: upload.staging_error,
        staging_check: { status: 'failed', info: upload.staging_error },
      };
  }
}

/** The body of a successful upload (docs/service.md, "Uploads"), as of `now`. */
export function uploadBody(upload: UploadRecord, now: number, step: number): Record<string, unknown> {
  const t = timeline(upload, step);
  const stage = stagingStage(upload, t, now);
  const finished = stage === 'completed' && now >= t.end;
  return {
    staging_id: upload.staging_id,
    staging_stage: stage,
    staging_done: stage === 'completed' || stage === 'failed',
    [upload.kind === 'contract' ? 'extractions_done' : 'processing_done']: finished,
    created_at: upload.created_at,
  };
}

/** `GET /v1/contracts/{staging_id}/processes` (docs/service.md, "Processes"). */
export function contractProcesses(upload: UploadRecord, now: number, step: number): Record<string, unknown> {
  const t = timeline(upload, step);
  const stage = stagingStage(upload, t, now);
  const staged = stage === 'completed';
  const extractions = upload.extractions.map((name, i) => {
    const window = t.extractions[i] as { start: number; end: number };
    const status: ExtractionStatus = now >= window.end ? 'completed' : now >= window.start ? 'processing' : 'pending';
    return { name, status, completed_at: status === 'completed' ? iso(window.end) : null };
  });
  const extractionStage: ExtractionStatus = extractions.every((e) => e.status === 'completed')
    ? 'completed'
    : extractions.some((e) => e.status !== 'pending')
      ? 'processing'
      : 'pending';
  return {
    staging_id: upload.staging_id,
    contract_id: staged && upload.result_id !== undefined ? Number(upload.result_id) : null,
    staging_done: stage === 'completed' || stage === 'failed',
    ...pauseFields({ stage, info: stagingInfo(upload, stage) }),
    extraction_done: staged && extractionStage === 'completed',
    staging_processes: { stage, info: stagingInfo(upload, stage) },
    extraction_processes: staged ? { stage: extractionStage, extractions } : null,
  };
}

/** Statement processing as of now: whether it ended, its status and stage number. */
interface StatementRun {
  done: boolean;
  status: 'processing' | 'completed' | 'failed';
  stage: number;
}

/**
 * A statement's processes in the spec's form (`processing_done`, `processing_processes`) or, with
 * `drift`, in a newer service's: `extraction_done`, `extraction_processes: {stage, step, remarks}`
 * (stage the status, step the stage number), `staging_terminal`, `requires_action`,
 * `available_actions`.
 */
function statementForm(
  ids: { staging_id: number; statement_id: number | null },
  staging: { stage: StagingStage; info: Record<string, unknown> },
  run: StatementRun | null,
  drift: boolean,
): Record<string, unknown> {
  const terminal = staging.stage === 'completed' || staging.stage === 'failed';
  const base = { ...ids, staging_done: terminal, ...pauseFields(staging) };
  if (!drift) {
    return {
      ...base,
      processing_done: run?.done ?? false,
      staging_processes: staging,
      processing_processes: run ? { status: run.status, stage: run.stage, remarks: {} } : null,
    };
  }
  const failed = staging.stage === 'failed' || run?.status === 'failed';
  return {
    ...base,
    // The newer form still carries processing_done: the service's own CLI ends its watch on it.
    processing_done: run?.done ?? false,
    extraction_done: run?.done ?? false,
    staging_processes: staging,
    extraction_processes: run ? { stage: run.status, step: run.stage, remarks: {} } : null,
    staging_terminal: terminal,
    requires_action: failed,
    available_actions: failed ? ['reupload'] : [],
  };
}

/** A paused staging says so the way the deployed service does: why, and that a retry resumes it. */
function pauseFields(staging: { stage: StagingStage; info: Record<string, unknown> }): Record<string, unknown> {
  if (staging.stage !== 'paused') return {};
  return {
    staging_terminal: false,
    requires_action: true,
    available_actions: ['retry'],
    pause_reason: staging.info.pause_reason,
  };
}

/**
 * A processes answer in the deployed service's form (docs/service.md, "Processes"): every flag
 * present, `staging_terminal` once nothing more will happen, `pause_reason` null unless paused,
 * and a contract extraction not started yet `queued`, as the service says it.
 */
export function deployedProcesses(body: Record<string, unknown>): Record<string, unknown> {
  const failed = (body.staging_processes as { stage?: string } | undefined)?.stage === 'failed';
  const extraction = body.extraction_processes as { extractions?: { status: string }[] } | null | undefined;
  const extractions = extraction?.extractions?.map((e) => (e.status === 'pending' ? { ...e, status: 'queued' } : e));
  return {
    ...body,
    ...(extractions && { extraction_processes: { ...extraction, extractions } }),
    staging_terminal: failed || body.extraction_done === true,
    requires_action: body.requires_action ?? failed,
    available_actions: body.available_actions ?? (failed ? ['reupload'] : []),
    pause_reason: body.pause_reason ?? null,
  };
}

/** `GET /v1/statements/{id}/processes` (docs/service.md, "Processes") of an upload. */
export function statementProcesses(
  upload: UploadRecord,
  now: number,
  step: number,
  drift = false,
): Record<string, unknown> {
  const t = timeline(upload, step);
  const stage = stagingStage(upload, t, now);
  const staged = stage === 'completed';
  const done = staged && now >= t.end;
  const processingStage =
    done || step <= 0 ? STATEMENT_STAGES : Math.min(STATEMENT_STAGES, 1 + Math.floor((now - t.stagingEnd) / step));
  return statementForm(
    {
      staging_id: upload.staging_id,
      statement_id: staged && upload.result_id !== undefined ? Number(upload.result_id) : null,
    },
    { stage, info: stagingInfo(upload, stage) },
    staged ? { done, status: done ? 'completed' : 'processing', stage: processingStage } : null,
    drift,
  );
}

/**
 * The processes of a statement that did not come through an upload of this emulator (seeded):
 * it was staged long ago, and its own `processing_status` says whether processing ended.
 */
export function seededStatementProcesses(statement: StatementRecord, drift = false): Record<string, unknown> {
  const status =
    statement.processing_status === 'completed' || statement.processing_status === 'failed'
      ? statement.processing_status
      : 'processing';
  return statementForm(
    { staging_id: stagingIdOf(statement), statement_id: statement.id },
    {
      stage: 'completed',
      info: {
        check: stagingCheck(statement.file_type),
        status: 'passed',
        staging_check: { status: 'passed', info: null },
      },
    },
    { done: status === 'completed', status, stage: status === 'processing' ? 1 : STATEMENT_STAGES },
    drift,
  );
}

/** The include each extraction fills; the other extractions have no include in the spec form. */
const EXTRACTION_INCLUDE: Partial<Record<ExtractionName, ContractInclude>> = {
  'extract-accounting-period': 'accounting-periods',
  'extract-balances': 'balances',
  'extract-compensations': 'compensations',
  'extract-control-areas': 'control-areas',
  'extract-costs': 'costs',
  'extract-creative-approvals': 'creative-approvals',
  'extract-dates': 'dates',
  'extract-language': 'languages',
  'extract-royalties': 'royalties',
  'extract-signatures': 'signatures',
  'extract-splits': 'splits',
};

/**
 * What an extraction "found" in the document: one plausible row, in the shapes the seeded
 * contracts use, stable for a given contract.
 */
function extractedRows(include: ContractInclude, contractId: string, date: string): Record<string, unknown>[] {
  const id = `${include}-${contractId}-1`;
  switch (include) {
    case 'royalties':
      return [{ id, rate: 0.18, type: 'streaming', territory: 'World', basis: 'net receipts' }];
    case 'splits':
      return [{ id, party: 'Artist', share: 50, basis: 'net receipts' }];
    case 'costs':
      return [{ id, type: 'recording costs', amount: 25000, currency: 'USD', recoupable: true }];
    case 'compensations':
      return [{ id, type: 'advance', amount: 10000, currency: 'USD', payable_on: 'signature' }];
    case 'dates':
      return [{ id, type: 'effective', date }];
    case 'accounting-periods':
      return [
        { id, name: 'H1', start: '01-01', end: '06-30', statement_due: '09-30' },
        { id: `${include}-${contractId}-2`, name: 'H2', start: '07-01', end: '12-31', statement_due: '03-31' },
      ];
    case 'signatures':
      return [{ id, party: 'Artist', signatory: 'Artist', title: 'Recording artist', signed_on: date }];
    case 'control-areas':
      return [{ id, territory: 'World', rights: 'masters' }];
    case 'creative-approvals':
      return [{ id, subject: 'artwork', approver: 'mutual', deemed_after_days: 10 }];
    case 'balances':
      return [{ id, type: 'unrecouped balance', amount: 35000, currency: 'USD', as_of: date }];
    case 'languages':
      return [{ id, language: 'en' }];
    default:
      return [];
  }
}

const baseName = (fileName: string): string => fileName.replace(/\.pdf$/i, '').trim();

/** Contract ids are numeric strings (the processes endpoint serves `contract_id` as an integer). */
function nextContractId(state: EmulatorState): string {
  let max = 0;
  for (const data of Object.values(state.data)) {
    for (const contract of data.contracts) {
      const n = Number(contract.id);
      if (Number.isSafeInteger(n) && n > max) max = n;
    }
  }
  return String(max + 1);
}

/** What a statement keeps of its upload's context and folder (docs/service.md). */
function contextFields(upload: UploadRecord): Partial<StatementRecord> {
  const c = upload.context;
  const fields: Partial<StatementRecord> = {
    tags: c?.tags,
    payee: c?.payee,
    payor: c?.payor,
    accounting_period: c?.accountingPeriod?.value,
    target_period: c?.targetPeriod?.value,
    currency_royalty: c?.currencyRoyalty,
    currency_transaction: c?.currencyTransaction,
    folder_name: upload.folder_name,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/**
 * The upload becomes a contract or a statement of its project: once staging completes, or (a
 * statement, with `listedFromUpload`) as soon as its bytes are in, still queued.
 */
function materialize(
  state: EmulatorState,
  data: ProjectData,
  upload: UploadRecord,
  t: Timeline,
  queued: boolean,
): void {
  if (upload.kind === 'contract') {
    const contract: ContractRecord = {
      id: nextContractId(state),
      name: baseName(upload.file_name) || 'Untitled contract',
      project_id: upload.project_id,
      created_at: iso(t.stagingEnd),
      parties: [],
      includes: { entities: [] },
      staging_id: upload.staging_id,
      file_name: upload.file_name,
      file_type: upload.file_type,
      ...(upload.context?.tags && { tags: upload.context.tags }),
    };
    data.contracts.push(contract);
    upload.result_id = contract.id;
    return;
  }
  const statement: StatementRecord = {
    id: state.next_statement_id++,
    file_name: upload.file_name,
    file_type: upload.file_type,
    file_size: upload.file_size,
    upload_status: 'completed',
    processing_status: queued ? 'queued' : 'processing',
    created_at: upload.created_at,
    staging_id: upload.staging_id,
    ...contextFields(upload),
  };
  data.statements.push(statement);
  upload.result_id = statement.id;
}

/** A statement listed while queued goes on to processing once its staging completes. */
function startProcessing(data: ProjectData, upload: UploadRecord): boolean {
  if (upload.kind !== 'statement') return false;
  const statement = data.statements.find((s) => s.id === upload.result_id);
  if (statement?.processing_status !== 'queued') return false;
  statement.processing_status = 'processing';
  return true;
}

/**
 * Everything after staging is done: the extracted includes, or the statement's derived fields.
 * Returns whether anything changed (a state loaded from --data may have it done already).
 */
function finish(data: ProjectData, upload: UploadRecord, t: Timeline): boolean {
  if (upload.kind === 'contract') {
    const contract = data.contracts.find((c) => c.id === upload.result_id);
    const includes = upload.extractions.flatMap((extraction) => EXTRACTION_INCLUDE[extraction] ?? []);
    if (!contract || includes.every((include) => contract.includes[include] !== undefined)) return false;
    for (const include of includes) {
      contract.includes[include] = extractedRows(include, contract.id, contract.created_at.slice(0, 10));
    }
    return true;
  }
  const statement = data.statements.find((s) => s.id === upload.result_id);
  if (!statement || statement.processing_status === 'completed') return false;
  const processedAt = iso(t.end);
  Object.assign(statement, {
    statement_name: baseName(upload.file_name) || `Statement ${statement.id}`,
    statement_type: 'royalty',
    statement_category: 'recording',
    statement_producer: 'Unknown Issuer',
    processing_status: 'completed',
    approval_status: 'pending',
    has_revenues: true,
    has_costs: false,
    has_summary: true,
    currency_transaction: statement.currency_transaction ?? 'USD',
    currency_royalty: statement.currency_royalty ?? 'USD',
    processed_at: processedAt,
    statement_desc: `Processed from ${upload.file_name}`,
    statement_subtype: 'mixed',
    statement_version: 'v1',
    has_summary_lines: true,
    modified_at: processedAt,
  } satisfies Partial<StatementRecord>);
  return true;
}

/** Uploads that may still change something, per state object, so a request does not rescan. */
interface Tracker {
  uploads: UploadRecord[];
  seen: number;
  pending: Set<UploadRecord>;
}
const trackers = new WeakMap<EmulatorState, Tracker>();

function tracker(state: EmulatorState): Tracker {
  let entry = trackers.get(state);
  // A replaced uploads array (state restored from a file) is tracked from scratch.
  if (!entry || entry.uploads !== state.uploads) {
    entry = { uploads: state.uploads, seen: 0, pending: new Set() };
    trackers.set(state, entry);
  }
  for (; entry.seen < state.uploads.length; entry.seen++) {
    const upload = state.uploads[entry.seen] as UploadRecord;
    if (upload.staging_error === undefined) entry.pending.add(upload);
  }
  return entry;
}

/**
 * Applies what the clock says has happened to every unfinished upload: creates the contract or
 * statement when staging completes, fills its extracted data when processing ends. Idempotent.
 * Returns the projects whose data changed and the changes made, for the journal of `--data`.
 */
export function advance(
  state: EmulatorState,
  now: number,
  step: number,
  listedFromUpload = false,
): { changed: Set<ProjectData>; changes: StateChange[] } {
  const changed = new Set<ProjectData>();
  const changes: StateChange[] = [];
  const record = (upload: UploadRecord, data: ProjectData) => {
    changed.add(data);
    const result =
      upload.kind === 'contract'
        ? data.contracts.find((c) => c.id === upload.result_id)
        : data.statements.find((s) => s.id === upload.result_id);
    if (result) {
      changes.push(
        upload.kind === 'contract'
          ? { contract: result as ContractRecord, project: upload.project_id }
          : { statement: result as StatementRecord, project: upload.project_id },
      );
    }
    changes.push({ upload });
  };
  const { pending } = tracker(state);
  for (const upload of pending) {
    if (upload.minted || upload.pause_reason !== undefined) continue;
    const t = timeline(upload, step);
    const early = listedFromUpload && upload.kind === 'statement';
    if (now < t.stagingEnd && !early) continue;
    const data = state.data[upload.project_id];
    if (!data) {
      pending.delete(upload);
      continue;
    }
    let touched = false;
    if (upload.result_id === undefined) {
      materialize(state, data, upload, t, now < t.stagingEnd);
      touched = true;
    }
    if (now >= t.stagingEnd && startProcessing(data, upload)) touched = true;
    if (now >= t.end) {
      if (finish(data, upload, t)) touched = true;
      pending.delete(upload);
    }
    if (touched) record(upload, data);
  }
  if (changes.length > 0) changes.push(countersOf(state));
  return { changed, changes };
}

/**
 * Puts an upload (back) under the clock: one that completed its signed-URL flow or was retried.
 * Changes replace records whole, so the record the tracker holds may be an older copy.
 */
export function track(state: EmulatorState, upload: UploadRecord): void {
  const { pending } = tracker(state);
  for (const held of pending) if (held.staging_id === upload.staging_id) pending.delete(held);
  // One whose staging check failed becomes nothing: no record, as when it was tracked on start.
  if (upload.staging_error === undefined) pending.add(upload);
}

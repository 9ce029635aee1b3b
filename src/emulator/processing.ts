// The upload state machine of docs/service.md, "Processes". An upload's stage is never stored: it is
// derived from the clock (`created_ms` and the step length), so polling, restarts with `--data`
// and slow or fast clocks all agree. The only stored effects are the records an upload becomes
// (upload-records.ts). Here: the timeline, and the upload and processes bodies read from it.
import { stagingCheck } from './staging-check.js';
import { stagingIdOf } from './deployed/statements.js';
import type { StatementRecord, UploadRecord } from './store.js';

type StagingStage = 'queued' | 'processing' | 'completed' | 'failed' | 'paused';
type ExtractionStatus = 'pending' | 'processing' | 'completed';

/** Statement processing runs through these numbered stages, one step each. */
const STATEMENT_STAGES = 3;

/** When each phase of an upload ends, in epoch milliseconds. */
export interface Timeline {
  stagingStart: number;
  stagingEnd: number;
  /** Contract: start and end of each extraction, in request order. */
  extractions: { start: number; end: number }[];
  /** When nothing is left to do: extractions (contract) or processing (statement) done. */
  end: number;
}

export function timeline(upload: UploadRecord, step: number): Timeline {
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

export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * `staging_processes.info`: the spec's flat `{check, status, …}` and, beside it, the deployed
 * service's `staging_check: {status, info}`, which its official client reads for the reason.
 */
function stagingInfo(upload: UploadRecord, stage: StagingStage): Record<string, unknown> {
  // The check that fits the file's format (a CSV is never said to be checked for a PDF trailer).
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

// What a processes object (SPEC 4.10) means, for either kind: running, completed or failed, with
// the lines that say why; and the polling loop shared by `upload --wait` and `status --watch`.
import type { Context } from '../../lib/context.js';
import { DOCUMENT_KINDS, type DocumentKind, type DocumentProcesses } from '../../lib/api/documents.js';
import { InterruptedError, UsageError } from '../../lib/errors.js';
import type { Extraction, StatementProcesses } from '../../lib/schemas.js';

export type Outcome = 'running' | 'completed' | 'failed';

export interface Progress {
  outcome: Outcome;
  stagingId: number;
  stagingStage: string;
  /** The contract or statement the upload became; null until staging completes. */
  resultId: number | null;
  extractions: Extraction[];
  /** Statement processing: its status and stage number, once staging completed. */
  processing: { status: string; stage: number | null } | null;
  /** Why it failed: the staging check's details, failed extractions, processing remarks. */
  failure: string[];
}

/** `extract-royalties` → `royalties`: what the user typed with --extract. */
export const shortExtraction = (name: string): string => name.replace(/^extract-/, '');

function detailLines(info: Record<string, unknown>): string[] {
  return Object.entries(info).map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The staging check's details from either form of `staging_processes.info`: the spec's flat
 * `{check, status, message, …}`, or the deployed `{staging_check: {status, info}}`, whose `info`
 * (the reason) reads as `message`. Flat keys win when a service sends both.
 */
export function stagingCheck(info: Record<string, unknown>): Record<string, unknown> {
  const { staging_check: nested, ...flat } = info;
  if (!isRecord(nested)) return info;
  const { status, info: reason, ...rest } = nested;
  const view: Record<string, unknown> = { ...rest, ...flat };
  if (view.status === undefined && status !== undefined) view.status = status;
  if (view.message === undefined && reason !== undefined && reason !== null) view.message = reason;
  return view;
}

export interface StatementRun {
  status: string;
  stage: number | null;
  remarks: Record<string, unknown>;
}

/** Statement processing from either form: `processing_processes`, or the newer `extraction_processes`. */
export function statementRun(p: StatementProcesses): { run: StatementRun | null; done: boolean } {
  if (p.processing_processes !== undefined || p.extraction_processes === undefined) {
    return { run: p.processing_processes ?? null, done: p.processing_done ?? false };
  }
  const run = p.extraction_processes;
  return {
    run: run && { status: run.stage, stage: run.step ?? null, remarks: run.remarks ?? {} },
    done: p.extraction_done ?? false,
  };
}

export function progressOf(processes: DocumentProcesses): Progress {
  const p = processes.data;
  const staging = p.staging_processes;
  const base = { stagingId: p.staging_id, stagingStage: staging.stage };
  if (staging.stage === 'failed') {
    return {
      ...base,
      outcome: 'failed',
      resultId: null,
      extractions: [],
      processing: null,
      failure: ['the staging check failed', ...detailLines(stagingCheck(staging.info))],
    };
  }
  if (processes.kind === 'contract') {
    const run = processes.data.extraction_processes;
    const extractions = run?.extractions ?? [];
    const failed = extractions.filter((e) => e.status === 'failed');
    const resultId = processes.data.contract_id;
    if (failed.length > 0 || run?.stage === 'failed') {
      return {
        ...base,
        outcome: 'failed',
        resultId,
        extractions,
        processing: null,
        failure: failed.length > 0 ? failed.map((e) => `extraction ${e.name} failed`) : ['extraction failed'],
      };
    }
    const done =
      staging.stage === 'completed' &&
      run !== null &&
      (processes.data.extraction_done || extractions.every((e) => e.status === 'completed'));
    return { ...base, outcome: done ? 'completed' : 'running', resultId, extractions, processing: null, failure: [] };
  }
  const { run, done: processingDone } = statementRun(processes.data);
  const processing = run ? { status: run.status, stage: run.stage } : null;
  const resultId = processes.data.statement_id;
  if (run?.status === 'failed') {
    return {
      ...base,
      outcome: 'failed',
      resultId,
      extractions: [],
      processing,
      failure: ['processing failed', ...detailLines(run.remarks)],
    };
  }
  const done = staging.stage === 'completed' && (processingDone || run?.status === 'completed');
  return { ...base, outcome: done ? 'completed' : 'running', resultId, extractions: [], processing, failure: [] };
}

/** One line for a live display: `staging processing`, `extractions 1/2: royalties ✓ splits …`. */
export function briefOf(kind: DocumentKind, progress: Progress): string {
  const word = kind === 'contract' ? 'contract' : 'statement';
  if (progress.outcome === 'failed') return `failed: ${progress.failure.slice(1).join(', ') || progress.failure[0]}`;
  if (progress.stagingStage !== 'completed') return `staging ${progress.stagingStage}`;
  const parts = [`${word} ${progress.resultId ?? '?'}`];
  if (kind === 'contract') {
    const done = progress.extractions.filter((e) => e.status === 'completed').length;
    const marks = progress.extractions.map((e) => `${shortExtraction(e.name)} ${e.status === 'completed' ? '✓' : e.status === 'processing' ? '…' : '·'}`);
    if (progress.extractions.length > 0) parts.push(`extractions ${done}/${progress.extractions.length}: ${marks.join(' ')}`);
  } else if (progress.processing) {
    const stage = progress.processing.stage === null ? '' : ` (stage ${progress.processing.stage})`;
    parts.push(`processing ${progress.processing.status}${stage}`);
  }
  if (progress.outcome === 'completed') parts.push('completed');
  return parts.join(' · ');
}

/** Ids are whole numbers: anything else is refused before a request. */
export function checkDocumentId(kind: DocumentKind, raw: string): string {
  const id = raw.trim();
  if (!/^\d{1,15}$/.test(id)) {
    const what = kind === 'contract' ? 'staging id' : 'staging or statement id';
    throw new UsageError(`invalid ${what} '${raw}': expected a whole number, like the staging_id an upload printed`);
  }
  return id;
}

export interface WatchOptions {
  intervalMs: number;
  timeoutMs: number;
  onUpdate?(processes: DocumentProcesses, progress: Progress): void;
}

export interface WatchResult {
  processes: DocumentProcesses;
  progress: Progress;
  /** The overall time limit passed while the document was still running. */
  timedOut: boolean;
}

// Polls slow down from --interval to this many times it, so a long wait costs few requests.
const BACKOFF_FACTOR = 1.5;
const MAX_INTERVAL_FACTOR = 5;

/**
 * Polls the processes endpoint until staging and extraction/processing completed or failed, or
 * the time limit passes. Sleeps go through the context's clock (tests skip them) and Ctrl-C cuts
 * them short with an InterruptedError.
 */
export async function watchProcesses(ctx: Context, kind: DocumentKind, projectId: string, id: string, options: WatchOptions): Promise<WatchResult> {
  const started = ctx.clock.now();
  const deadline = started + options.timeoutMs;
  const maxDelay = Math.max(options.intervalMs * MAX_INTERVAL_FACTOR, options.intervalMs);
  let delay = options.intervalMs;
  for (;;) {
    const processes = await ctx.api.documents.processes(kind, projectId, id);
    const progress = progressOf(processes);
    options.onUpdate?.(processes, progress);
    if (progress.outcome !== 'running') return { processes, progress, timedOut: false };
    const left = deadline - ctx.clock.now();
    if (left <= 0) return { processes, progress, timedOut: true };
    await ctx.clock.sleep(Math.min(delay, left), ctx.signal).catch(() => {
      throw new InterruptedError();
    });
    delay = Math.min(delay * BACKOFF_FACTOR, maxDelay);
  }
}

/** The follow-up command for a document, once its staging id (or final id) is known. */
export function statusCommand(kind: DocumentKind, stagingId: number): string {
  return `pds ${DOCUMENT_KINDS[kind].noun} status ${stagingId}`;
}

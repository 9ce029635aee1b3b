// What a processes object (docs/service.md, "Processes") means, for either kind: running, completed or failed, with
// the lines that say why; and the polling loop shared by `upload --wait` and `status --watch`.
import type { Context } from '../../lib/context.js';
import { DOCUMENT_KINDS, type DocumentKind, type DocumentProcesses } from '../../lib/api/documents.js';
import { InterruptedError, UsageError } from '../../lib/errors.js';
import { isPlainObject } from '../../lib/shape.js';
import type { Extraction, StatementProcesses } from '../../lib/schemas.js';

/** `paused`: the service holds the upload until it is retried (a quota); it does not end by waiting. */
export type Outcome = 'running' | 'completed' | 'failed' | 'paused';

export interface Progress {
  outcome: Outcome;
  stagingId: number | string;
  stagingStage: string;
  /** The contract or statement the upload became; null until staging completes. */
  resultId: number | string | null;
  extractions: Extraction[];
  /** Statement processing: its status and stage number, once staging completed. */
  processing: { status: string; stage: number | string | null } | null;
  /** Why it failed or paused: the staging check's details, failed extractions, processing remarks. */
  failure: string[];
}

/** `extract-royalties` → `royalties`: what the user typed with --extract. */
export const shortExtraction = (name: string): string => name.replace(/^extract-/, '');

/** A value of the service's as text for a line: a string as it is, anything else as JSON. */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

function detailLines(info: Record<string, unknown>): string[] {
  return Object.entries(info).map(([key, value]) => `${key}: ${asText(value)}`);
}

/** An id as the service sent it (a number, or a string); null when it sent none or something else. */
const idOf = (value: unknown): number | string | null =>
  typeof value === 'number' || (typeof value === 'string' && value !== '') ? value : null;

/**
 * The staging check's details from either form of `staging_processes.info`: the spec's flat
 * `{check, status, message, …}`, or the deployed `{staging_check: {status, info}}`, whose `info`
 * (the reason) reads as `message`. Flat keys win when a service sends both.
 */
export function stagingCheck(info: unknown): Record<string, unknown> {
  if (!isPlainObject(info)) return {};
  const { staging_check: nested, ...flat } = info;
  if (!isPlainObject(nested)) return info;
  const { status, info: reason, ...rest } = nested;
  const view: Record<string, unknown> = { ...rest, ...flat };
  if (view.status === undefined && status !== undefined) view.status = status;
  if (view.message === undefined && reason !== undefined && reason !== null) view.message = reason;
  return view;
}

export interface StatementRun {
  status: string;
  stage: number | string | null;
  remarks: Record<string, unknown>;
}

/** Statement processing from either form: `processing_processes`, or the newer `extraction_processes`. */
export function statementRun(p: StatementProcesses): { run: StatementRun | null; done: boolean } {
  const seedForm = p.processing_processes !== undefined || p.extraction_processes === undefined;
  const raw = seedForm ? p.processing_processes : p.extraction_processes;
  const done = (seedForm ? p.processing_done : p.extraction_done) === true;
  if (!isPlainObject(raw)) return { run: null, done };
  // The spec's run says its status and a stage number; the deployed one its stage (a word) and step.
  const status = seedForm ? raw.status : raw.stage;
  const stage = seedForm ? raw.stage : raw.step;
  return {
    run: {
      status: typeof status === 'string' ? status : 'unknown',
      stage: typeof stage === 'number' || typeof stage === 'string' ? stage : null,
      remarks: isPlainObject(raw.remarks) ? raw.remarks : {},
    },
    done,
  };
}

/** A contract's extractions as the service listed them; entries that are not objects are left out. */
function extractionsOf(run: unknown): Extraction[] {
  const list = isPlainObject(run) && Array.isArray(run.extractions) ? run.extractions : [];
  return list.filter(isPlainObject).map((e) => ({
    name: typeof e.name === 'string' ? e.name : asText(e.name ?? ''),
    status: typeof e.status === 'string' ? e.status : 'unknown',
    completed_at: typeof e.completed_at === 'string' ? e.completed_at : null,
  }));
}

/**
 * What a processes object means. The staging stage is what it acts on (checked when the answer was
 * read); every other field is read as the service sent it, in either form, and one that is missing or
 * of another type counts as not there yet. `requested` is the id asked for, for a service that
 * leaves the staging id out.
 */
export function progressOf(processes: DocumentProcesses, requested?: number | string): Progress {
  const p = processes.data;
  const staging = p.staging_processes;
  const info = isPlainObject(staging.info) ? staging.info : {};
  const stagingId = idOf(p.staging_id) ?? requested ?? '?';
  const base = { stagingId, stagingStage: staging.stage };
  const noRun = { resultId: null, extractions: [], processing: null };
  // Paused waits for a retry, not for time: a watch that went on would only run out. The deployed
  // service may say so by its pause reason and the retry it offers rather than by the stage.
  const reason = p.pause_reason ?? info.pause_reason;
  const retryOffered = Array.isArray(p.available_actions) && p.available_actions.includes('retry');
  if (staging.stage === 'paused' || (retryOffered && typeof reason === 'string' && reason !== '')) {
    return {
      ...base,
      ...noRun,
      outcome: 'paused',
      failure: [
        'the service paused the upload',
        ...(typeof reason === 'string' ? [reason] : []),
        `resume it with \`pds ${processes.kind}s retry ${stagingId}\``,
      ],
    };
  }
  if (staging.stage === 'failed')
    return {
      ...base,
      ...noRun,
      outcome: 'failed',
      failure: ['the staging check failed', ...detailLines(stagingCheck(staging.info))],
    };
  if (processes.kind === 'contract') {
    const run = processes.data.extraction_processes;
    const extractions = extractionsOf(run);
    const failed = extractions.filter((e) => e.status === 'failed');
    const resultId = idOf(processes.data.contract_id);
    const runStage = isPlainObject(run) ? run.stage : undefined;
    if (failed.length > 0 || runStage === 'failed') {
      const failure = failed.length > 0 ? failed.map((e) => `extraction ${e.name} failed`) : ['extraction failed'];
      return { ...base, outcome: 'failed', resultId, extractions, processing: null, failure };
    }
    const done =
      staging.stage === 'completed' &&
      isPlainObject(run) &&
      (processes.data.extraction_done === true ||
        runStage === 'completed' ||
        (extractions.length > 0 && extractions.every((e) => e.status === 'completed')));
    return { ...base, outcome: done ? 'completed' : 'running', resultId, extractions, processing: null, failure: [] };
  }
  const { run, done: processingDone } = statementRun(processes.data);
  const processing = run ? { status: run.status, stage: run.stage } : null;
  const resultId = idOf(processes.data.statement_id);
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
  if (progress.outcome === 'failed' || progress.outcome === 'paused')
    return `${progress.outcome}: ${progress.failure.slice(1).join(', ') || progress.failure[0]}`;
  if (progress.stagingStage !== 'completed') return `staging ${progress.stagingStage}`;
  const parts = [`${word} ${progress.resultId ?? '?'}`];
  if (kind === 'contract') {
    const done = progress.extractions.filter((e) => e.status === 'completed').length;
    const marks = progress.extractions.map(
      (e) => `${shortExtraction(e.name)} ${e.status === 'completed' ? '✓' : e.status === 'processing' ? '…' : '·'}`,
    );
    if (progress.extractions.length > 0)
      parts.push(`extractions ${done}/${progress.extractions.length}: ${marks.join(' ')}`);
  } else if (progress.processing) {
    const stage = progress.processing.stage === null ? '' : ` (stage ${progress.processing.stage})`;
    // "processing processing" said nothing twice: the status alone when it is the word itself.
    const status =
      progress.processing.status === 'processing' ? 'processing' : `processing ${progress.processing.status}`;
    parts.push(`${status}${stage}`);
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
export async function watchProcesses(
  ctx: Context,
  kind: DocumentKind,
  projectId: string,
  id: string,
  options: WatchOptions,
): Promise<WatchResult> {
  const started = ctx.clock.now();
  const deadline = started + options.timeoutMs;
  const maxDelay = Math.max(options.intervalMs * MAX_INTERVAL_FACTOR, options.intervalMs);
  let delay = options.intervalMs;
  for (;;) {
    const processes = await ctx.api.documents.processes(kind, projectId, id);
    const progress = progressOf(processes, id);
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
export function statusCommand(kind: DocumentKind, stagingId: number | string): string {
  return `pds ${DOCUMENT_KINDS[kind].noun} status ${stagingId}`;
}

// `pds contracts status <staging-id...>` and `pds statements status <staging-or-statement-id...>`:
// each id in the order given, one block each; the exit code is the worst of them.
import type { Context } from '../../lib/context.js';
import type { DocumentKind, DocumentProcesses } from '../../lib/api/documents.js';
import { ExitCode, InterruptedError, PdsError, ProcessingFailedError, asPdsError } from '../../lib/errors.js';
import { errorText } from '../../lib/error-report.js';
import {
  briefOf,
  checkDocumentId,
  progressOf,
  stagingCheck,
  statementRun,
  statusCommand,
  watchProcesses,
  type Progress,
} from './processes.js';
import type { StatusOptions } from './definitions.js';
import { errorRow, STATUS_COLUMNS, statusLines, statusRow } from './status-view.js';
import { safeText } from '../../lib/output/text.js';
import { loadCells } from '../../lib/output/cells.js';
import { wrapProse } from '../../lib/output/table-layout.js';

type Options = StatusOptions;

/** What became of one id: its processes read (and watched), or the error that stopped it. */
interface Looked {
  id: string;
  processes?: DocumentProcesses;
  progress?: Progress;
  error?: PdsError;
}

export async function run(opts: Options, ctx: Context): Promise<number> {
  const kind: DocumentKind = opts.kind;
  // Every id is checked before the first request: a typo costs nothing.
  const ids = opts.args[0].map((raw) => checkDocumentId(kind, raw));
  const projectId = ctx.project();
  const looked = opts.watch ? await watchAll(ctx, opts, ids, projectId) : await lookAll(ctx, kind, ids, projectId);
  if (ctx.signal.aborted) throw new InterruptedError();
  if (opts.failPending) for (const one of looked) one.error ??= pendingProblem(kind, one);
  if (looked.length === 1) {
    const [only] = looked as [Looked];
    if (only.processes) await show(ctx, only.processes, only.progress as Progress);
    if (only.error) throw only.error;
    return exitOf(only);
  }
  if (
    await ctx.output.asData(
      looked.map((one) => one.processes?.data ?? { id: one.id, error: errorData(one.error as PdsError) }),
    )
  ) {
    return Math.max(...looked.map(exitOf));
  }
  if (ctx.output.mode === 'table') {
    await showTable(ctx, kind, looked);
    return Math.max(...looked.map(exitOf));
  }
  let first = true;
  for (const one of looked) {
    if (!first && ctx.output.mode !== 'ids') ctx.output.write('\n');
    first = false;
    if (one.processes) await show(ctx, one.processes, one.progress as Progress);
    if (one.error) sayError(ctx, kind, one.id, one.error);
  }
  return Math.max(...looked.map(exitOf));
}

async function lookAll(ctx: Context, kind: DocumentKind, ids: string[], projectId: string): Promise<Looked[]> {
  const looked: Looked[] = [];
  for (const id of ids) {
    try {
      const processes = await ctx.api.documents.processes(kind, projectId, id);
      looked.push({ id, processes, progress: progressOf(processes, id) });
    } catch (error) {
      if (ctx.signal.aborted || error instanceof InterruptedError) throw new InterruptedError();
      looked.push({ id, error: asPdsError(error) });
    }
  }
  return looked;
}

/** --watch: every id polled at once until each completed, failed, paused or ran out of time. */
async function watchAll(ctx: Context, opts: Options, ids: string[], projectId: string): Promise<Looked[]> {
  const kind = opts.kind;
  const briefs = new Map(ids.map((id) => [id, 'checking']));
  const spinner = await ctx.output.spinner(spinnerText(kind, briefs));
  try {
    return await Promise.all(
      ids.map(async (id): Promise<Looked> => {
        try {
          const result = await watchProcesses(ctx, kind, projectId, id, {
            intervalMs: opts.interval * 1000,
            timeoutMs: opts.waitTimeout * 1000,
            onUpdate: (_processes, progress) => {
              briefs.set(id, briefOf(kind, progress));
              spinner.update(spinnerText(kind, briefs));
            },
          });
          const looked: Looked = { id, processes: result.processes, progress: result.progress };
          const problem = watchProblem(kind, id, result.progress, result.timedOut, opts.waitTimeout);
          return problem ? { ...looked, error: problem } : looked;
        } catch (error) {
          if (ctx.signal.aborted || error instanceof InterruptedError) throw new InterruptedError();
          return { id, error: asPdsError(error) };
        }
      }),
    );
  } finally {
    spinner.stop();
  }
}

function spinnerText(kind: DocumentKind, briefs: Map<string, string>): string {
  return [...briefs].map(([id, brief]) => `${kind} upload ${id}: ${brief}`).join('; ');
}

/** How a watch ended, if not well: failed or paused (exit 7), or still running at the limit (exit 1). */
function watchProblem(
  kind: DocumentKind,
  id: string,
  progress: Progress,
  timedOut: boolean,
  waitTimeout: number,
): PdsError | undefined {
  if (progress.outcome === 'failed')
    return new ProcessingFailedError(`${kind} upload ${id} failed`, { details: progress.failure });
  if (progress.outcome === 'paused')
    return new ProcessingFailedError(`${kind} upload ${id} is paused`, { details: progress.failure.slice(1) });
  if (timedOut) {
    return new PdsError(`${kind} upload ${id} is still running after ${waitTimeout} s`, {
      details: [`check again with \`${statusCommand(kind, progress.stagingId)}\`, or raise --wait-timeout`],
    });
  }
  return undefined;
}

/** --fail-pending: an upload not processed yet fails the gate (still running: 1; paused: 7). */
function pendingProblem(kind: DocumentKind, one: Looked): PdsError | undefined {
  const outcome = one.progress?.outcome;
  if (outcome === undefined || outcome === 'completed' || outcome === 'failed') return undefined;
  const id = one.progress?.stagingId ?? one.id;
  if (outcome === 'paused')
    return new ProcessingFailedError(`${kind} upload ${one.id} is paused (--fail-pending)`, {
      details: one.progress?.failure.slice(1) ?? [],
    });
  return new PdsError(`${kind} upload ${one.id} is not processed yet: ${outcome} (--fail-pending)`, {
    details: [`wait for it with \`${statusCommand(kind, id)} --watch\``],
  });
}

/** An id whose upload failed is exit 7, watched or not: a status step is a gate a job can rely on. */
const exitOf = (one: Looked): number =>
  one.error?.exitCode ?? (one.progress?.outcome === 'failed' ? ExitCode.processingFailed : ExitCode.ok);

const errorData = (error: PdsError): Record<string, unknown> => ({
  message: error.message,
  ...(error.status === undefined ? {} : { status: error.status }),
});

/**
 * `--json`: the processes object as the service sent it; on a terminal its steps with their marks;
 * piped, a record of `field<TAB>value` lines a script reads.
 */
async function show(ctx: Context, processes: DocumentProcesses, progress: Progress): Promise<void> {
  if (await ctx.output.asData(processes.data)) return;
  if (ctx.output.mode === 'table' && ctx.output.fields === undefined) {
    // A reason wraps at word boundaries under its step, indented.
    const cells = await loadCells();
    const lines = statusLines(processes.kind, processes, progress).flatMap((line) =>
      line.startsWith('  ')
        ? wrapProse(cells, safeText(line.trim()), ctx.io.columns - 2).map((part) => `  ${part}`)
        : [safeText(line)],
    );
    ctx.output.write(lines.map((line) => `${line}\n`).join(''));
    return;
  }
  await ctx.output.record(statusView(processes, progress), 'state');
}

/** Several ids on a terminal: a table, a row each; an id that could not be read says why in its row. */
async function showTable(ctx: Context, kind: DocumentKind, looked: Looked[]): Promise<void> {
  const rows = looked.map((one) =>
    one.processes
      ? statusRow(kind, one.processes, one.progress as Progress)
      : errorRow(one.id, (one.error as PdsError).message),
  );
  ctx.output.write(await ctx.output.tableOf(STATUS_COLUMNS, rows));
  for (const one of looked)
    if (one.error && (one.error.details.length > 0 || one.error.requestId)) sayError(ctx, kind, one.id, one.error);
}

/** An id's error on stderr as the CLI says any error, named by its kind and id (its details, its request id). */
function sayError(ctx: Context, kind: DocumentKind, id: string, error: PdsError): void {
  const report = {
    message: `${kind} ${id}: ${error.message}`,
    details: error.details,
    ...(error.requestId ? { requestId: error.requestId } : {}),
  };
  ctx.io.stderr.write(errorText(report, false));
}

/**
 * The fields a person reads: the overall state first, then the stages, the staging check's
 * details (which say why a staging failed), and the extraction table with completion times.
 */
export function statusView(processes: DocumentProcesses, progress: Progress): Record<string, unknown> {
  const p = processes.data;
  const view: Record<string, unknown> = {
    state: progress.outcome,
    staging_id: progress.stagingId,
    staging_stage: p.staging_processes.stage,
  };
  for (const [key, value] of Object.entries(stagingCheck(p.staging_processes.info)))
    view[`staging_check.${key}`] = value;
  if (progress.outcome === 'paused') view.paused = progress.failure.slice(1).join('; ');
  if (processes.kind === 'contract') {
    const run = processes.data.extraction_processes as { stage?: unknown } | null | undefined;
    view.contract_id = progress.resultId;
    view.extraction_stage = typeof run?.stage === 'string' ? run.stage : null;
    if (progress.extractions.length > 0)
      view.extractions = progress.extractions.map((e) => ({
        name: e.name,
        status: e.status,
        completed_at: e.completed_at,
      }));
  } else {
    const { run } = statementRun(processes.data);
    view.statement_id = progress.resultId;
    view.processing_status = run?.status ?? null;
    view.processing_stage = run?.stage ?? null;
    if (run && Object.keys(run.remarks).length > 0) view.processing_remarks = run.remarks;
  }
  return view;
}

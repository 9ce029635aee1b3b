// `pds contracts status <staging-id>` and `pds statements status <staging-or-statement-id>`.
import type { Context } from '../../lib/context.js';
import type { DocumentKind, DocumentProcesses } from '../../lib/api/documents.js';
import { PdsError, ProcessingFailedError } from '../../lib/errors.js';
import { briefOf, checkDocumentId, progressOf, stagingCheck, statementRun, statusCommand, watchProcesses, type Progress } from './processes.js';
import type { StatusOptions } from './index.js';

type Options = StatusOptions;

export async function run(opts: Options, ctx: Context): Promise<number> {
  const kind: DocumentKind = opts.kind;
  const id = checkDocumentId(kind, opts.args[0]);
  const projectId = ctx.project();
  if (!opts.watch) {
    const processes = await ctx.api.documents.processes(kind, projectId, id);
    await show(ctx, processes, progressOf(processes));
    return 0;
  }
  const spinner = await ctx.output.spinner(`${kind} upload ${id}: checking`);
  let result;
  try {
    result = await watchProcesses(ctx, kind, projectId, id, {
      intervalMs: opts.interval * 1000,
      timeoutMs: opts.waitTimeout * 1000,
      onUpdate: (_processes, progress) => spinner.update(`${kind} upload ${id}: ${briefOf(kind, progress)}`),
    });
  } finally {
    spinner.stop();
  }
  await show(ctx, result.processes, result.progress);
  if (result.progress.outcome === 'failed') {
    throw new ProcessingFailedError(`${kind} upload ${id} failed`, { details: result.progress.failure });
  }
  if (result.timedOut) {
    throw new PdsError(`${kind} upload ${id} is still running after ${opts.waitTimeout} s`, {
      details: [`check again with \`${statusCommand(kind, result.progress.stagingId)}\`, or raise --wait-timeout`],
    });
  }
  return 0;
}

/** `--json`: the processes object as the service sent it; otherwise a readable record. */
async function show(ctx: Context, processes: DocumentProcesses, progress: Progress): Promise<void> {
  if (ctx.settings.json) {
    ctx.output.json(processes.data);
    return;
  }
  await ctx.output.record(statusView(processes, progress), 'state');
}

/**
 * The fields a person reads: the overall state first, then the stages, the staging check's
 * details (which say why a staging failed), and the extraction table with completion times.
 */
export function statusView(processes: DocumentProcesses, progress: Progress): Record<string, unknown> {
  const p = processes.data;
  const view: Record<string, unknown> = {
    state: progress.outcome,
    staging_id: p.staging_id,
    staging_stage: p.staging_processes.stage,
  };
  for (const [key, value] of Object.entries(stagingCheck(p.staging_processes.info))) view[`staging_check.${key}`] = value;
  if (processes.kind === 'contract') {
    const run = processes.data.extraction_processes;
    view.contract_id = processes.data.contract_id;
    view.extraction_stage = run?.stage ?? null;
    if (run && run.extractions.length > 0) {
      view.extractions = run.extractions.map((e) => ({ name: e.name, status: e.status, completed_at: e.completed_at }));
    }
  } else {
    const { run } = statementRun(processes.data);
    view.statement_id = processes.data.statement_id;
    view.processing_status = run?.status ?? null;
    view.processing_stage = run?.stage ?? null;
    if (run && Object.keys(run.remarks).length > 0) view.processing_remarks = run.remarks;
  }
  return view;
}

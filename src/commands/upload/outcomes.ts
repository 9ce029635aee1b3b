// What `pds upload` reports of a batch: the data on stdout (or a dry run's plan), the counts,
// the summary line, each file's line in the CI reports, and the exit code.
import { basename } from 'node:path';
import type { Context } from '../../lib/context.js';
import type { ColumnFit } from '../../lib/output/table-layout.js';
import { DOCUMENT_KINDS, type DocumentKind, type UploadRecord } from '../../lib/api/documents.js';
import { ExitCode, InterruptedError, type PdsError } from '../../lib/errors.js';
import { inLogGroup } from '../../lib/io.js';
import {
  isPaused,
  label,
  retriedText,
  retryCommand,
  waitProblem,
  type UploadEntry as Entry,
} from '../documents/upload-display.js';
import type { Counts, FileReport } from '../../lib/ci/report.js';
import { formatBytes, safeText } from '../../lib/output/text.js';
import { statusCommand } from '../documents/processes.js';

/** stdout: a record a file in a data format (--json, --format csv…), staging ids for -q, a table on a terminal, TSV when piped. */
export async function printResults(
  ctx: Context,
  kind: DocumentKind,
  entries: Entry[],
  wait: boolean,
  waitTimeout: number,
  contextGiven: boolean,
): Promise<void> {
  const output = ctx.output;
  if (await output.asData(entries.map((entry) => jsonEntry(entry, kind, waitTimeout, false)))) return;
  const uploaded = entries.filter((e) => e.upload);
  if (output.mode === 'ids') {
    for (const entry of uploaded) output.write(`${(entry.upload as UploadRecord).staging_id}\n`);
    return;
  }
  const idHeader = kind === 'contract' ? 'CONTRACT_ID' : 'STATEMENT_ID';
  // When context was sent, the signed-URL flow's answer says whether the service applied it.
  const contextShown =
    contextGiven &&
    uploaded.some((entry) => typeof (entry.upload as Record<string, unknown>).context_applied === 'boolean');
  const contextCell = (entry: Entry): string[] => {
    if (!contextShown) return [];
    const applied = (entry.upload as Record<string, unknown>).context_applied;
    return [applied === true ? 'applied' : applied === false ? 'none' : ''];
  };
  const headers = [
    ...(wait ? ['FILE', 'STAGING_ID', 'STAGE', 'STATE', idHeader] : ['FILE', 'STAGING_ID', 'STAGE']),
    ...(contextShown ? ['CONTEXT'] : []),
  ];
  const cells = uploaded.map((entry) => {
    const upload = entry.upload as UploadRecord;
    const row = [entry.file.arg, String(upload.staging_id)];
    if (!wait) return [...row, upload.staging_stage];
    const progress = entry.watched?.progress;
    // A paused upload is not watched (it waits for a retry): its state is the service's word for it.
    const state = progress?.outcome ?? (isPaused(upload) ? 'paused' : 'unknown');
    return [...row, progress?.stagingStage ?? upload.staging_stage, state, String(progress?.resultId ?? '')];
  });
  const rows = cells.map((row, i) => [...row, ...contextCell(uploaded[i] as Entry)]);
  if (rows.length === 0) return;
  if (output.mode === 'tsv') {
    output.write(`${headers.join('\t')}\n`);
    for (const row of rows) output.write(`${row.map(safeText).join('\t')}\n`);
    return;
  }
  const next = uploaded.map((entry) => nextCommand(entry, kind));
  // The file, the ids and the next command are for copying: never cut (the command moves below the
  // table when a row cannot hold it). The file shows its base name (the lines above named its path);
  // after a wait the staging stage is a detail beside the outcome, dropped first.
  const fits: ColumnFit[] = [
    ...(wait ? ['copy', 'copy', 'extra', 'text', 'copy'] : ['copy', 'copy', 'text']),
    ...(contextShown ? ['text'] : []),
    'command',
  ] as ColumnFit[];
  const table = await output.table(
    [...headers.map((h) => h.replace(/_/g, ' ')), 'NEXT'],
    rows.map((row, i) => [basename(row[0] ?? ''), ...row.slice(1), next[i] ?? '']),
    '',
    fits,
  );
  // A CI log (the action asks for the table) folds a long one, as it folds the per-file lines on stderr.
  if (rows.length > 10)
    await inLogGroup(output.io.stdout, `pds upload ${kind}: ${rows.length} files uploaded`, () => output.write(table));
  else output.write(table);
}

/** What to run next: the status command, or the document itself once it completed. */
export function nextCommand(entry: Entry, kind: DocumentKind): string {
  const upload = entry.upload as UploadRecord;
  const progress = entry.watched?.progress;
  if (isPaused(upload)) return retryCommand(kind, upload.staging_id);
  if (progress?.outcome === 'completed' && progress.resultId !== null)
    return `pds ${DOCUMENT_KINDS[kind].noun} get ${progress.resultId}`;
  return statusCommand(kind, upload.staging_id);
}

export function jsonEntry(
  entry: Entry,
  kind: DocumentKind,
  waitTimeout: number,
  dryRun: boolean,
): Record<string, unknown> {
  const result: Record<string, unknown> = { file: entry.file.arg };
  if (dryRun)
    result.would = entry.error ? 'fail' : entry.skipped ? 'skip' : entry.retried !== undefined ? 'retry' : 'upload';
  if (entry.skipped) {
    result.skipped = true;
    if (entry.skipped.id !== '') result.id = entry.skipped.id;
  }
  if (entry.sameAs !== undefined) result.same_as = entry.sameAs;
  if (entry.unsupported !== undefined) result.unsupported = entry.unsupported;
  if (entry.changed) {
    result.changed = true;
    result.why = entry.changed;
  }
  if (entry.retried !== undefined) {
    result.retried = entry.retried;
    result.decision = retriedText(entry.retried);
  }
  if (entry.notStarted) {
    result.not_started = true;
    result.error = { message: entry.notStarted };
  }
  if (entry.upload) result.upload = entry.upload;
  if (entry.watched) result.processes = entry.watched.processes.data;
  const problem = entry.error ?? waitProblem(entry, kind, waitTimeout);
  if (problem) {
    const error: Record<string, unknown> = { message: problem.message };
    if (problem.status !== undefined) error.status = problem.status;
    if (problem.details.length > 0) error.details = problem.details;
    result.error = error;
  }
  return result;
}

/** A dry run's data: what each file would do. */
export function printPlan(ctx: Context, kind: DocumentKind, entries: Entry[]): void {
  const output = ctx.output;
  if (output.mode === 'json') {
    output.json(entries.map((entry) => jsonEntry(entry, kind, 0, true)));
    return;
  }
  for (const entry of entries) {
    const name = label(entry.file);
    if (output.mode === 'ids') {
      if (!entry.error && !entry.skipped) output.write(`${safeText(name)}\n`);
    } else if (entry.error) output.write(`would fail: ${safeText(`${name}: ${entry.error.message}`)}\n`);
    else if (entry.sameAs !== undefined)
      output.write(`would skip ${safeText(`${name}: the same file as ${entry.sameAs}`)}\n`);
    else if (entry.unsupported !== undefined) output.write(`would skip ${safeText(`${name}: ${entry.unsupported}`)}\n`);
    else if (entry.skipped)
      output.write(`would skip ${safeText(`${name}: already uploaded (${entry.skipped.label})`)}\n`);
    else if (entry.retried !== undefined)
      output.write(`would retry the paused upload of ${safeText(name)} (staging id ${entry.retried})\n`);
    else
      output.write(
        `would upload ${safeText(name)} (${formatBytes(entry.file.size)}${entry.changed ? `, ${entry.changed}` : ''})\n`,
      );
  }
}

/** The outcome of an upload's processing, when it was waited for. */
export const processing = (entry: Entry): string | undefined =>
  entry.watched?.timedOut ? 'running' : entry.watched?.progress.outcome;

/**
 * A file that failed: not uploaded (a local check, the upload, or not started: a stop left it), its processing failed, or (--wait)
 * it did not complete: paused by the service, still running at --wait-timeout, or its status could
 * not be read. A stop (Ctrl-C, SIGTERM) during the wait is none of these: the file went.
 */
export const failedFile = (entry: Entry): boolean =>
  (!entry.upload && entry.error !== undefined) ||
  entry.notStarted !== undefined ||
  processing(entry) === 'failed' ||
  processing(entry) === 'running' ||
  (entry.upload !== undefined && entry.error !== undefined && !(entry.error instanceof InterruptedError));

/** Every file is one of uploaded, skipped or failed: an upload that failed counts as failed only. */
export function counts(entries: Entry[], wait: boolean): Counts {
  return {
    uploaded: entries.filter((e) => e.upload && !failedFile(e)).length,
    skipped: entries.filter((e) => e.skipped).length,
    failed: entries.filter(failedFile).length,
    ...(wait
      ? {
          processed: entries.filter((e) => processing(e) === 'completed').length,
          processingFailed: entries.filter((e) => processing(e) === 'failed').length,
        }
      : {}),
  };
}

/** `12 uploaded, 30 skipped, 1 failed`, with what --fail-fast left and what --wait saw. */
export function summary(entries: Entry[], wait: boolean, dryRun: boolean): string {
  const { uploaded, skipped, failed, processed, processingFailed } = counts(entries, wait);
  const same = entries.filter((e) => e.sameAs !== undefined).length;
  const sameText = same > 0 ? ` (${same} the same file as another)` : '';
  if (dryRun) {
    const wouldFail = entries.filter((e) => e.error).length;
    return `dry run: ${entries.length - skipped - wouldFail} would upload, ${skipped} would skip${sameText}, ${wouldFail} would fail`;
  }
  // A file a stop (--fail-fast, a signal) left is failed: the three counts add up to the files.
  const notStarted = entries.filter((e) => e.notStarted).length;
  let text = `${uploaded} uploaded, ${skipped} skipped${sameText}, ${failed} failed${notStarted > 0 ? ` (${notStarted} not started)` : ''}`;
  if (wait) {
    const paused = entries.filter((e) => processing(e) === 'paused' || (!e.watched && isPaused(e.upload))).length;
    const running = entries.filter((e) => processing(e) === 'running').length;
    const waitParts = [`${processed} processed`];
    if (processingFailed) waitParts.push(`${processingFailed} failed processing`);
    if (paused > 0) waitParts.push(`${paused} paused`);
    if (running > 0) waitParts.push(`${running} still running`);
    text += `; ${waitParts.join(', ')}`;
  }
  return text;
}

/** One file's line in the CI reports. */
export function fileReport(entry: Entry, kind: DocumentKind, waitTimeout: number, dryRun: boolean): FileReport {
  const problem = entry.error ?? waitProblem(entry, kind, waitTimeout);
  const reason = problem ? [problem.message, ...problem.details].join('\n') : undefined;
  const base = { path: entry.file.arg, ...(entry.ms === undefined ? {} : { ms: entry.ms }) };
  if (entry.upload) {
    const stagingId = String(entry.upload.staging_id);
    const resultId = entry.watched?.progress.resultId;
    const outcome = processing(entry);
    return {
      ...base,
      outcome:
        outcome === 'failed'
          ? 'processing failed'
          : failedFile(entry)
            ? 'failed'
            : outcome === 'completed'
              ? 'processed'
              : 'uploaded',
      record:
        outcome === 'completed' && resultId !== null && resultId !== undefined
          ? `${kind} ${resultId} (staging id ${stagingId})`
          : `staging id ${stagingId}`,
      stagingId,
      ...(outcome === 'completed' && resultId !== null && resultId !== undefined ? { resultId: String(resultId) } : {}),
      ...(reason ? { reason } : {}),
    };
  }
  if (entry.skipped)
    return {
      ...base,
      outcome: dryRun ? 'would skip' : 'skipped',
      record: entry.skipped.label,
      reason:
        entry.sameAs !== undefined || entry.unsupported !== undefined
          ? entry.skipped.label
          : `already uploaded (${entry.skipped.label})`,
    };
  if (entry.error) return { ...base, outcome: dryRun ? 'would fail' : 'failed', reason: reason as string };
  if (entry.notStarted) return { ...base, outcome: 'failed', reason: entry.notStarted, notStarted: true };
  return { ...base, outcome: 'would upload' };
}

/**
 * Upload failures first (a single file, or a batch that failed all alike, keeps the error's own
 * code: 2 for a refused file, 4 for a forbidden project…; a mixed batch is 1); then processing
 * failures (7); then waits that ran out or could not poll (1).
 */
export function exitCode(entries: Entry[]): number {
  // A skipped file (and a dry run's would-be upload) is fine; a file --fail-fast did not start is
  // not (the batch is incomplete).
  const notUploaded = entries.filter((e) => !e.upload && e.error);
  const notStarted = entries.filter((e) => e.notStarted).length;
  if (notUploaded.length > 0) {
    const codes = new Set(notUploaded.map((e) => (e.error as PdsError).exitCode));
    if (notUploaded.length + notStarted === entries.length && codes.size === 1) return [...codes][0] as number;
    // Only rate limits failed: a re-run later sends the rest (exit 6 says so to a CI job).
    if (codes.size === 1 && codes.has(ExitCode.rateLimited)) return ExitCode.rateLimited;
    return ExitCode.failure;
  }
  const stopped = (e: Entry) =>
    e.watched?.progress.outcome === 'failed' ||
    e.watched?.progress.outcome === 'paused' ||
    e.error?.exitCode === ExitCode.processingFailed;
  if (entries.some(stopped)) return ExitCode.processingFailed;
  if (entries.some((e) => e.error || e.watched?.timedOut)) return ExitCode.failure;
  return ExitCode.ok;
}

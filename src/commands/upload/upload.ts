// `pds upload contract|statement <files...>`: check every file, upload them a few at a time, and
// optionally wait for processing. One module for both kinds; `kind` comes from the registration.
import { basename } from 'node:path';
import { addAbortSignal } from 'node:stream';
import type { Context } from '../../lib/context.js';
import type { ColumnFit } from '../../lib/output.js';
import { DOCUMENT_KINDS, receivedHint, type DocumentKind, type UploadRecord } from '../../lib/api/documents.js';
import { ExitCode, InterruptedError, PdsError, ServiceError, UsageError } from '../../lib/errors.js';
import { EXTRACTIONS } from '../../lib/schemas.js';
import { LocalFileError, checkFile, readStdin, type LocalUpload } from '../../lib/upload.js';
import { commaList } from '../../lib/verb-options.js';
import { UploadDisplay, label, waitProblem, type UploadEntry as Entry } from '../documents/upload-display.js';
import { pool } from '../../lib/pool.js';
import { safeText } from '../../lib/text.js';
import { shortExtraction, statusCommand, watchProcesses } from '../documents/processes.js';
import type { UploadOptions } from './index.js';

type Options = UploadOptions;

/** Local checks open files; this many at once is plenty and stays far from the fd limit. */
const CHECK_CONCURRENCY = 16;

export async function run(opts: Options, ctx: Context): Promise<number> {
  const kind: DocumentKind = opts.kind;
  const extractions = extractionNames(opts.extract);
  const args = checkArgs(opts, ctx);
  const projectId = ctx.project();
  const api = ctx.api.documents; // fails now (exit 3) when there is no token, before stdin is read

  const files = await checkAll(args, opts.fileName, ctx);
  const entries: Entry[] = files.map((file) => ({ file, sending: false, sent: 0, total: file.size }));
  const view = await UploadDisplay.create(ctx, kind, Boolean(opts.wait), opts.waitTimeout);
  for (const entry of entries) view.queued(entry);

  const waits: Promise<void>[] = [];
  try {
    await pool(entries, opts.concurrency, ctx.signal, async (entry) => {
      try {
        entry.upload = await api.upload(kind, projectId, entry.file, {
          ...(extractions ? { extractions } : {}),
          idleTimeoutMs: ctx.settings.timeoutMs,
          onBytes: (sent, total) => {
            entry.sending = true;
            entry.sent = sent;
            entry.total = total;
            view.progress(entry);
          },
          onProgress: (event) => {
            entry.servicePercent = event.percent;
            view.progress(entry);
          },
        });
      } catch (error) {
        entry.error = ctx.signal.aborted ? new InterruptedError() : asPdsError(error);
        view.finished(entry);
        return;
      }
      if (!opts.wait) {
        view.finished(entry);
        return;
      }
      view.watching(entry, undefined);
      // The wait does not hold an upload slot: polling is cheap, uploads are not.
      waits.push(waitFor(entry, kind, projectId, opts, ctx, view));
    });
    await Promise.all(waits);
  } finally {
    view.close();
  }

  if (ctx.signal.aborted) {
    const inFlight = entries.filter((e) => e.sending && !e.upload);
    for (const entry of inFlight) ctx.output.warn(`the upload of ${label(entry.file)} was interrupted; ${receivedHint(kind)}`);
    // Ctrl-C stopped the waiting, not the work: the service goes on processing what it accepted.
    const accepted = entries.filter((e) => e.upload && e.error instanceof InterruptedError);
    for (const entry of accepted) {
      const id = (entry.upload as UploadRecord).staging_id;
      ctx.output.warn(`${label(entry.file)} was uploaded (staging id ${id}); processing goes on in the service: follow it with \`${statusCommand(kind, id)}\``);
    }
    throw new InterruptedError();
  }
  view.errors(entries);
  await printResults(ctx, kind, entries, Boolean(opts.wait), opts.waitTimeout);
  if (entries.length > 1) ctx.output.info(summary(entries, Boolean(opts.wait)));
  return exitCode(entries);
}

async function waitFor(entry: Entry, kind: DocumentKind, projectId: string, opts: Options, ctx: Context, view: UploadDisplay): Promise<void> {
  const upload = entry.upload as UploadRecord;
  try {
    entry.watched = await watchProcesses(ctx, kind, projectId, String(upload.staging_id), {
      intervalMs: opts.interval * 1000,
      timeoutMs: opts.waitTimeout * 1000,
      onUpdate: (_processes, progress) => view.watching(entry, progress),
    });
  } catch (error) {
    // Recorded, never thrown: this promise is awaited only once every upload has been started, and
    // a rejection before then would be unhandled. run() turns an interruption into exit 130.
    if (error instanceof InterruptedError || ctx.signal.aborted) {
      entry.error = new InterruptedError();
      return;
    }
    const cause = asPdsError(error);
    entry.error = new ServiceError(`uploaded as staging id ${upload.staging_id}, but its status could not be read: ${cause.message}`, {
      details: [...cause.details, `follow it with \`${statusCommand(kind, upload.staging_id)}\``],
      ...(cause.status === undefined ? {} : { status: cause.status }),
    });
  }
  view.finished(entry);
}

/** `--extract royalties,extract-splits --extract dates` → the spec's full names, checked. */
export function extractionNames(values: string[] | undefined): string[] | undefined {
  const given = commaList(values);
  if (given.length === 0) return undefined;
  const names: string[] = [];
  const unknown: string[] = [];
  for (const raw of given) {
    const lower = raw.toLowerCase();
    const name = lower.startsWith('extract-') ? lower : `extract-${lower}`;
    if (!(EXTRACTIONS as readonly string[]).includes(name)) unknown.push(raw);
    else if (!names.includes(name)) names.push(name);
  }
  if (unknown.length > 0) {
    throw new UsageError(`unknown extraction${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')}`, {
      details: [`valid extractions: ${EXTRACTIONS.map(shortExtraction).join(', ')} (with or without the extract- prefix)`],
    });
  }
  return names;
}

function checkArgs(opts: Options, ctx: Context): string[] {
  const args = opts.args[0];
  const stdin = args.filter((a) => a === '-').length;
  if (stdin > 1) throw new UsageError('stdin (-) can be read only once');
  if (opts.fileName !== undefined) {
    const name = opts.fileName.trim();
    if (name === '' || /[\\/]/.test(name)) throw new UsageError(`invalid --file-name '${opts.fileName}': expected a file name without a directory`);
    if (stdin === 0 && args.length > 1) throw new UsageError('--file-name names one upload: stdin (-), or a single file');
  }
  if (stdin === 1) {
    if (opts.fileName === undefined) {
      throw new UsageError('reading a PDF from stdin (-) needs --file-name <name>', {
        details: [`e.g. \`cat doc.pdf | pds upload ${opts.kind} - --file-name doc.pdf\``],
      });
    }
    if (ctx.io.stdinIsTTY) throw new UsageError('stdin is a terminal: pipe a PDF into pds to upload it from stdin (-)');
  }
  return args;
}

/** Every file is checked before any byte is sent; one bad file stops the whole batch. */
async function checkAll(args: string[], fileName: string | undefined, ctx: Context): Promise<LocalUpload[]> {
  const name = fileName?.trim();
  const results = new Array<LocalUpload | LocalFileError>(args.length);
  await pool(args.map((arg, index) => ({ arg, index })), CHECK_CONCURRENCY, ctx.signal, async ({ arg, index }) => {
    try {
      // Ctrl-C destroys stdin: a producer that has not finished must not hold pds open.
      results[index] = arg === '-' ? await readStdin(addAbortSignal(ctx.signal, ctx.io.stdin), name as string) : await checkFile(arg, args.length === 1 ? name : undefined);
    } catch (error) {
      if (!(error instanceof LocalFileError)) throw error;
      results[index] = error;
    }
  });
  if (ctx.signal.aborted) throw new InterruptedError();
  const bad = results.filter((r): r is LocalFileError => r instanceof LocalFileError);
  if (bad.length === 1 && args.length === 1) throw new UsageError((bad[0] as LocalFileError).message);
  if (bad.length > 0) {
    throw new UsageError(`${bad.length} of ${args.length} files cannot be uploaded; nothing was sent`, {
      details: bad.map((e) => e.message),
    });
  }
  return results as LocalUpload[];
}

function asPdsError(error: unknown): PdsError {
  if (error instanceof PdsError) return error;
  if (error instanceof LocalFileError) return new UsageError(error.problem);
  return new ServiceError(error instanceof Error ? error.message : String(error), { cause: error });
}

/** stdout: an array for --json, staging ids for -q, a table on a terminal, TSV when piped. */
async function printResults(ctx: Context, kind: DocumentKind, entries: Entry[], wait: boolean, waitTimeout: number): Promise<void> {
  const output = ctx.output;
  if (output.mode === 'json') {
    output.json(entries.map((entry) => jsonEntry(entry, kind, waitTimeout)));
    return;
  }
  const uploaded = entries.filter((e) => e.upload);
  if (output.mode === 'ids') {
    for (const entry of uploaded) output.write(`${(entry.upload as UploadRecord).staging_id}\n`);
    return;
  }
  const idHeader = kind === 'contract' ? 'CONTRACT_ID' : 'STATEMENT_ID';
  const headers = wait ? ['FILE', 'STAGING_ID', 'STAGE', 'STATE', idHeader] : ['FILE', 'STAGING_ID', 'STAGE'];
  const rows = uploaded.map((entry) => {
    const upload = entry.upload as UploadRecord;
    const row = [entry.file.arg, String(upload.staging_id)];
    if (!wait) return [...row, upload.staging_stage];
    const progress = entry.watched?.progress;
    return [...row, progress?.stagingStage ?? upload.staging_stage, progress?.outcome ?? 'unknown', String(progress?.resultId ?? '')];
  });
  if (rows.length === 0) return;
  if (output.mode === 'tsv') {
    output.write(`${headers.join('\t')}\n`);
    for (const row of rows) output.write(`${row.map(safeText).join('\t')}\n`);
    return;
  }
  const next = uploaded.map((entry) => nextCommand(entry, kind));
  // The ids and the next command are for copying: never cut (the command moves below the table when
  // a row cannot hold it). The file shows its base name (the lines above named its path) and
  // shrinks; after a wait the staging stage is a detail beside the outcome, dropped first.
  const fits: ColumnFit[] = wait ? ['text', 'copy', 'extra', 'text', 'copy', 'command'] : ['text', 'copy', 'text', 'command'];
  const table = await output.table(
    [...headers.map((h) => h.replace(/_/g, ' ')), 'NEXT'],
    rows.map((row, i) => [basename(row[0] ?? ''), ...row.slice(1), next[i] ?? '']),
    '',
    fits,
  );
  output.write(table);
}

/** What to run next: the status command, or the document itself once it completed. */
function nextCommand(entry: Entry, kind: DocumentKind): string {
  const upload = entry.upload as UploadRecord;
  const progress = entry.watched?.progress;
  if (progress?.outcome === 'completed' && progress.resultId !== null) return `pds ${DOCUMENT_KINDS[kind].noun} get ${progress.resultId}`;
  return statusCommand(kind, upload.staging_id);
}

function jsonEntry(entry: Entry, kind: DocumentKind, waitTimeout: number): Record<string, unknown> {
  const result: Record<string, unknown> = { file: entry.file.arg };
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

function summary(entries: Entry[], wait: boolean): string {
  const uploaded = entries.filter((e) => e.upload).length;
  const failed = entries.filter((e) => !e.upload).length;
  const parts = [`${uploaded} uploaded`];
  if (failed > 0) parts.push(`${failed} failed`);
  let text = parts.join(', ');
  if (wait) {
    const outcomes = entries.map((e) => (e.watched?.timedOut ? 'running' : e.watched?.progress.outcome));
    const processed = outcomes.filter((o) => o === 'completed').length;
    const failedProcessing = outcomes.filter((o) => o === 'failed').length;
    const running = outcomes.filter((o) => o === 'running').length;
    const waitParts = [`${processed} processed`];
    if (failedProcessing > 0) waitParts.push(`${failedProcessing} failed processing`);
    if (running > 0) waitParts.push(`${running} still running`);
    text += `; ${waitParts.join(', ')}`;
  }
  return text;
}

/**
 * Upload failures first (a single file, or a batch that failed all alike, keeps the error's own
 * code: 2 for a refused file, 4 for a forbidden project…; a mixed batch is 1); then processing
 * failures (7); then waits that ran out or could not poll (1).
 */
function exitCode(entries: Entry[]): number {
  const notUploaded = entries.filter((e) => !e.upload);
  if (notUploaded.length > 0) {
    const codes = new Set(notUploaded.map((e) => (e.error as PdsError).exitCode));
    if (notUploaded.length === entries.length && codes.size === 1) return [...codes][0] as number;
    return ExitCode.failure;
  }
  if (entries.some((e) => e.watched?.progress.outcome === 'failed')) return ExitCode.processingFailed;
  if (entries.some((e) => e.error || e.watched?.timedOut)) return ExitCode.failure;
  return ExitCode.ok;
}

// `pds upload contract|statement <files...>`: check every file, upload them a few at a time, and
// optionally wait for processing. One module for both kinds; `kind` comes from the registration.
import { basename } from 'node:path';
import { addAbortSignal } from 'node:stream';
import type { Context } from '../../lib/context.js';
import type { ColumnFit } from '../../lib/output.js';
import { DOCUMENT_KINDS, receivedHint, type DocumentKind, type UploadRecord } from '../../lib/api/documents.js';
import {
  ExitCode,
  InterruptedError,
  type PdsError,
  ServiceError,
  UsageError,
  asPdsError,
  stopSignalOf,
} from '../../lib/errors.js';
import { EXTRACTIONS } from '../../lib/schemas.js';
import { matchWord } from '../../lib/vocabulary.js';
import { LocalFileError, checkFile, readStdin, type LocalUpload } from '../../lib/upload.js';
import { buildContext, formatOf } from '../../lib/formats.js';
import {
  UploadDisplay,
  isPaused,
  label,
  pausedError,
  retryCommand,
  waitProblem,
  type UploadEntry as Entry,
} from '../documents/upload-display.js';
import { writeBatchReports, type Counts, type FileReport } from '../../lib/ci-report.js';
import { ExistingRecords, byFileName, expandArgs, formatDuration, parseReports } from './batch.js';
import { pool } from '../../lib/pool.js';
import { commaList, formatBytes, safeText } from '../../lib/text.js';
import { shortExtraction, statusCommand, watchProcesses } from '../documents/processes.js';
import type { UploadOptions } from './definitions.js';

type Options = UploadOptions;

/** Local checks open files; this many at once is plenty and stays far from the fd limit. */
const CHECK_CONCURRENCY = 16;

export async function run(opts: Options, ctx: Context): Promise<number> {
  const startedAt = ctx.clock.now();
  const kind: DocumentKind = opts.kind;
  const extractions = extractionNames(opts.extract);
  const context = uploadContext(opts);
  const reports = parseReports(opts.report);
  const { files: args, unsupported } = await filesOf(opts, ctx);
  const projectId = ctx.project();
  ctx.requireToken(); // exit 3 now when there is no token, before stdin is read

  const entries = [
    ...(await checkAll(args, kind, opts.fileName, opts.failFast === true, ctx)),
    ...unsupported.map((path) => unsupportedEntry(path, kind)),
  ];
  markSameFiles(entries);
  const dryRun = ctx.settings.dryRun;
  const existing =
    opts.skipExisting !== undefined && entries.some((e) => !e.error)
      ? await ExistingRecords.load(ctx, kind, projectId, opts.skipExisting === 'content')
      : undefined;
  // A dry run shows its plan when it is made, not live lines of work it does not do.
  const view = dryRun ? undefined : await UploadDisplay.create(ctx, kind, Boolean(opts.wait), opts.waitTimeout);
  for (const entry of entries) {
    view?.queued(entry);
    if (entry.error) view?.finished(entry);
  }
  try {
    await sendAll(entries, { opts, ctx, projectId, extractions, context, existing, view });
  } finally {
    view?.close();
  }
  // Stopped (Ctrl-C, SIGTERM of a cancelled CI job): what may have arrived is said, and the
  // reports are written all the same, with the files not reached as not started.
  const stopped = ctx.signal.aborted;
  if (stopped) sayStopped(ctx, kind, entries);
  else {
    view?.errors(entries);
    if (dryRun) printPlan(ctx, kind, entries);
    else
      await printResults(
        ctx,
        kind,
        entries,
        Boolean(opts.wait),
        opts.waitTimeout,
        context.context !== undefined || context.folderName !== undefined,
      );
  }
  const totalMs = ctx.clock.now() - startedAt;
  const countsLine = summary(entries, Boolean(opts.wait), dryRun);
  await writeBatchReports(ctx.env, ctx.io.stdout, {
    title: `pds upload ${kind}`,
    kind,
    countsLine,
    counts: counts(entries, Boolean(opts.wait)),
    files: entries.map((entry) => fileReport(entry, kind, opts.waitTimeout, dryRun)),
    records: entries.map((entry) => jsonEntry(entry, kind, opts.waitTimeout, dryRun)),
    totalMs,
    reports,
    dryRun,
  });
  // The last line on stderr, so a log's tail says how the batch went.
  if (entries.length > 1 || existing || dryRun)
    ctx.output.info(`${stopped ? `${stoppedBy(ctx)}: ` : ''}${countsLine} (${formatDuration(totalMs)})`);
  if (stopped) throw new InterruptedError(stopSignalOf(ctx.signal));
  return exitCode(entries);
}

interface Batch {
  opts: Options;
  ctx: Context;
  projectId: string;
  extractions: string[] | undefined;
  /** The upload context flags, as the service takes them. */
  context: UploadContext;
  existing: ExistingRecords | undefined;
  /** None in a dry run. */
  view: UploadDisplay | undefined;
}

/** Every file that passed its checks: skipped, planned (dry run), or uploaded and maybe waited for. */
async function sendAll(entries: Entry[], batch: Batch): Promise<void> {
  const { opts, ctx, existing, view } = batch;
  const failFast = new AbortController();
  const waits: Promise<void>[] = [];
  // Files of one name go one after the other, so that a record made by the first is seen by the next.
  await pool(byFileName(entries), opts.concurrency, ctx.signal, async (group) => {
    for (const entry of group) {
      if (entry.error) continue;
      if (entry.sameAs !== undefined || entry.unsupported !== undefined) {
        view?.skipped(entry);
        continue;
      }
      if (failFast.signal.aborted) {
        entry.notStarted = 'not started: --fail-fast stopped the batch';
        view?.finished(entry);
        continue;
      }
      if (existing && !(await skipOrNot(entry, existing, view))) continue;
      if (!view) {
        existing?.uploaded(entry.file, undefined);
        continue;
      }
      if (!(await sendOne(entry, batch, view))) {
        if (opts.failFast) failFast.abort();
        continue;
      }
      existing?.uploaded(entry.file, String((entry.upload as UploadRecord).staging_id));
      if (isPaused(entry.upload as UploadRecord)) {
        if (opts.wait) entry.error = pausedError(opts.kind, entry.upload as UploadRecord);
        view.finished(entry);
        continue;
      }
      if (!opts.wait) {
        view.finished(entry);
        continue;
      }
      view.watching(entry, undefined);
      // The wait does not hold an upload slot: polling is cheap, uploads are not.
      waits.push(waitFor(entry, opts.kind, batch.projectId, opts, ctx, view));
    }
  });
  await Promise.all(waits);
}

/** One upload; false (the error recorded and shown) when it failed. */
async function sendOne(
  entry: Entry,
  { opts, ctx, projectId, extractions, context }: Batch,
  view: UploadDisplay,
): Promise<boolean> {
  const started = ctx.clock.now();
  view.started(entry);
  try {
    entry.upload = await ctx.api.documents.upload(opts.kind, projectId, entry.file, {
      ...(extractions ? { extractions } : {}),
      ...context,
      idleTimeoutMs: ctx.settings.timeoutMs,
      answerTimeoutMs: opts.waitTimeout * 1000,
      allowHttp: ctx.settings.allowHttp,
      onStart: () => {
        entry.sending = true;
      },
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
    return true;
  } catch (error) {
    entry.error = ctx.signal.aborted ? new InterruptedError() : failure(error);
    view.finished(entry);
    return false;
  } finally {
    entry.ms = ctx.clock.now() - started;
  }
}

/**
 * One file goes once: an argument that reaches a file an earlier one did (another spelling, a
 * glob, a symbolic or a hard link: the same device and inode) is skipped as the same file.
 */
function markSameFiles(entries: Entry[]): void {
  const first = new Map<string, string>();
  for (const entry of entries) {
    const identity = entry.error ? undefined : entry.file.identity;
    if (identity === undefined) continue;
    const earlier = first.get(identity);
    if (earlier === undefined) first.set(identity, entry.file.arg);
    else {
      entry.sameAs = earlier;
      entry.skipped = { id: '', label: `the same file as ${earlier}` };
    }
  }
}

/** Stopped: what may have arrived, and what goes on processing; the files not reached are not started. */
function sayStopped(ctx: Context, kind: DocumentKind, entries: Entry[]): void {
  const inFlight = entries.filter((e) => e.sending && !e.upload);
  for (const entry of inFlight)
    ctx.output.warn(`the upload of ${label(entry.file)} was interrupted; ${receivedHint(kind)}`);
  // The stop ended the waiting, not the work: the service goes on processing what it accepted.
  const accepted = entries.filter((e) => e.upload && e.error instanceof InterruptedError);
  for (const entry of accepted) {
    const id = (entry.upload as UploadRecord).staging_id;
    ctx.output.warn(
      `${label(entry.file)} was uploaded (staging id ${id}); processing goes on in the service: follow it with \`${statusCommand(kind, id)}\``,
    );
  }
  const why = `not started: ${stoppedBy(ctx)}`;
  for (const entry of entries) if (!entry.upload && !entry.error && !entry.skipped) entry.notStarted ??= why;
}

/** `interrupted` (Ctrl-C), `stopped by SIGTERM`. */
const stoppedBy = (ctx: Context): string => new InterruptedError(stopSignalOf(ctx.signal)).message;

/** A file in a directory of a kind the service does not take: skipped, with why. */
function unsupportedEntry(path: string, kind: DocumentKind): Entry {
  const fileName = basename(path);
  const format = formatOf(kind, fileName);
  const why = typeof format === 'string' ? format : `not a ${kind} file`;
  return {
    file: { arg: path, fileName, fileType: '', size: 0, source: { kind: 'file', path } },
    sending: false,
    sent: 0,
    total: 0,
    skipped: { id: '', label: `unsupported: ${why}` },
    unsupported: why,
  };
}

/** The file arguments, directories expanded; a directory that gives nothing is said, not fatal. */
async function filesOf(opts: Options, ctx: Context): Promise<{ files: string[]; unsupported: string[] }> {
  const given = checkArgs(opts, ctx);
  const { files, empty, unsupported } = await expandArgs(given, opts.kind, {
    recursive: opts.recursive === true,
    include: opts.include,
    exclude: opts.exclude,
  });
  for (const dir of empty)
    ctx.output.warn(
      `${dir}: no ${opts.kind} files to upload in it${opts.recursive ? '' : ' (--recursive takes its subdirectories too)'}`,
    );
  if (files.length === 0) throw new UsageError('no files to upload');
  if (opts.fileName !== undefined && files.length > 1)
    throw new UsageError('--file-name names one upload: stdin (-), or a single file');
  return { files, unsupported };
}

/** --skip-existing: whether the file still goes (false: it is there already, or could not be compared). */
async function skipOrNot(entry: Entry, existing: ExistingRecords, view: UploadDisplay | undefined): Promise<boolean> {
  try {
    const decision = await existing.decide(entry.file);
    if (!decision.skip) {
      entry.changed = decision.changed;
      return true;
    }
    entry.skipped = { id: decision.id, label: decision.label };
    view?.skipped(entry);
  } catch (error) {
    // Ctrl-C: run() says it once, not a line per file.
    if (error instanceof InterruptedError) {
      entry.error = error;
      return false;
    }
    const cause = asPdsError(error);
    entry.error = new ServiceError(`cannot compare it with the project's copy: ${cause.message}`, {
      details: cause.details,
      cause,
    });
    view?.finished(entry);
  }
  return false;
}

async function waitFor(
  entry: Entry,
  kind: DocumentKind,
  projectId: string,
  opts: Options,
  ctx: Context,
  view: UploadDisplay,
): Promise<void> {
  const upload = entry.upload as UploadRecord;
  const started = ctx.clock.now();
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
    entry.error = new ServiceError(
      `uploaded as staging id ${upload.staging_id}, but its status could not be read: ${cause.message}`,
      {
        details: [...cause.details, `follow it with \`${statusCommand(kind, upload.staging_id)}\``],
        ...(cause.status === undefined ? {} : { status: cause.status }),
      },
    );
  } finally {
    // A file's time in the reports is its upload and its processing.
    entry.ms = (entry.ms ?? 0) + ctx.clock.now() - started;
  }
  view.finished(entry);
}

/** The upload context as the service takes it. */
type UploadContext = { context?: Record<string, unknown>; folderName?: string };

/** The context flags of an upload (`pds upload`, the upload tools of `pds mcp`). */
export type ContextOptions = Pick<
  Options,
  | 'kind'
  | 'accountingPeriod'
  | 'targetPeriod'
  | 'currencyRoyalty'
  | 'currencyTransaction'
  | 'payee'
  | 'payor'
  | 'scenario'
  | 'targetFamily'
  | 'tag'
  | 'folder'
>;

/** The context flags as the service takes them (`context`, `folderName`), checked before anything is sent. */
export function uploadContext(opts: ContextOptions): UploadContext {
  const { context, problems } = buildContext(opts.kind, {
    ...(opts.accountingPeriod === undefined ? {} : { accountingPeriod: opts.accountingPeriod }),
    ...(opts.targetPeriod === undefined ? {} : { targetPeriod: opts.targetPeriod }),
    ...(opts.currencyRoyalty === undefined ? {} : { currencyRoyalty: opts.currencyRoyalty }),
    ...(opts.currencyTransaction === undefined ? {} : { currencyTransaction: opts.currencyTransaction }),
    ...(opts.payee === undefined ? {} : { payee: opts.payee }),
    ...(opts.payor === undefined ? {} : { payor: opts.payor }),
    ...(opts.scenario === undefined ? {} : { scenario: opts.scenario }),
    ...(opts.targetFamily === undefined ? {} : { targetFamily: opts.targetFamily }),
    tags: opts.tag,
  });
  if (problems.length === 1) throw new UsageError(problems[0] as string);
  if (problems.length > 1)
    throw new UsageError(`${problems.length} problems with the upload context; nothing was sent`, {
      details: problems,
    });
  return { ...(context ? { context } : {}), ...(opts.folder === undefined ? {} : { folderName: opts.folder }) };
}

/** `--extract royalties,extract-splits --extract dates` → the spec's full names, checked. */
export function extractionNames(values: string[] | undefined): string[] | undefined {
  const given = commaList(values);
  if (given.length === 0) return undefined;
  const names: string[] = [];
  const unknown: string[] = [];
  for (const raw of given) {
    const lower = raw.toLowerCase();
    const name = matchWord(lower.startsWith('extract-') ? lower : `extract-${lower}`, EXTRACTIONS);
    if (name === undefined) unknown.push(raw);
    else if (!names.includes(name)) names.push(name);
  }
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown extraction${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')}`,
      {
        details: [
          `valid extractions: ${EXTRACTIONS.map(shortExtraction).join(', ')} (with or without the extract- prefix)`,
        ],
      },
    );
  }
  return names;
}

function checkArgs(opts: Options, ctx: Context): string[] {
  const args = opts.args[0];
  const stdin = args.filter((a) => a === '-').length;
  if (stdin > 1) throw new UsageError('stdin (-) can be read only once');
  if (opts.fileName !== undefined) {
    const name = opts.fileName.trim();
    if (name === '' || /[\\/]/.test(name))
      throw new UsageError(`invalid --file-name '${opts.fileName}': expected a file name without a directory`);
    if (stdin === 0 && args.length > 1)
      throw new UsageError('--file-name names one upload: stdin (-), or a single file');
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

/**
 * Every file is checked before any byte is sent. A file that fails is reported and left out; with
 * --fail-fast (or when it is the only one) it stops the whole command before anything is sent.
 */
async function checkAll(
  args: string[],
  kind: DocumentKind,
  fileName: string | undefined,
  failFast: boolean,
  ctx: Context,
): Promise<Entry[]> {
  const name = fileName?.trim();
  const results = new Array<LocalUpload | LocalFileError>(args.length);
  await pool(
    args.map((arg, index) => ({ arg, index })),
    CHECK_CONCURRENCY,
    ctx.signal,
    async ({ arg, index }) => {
      try {
        // Ctrl-C destroys stdin: a producer that has not finished must not hold pds open.
        results[index] =
          arg === '-'
            ? await readStdin(addAbortSignal(ctx.signal, ctx.io.stdin), name as string, kind)
            : await checkFile(arg, kind, args.length === 1 ? name : undefined);
      } catch (error) {
        if (!(error instanceof LocalFileError)) throw error;
        results[index] = error;
      }
    },
  );
  if (ctx.signal.aborted) throw new InterruptedError();
  const bad = results.filter((r): r is LocalFileError => r instanceof LocalFileError);
  if (bad.length === 1 && args.length === 1) throw new UsageError((bad[0] as LocalFileError).message);
  if (bad.length > 0 && failFast) {
    throw new UsageError(`${bad.length} of ${args.length} files cannot be uploaded; nothing was sent (--fail-fast)`, {
      details: bad.map((e) => e.message),
    });
  }
  return results.map((result) => {
    if (!(result instanceof LocalFileError)) return { file: result, sending: false, sent: 0, total: result.size };
    const file: LocalUpload = {
      arg: result.arg,
      fileName: name ?? basename(result.arg),
      fileType: 'application/octet-stream',
      size: 0,
      source: { kind: 'file', path: result.arg },
    };
    return { file, sending: false, sent: 0, total: 0, error: new UsageError(result.problem) };
  });
}

/** A failure of one file as a PdsError: a local file check is a usage error (exit 2). */
function failure(error: unknown): PdsError {
  return error instanceof LocalFileError ? new UsageError(error.problem) : asPdsError(error);
}

/** stdout: a record a file in a data format (--json, --format csv…), staging ids for -q, a table on a terminal, TSV when piped. */
async function printResults(
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
  output.write(table);
}

/** What to run next: the status command, or the document itself once it completed. */
function nextCommand(entry: Entry, kind: DocumentKind): string {
  const upload = entry.upload as UploadRecord;
  const progress = entry.watched?.progress;
  if (isPaused(upload)) return retryCommand(kind, upload.staging_id);
  if (progress?.outcome === 'completed' && progress.resultId !== null)
    return `pds ${DOCUMENT_KINDS[kind].noun} get ${progress.resultId}`;
  return statusCommand(kind, upload.staging_id);
}

function jsonEntry(entry: Entry, kind: DocumentKind, waitTimeout: number, dryRun: boolean): Record<string, unknown> {
  const result: Record<string, unknown> = { file: entry.file.arg };
  if (dryRun) result.would = entry.error ? 'fail' : entry.skipped ? 'skip' : 'upload';
  if (entry.skipped) {
    result.skipped = true;
    if (entry.skipped.id !== '') result.id = entry.skipped.id;
  }
  if (entry.sameAs !== undefined) result.same_as = entry.sameAs;
  if (entry.unsupported !== undefined) result.unsupported = entry.unsupported;
  if (entry.changed) result.changed = true;
  if (entry.notStarted) result.not_started = true;
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
function printPlan(ctx: Context, kind: DocumentKind, entries: Entry[]): void {
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
    else
      output.write(
        `would upload ${safeText(name)} (${formatBytes(entry.file.size)}${entry.changed ? ', changed' : ''})\n`,
      );
  }
}

/** The outcome of an upload's processing, when it was waited for. */
const processing = (entry: Entry): string | undefined =>
  entry.watched?.timedOut ? 'running' : entry.watched?.progress.outcome;

/** A file that failed: not uploaded (a local check, the upload), or its processing failed. */
const failedFile = (entry: Entry): boolean =>
  (!entry.upload && entry.error !== undefined) || processing(entry) === 'failed';

function counts(entries: Entry[], wait: boolean): Counts {
  return {
    uploaded: entries.filter((e) => e.upload).length,
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
function summary(entries: Entry[], wait: boolean, dryRun: boolean): string {
  const { uploaded, skipped, failed, processed, processingFailed } = counts(entries, wait);
  const same = entries.filter((e) => e.sameAs !== undefined).length;
  const sameText = same > 0 ? ` (${same} the same file as another)` : '';
  if (dryRun) {
    const wouldFail = entries.filter((e) => e.error).length;
    return `dry run: ${entries.length - skipped - wouldFail} would upload, ${skipped} would skip${sameText}, ${wouldFail} would fail`;
  }
  let text = `${uploaded} uploaded, ${skipped} skipped${sameText}, ${failed} failed`;
  const notStarted = entries.filter((e) => e.notStarted).length;
  if (notStarted > 0) text += `, ${notStarted} not started`;
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
function fileReport(entry: Entry, kind: DocumentKind, waitTimeout: number, dryRun: boolean): FileReport {
  const problem = entry.error ?? waitProblem(entry, kind, waitTimeout);
  const reason = problem ? [problem.message, ...problem.details].join('\n') : undefined;
  const base = { path: entry.file.arg, ...(entry.ms === undefined ? {} : { ms: entry.ms }) };
  if (entry.upload) {
    const stagingId = String(entry.upload.staging_id);
    const resultId = entry.watched?.progress.resultId;
    const outcome = processing(entry);
    return {
      ...base,
      outcome: outcome === 'failed' ? 'processing failed' : outcome === 'completed' ? 'processed' : 'uploaded',
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
  if (entry.notStarted) return { ...base, outcome: 'not started', reason: entry.notStarted };
  return { ...base, outcome: 'would upload' };
}

/**
 * Upload failures first (a single file, or a batch that failed all alike, keeps the error's own
 * code: 2 for a refused file, 4 for a forbidden project…; a mixed batch is 1); then processing
 * failures (7); then waits that ran out or could not poll (1).
 */
function exitCode(entries: Entry[]): number {
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

import type { Context } from '../../lib/context.js';
import { receivedHint, type DocumentKind, type UploadRecord } from '../../lib/api/documents.js';
import { InterruptedError, PdsError, ServiceError, asPdsError, stopSignalOf } from '../../lib/errors.js';
import { UploadDisplay, isPaused, label, pausedError, type UploadEntry as Entry } from '../documents/upload-display.js';
import { writeBatchReports } from '../../lib/ci/report.js';
import { ExistingRecords, byFileName, givenContext, formatDuration, parseReports } from './batch.js';
import { BatchRun } from '../documents/batch-run.js';
import { RateGate } from './rate-gate.js';
import { statusCommand, watchProcesses } from '../documents/processes.js';
import type { UploadOptions } from './definitions.js';

import {
  checkAll,
  extractionNames,
  failure,
  filesOf,
  markSameFiles,
  unsupportedEntry,
  uploadContext,
  type UploadContext,
} from './plan.js';
import { counts, exitCode, fileReport, jsonEntry, printPlan, printResults, summary } from './outcomes.js';
type Options = UploadOptions;

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
      ? await ExistingRecords.load(ctx, kind, projectId, opts.skipExisting === 'content', givenContext(context.context))
      : undefined;
  // A dry run shows its plan when it is made, not live lines of work it does not do.
  const view = dryRun
    ? undefined
    : await UploadDisplay.create(ctx, kind, Boolean(opts.wait), opts.waitTimeout, entries.length);
  for (const entry of entries) {
    view?.queued(entry);
    if (entry.error) view?.finished(entry);
  }
  const gate = new RateGate(opts.concurrency);
  const run = new BatchRun(ctx, opts.concurrency);
  const deadline = opts.batchTimeout === undefined ? undefined : startedAt + opts.batchTimeout * 1000;
  const cut = deadlineCut(ctx, opts.batchTimeout, deadline);
  try {
    await sendAll(entries, {
      opts,
      ctx,
      projectId,
      extractions,
      context,
      existing,
      view,
      gate,
      run,
      deadline,
      cutSignal: cut?.signal,
    });
  } finally {
    cut?.clear();
    gate.close();
    view?.close();
  }
  // Stopped (Ctrl-C, SIGTERM of a cancelled CI job): what may have arrived is said, and the
  // reports are written all the same, with the files not reached failed as not started.
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
  if (!stopped) view?.followUp();
  if (entries.length > 1 || existing || dryRun)
    ctx.output.info(`${stopped ? `${stoppedBy(ctx)}: ` : ''}${countsLine} (${formatDuration(totalMs)})`);
  run.throwIfStopped();
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
  /** How many uploads go at once: fewer while a rate limit lasts. */
  gate: RateGate;
  run: BatchRun;
  /** --batch-timeout: when no file starts any more, and waits end (ms since the epoch). */
  deadline: number | undefined;
  /** Aborted at --batch-timeout, with why: the uploads still sending their bytes are cut. */
  cutSignal: AbortSignal | undefined;
}

/**
 * --batch-timeout's cut: at the deadline, an upload still under way (a storage PUT that stalled
 * ends only at the idle --timeout otherwise) is abandoned, and fails as a batch timeout.
 */
function deadlineCut(
  ctx: Context,
  seconds: number | undefined,
  deadline: number | undefined,
): { signal: AbortSignal; clear(): void } | undefined {
  if (seconds === undefined || deadline === undefined) return undefined;
  const controller = new AbortController();
  const why = new PdsError(
    `batch timeout: its upload was still under way at --batch-timeout ${seconds} s, and was cut`,
    {
      details: ['the files done before it are in the reports; a re-run with --skip-existing sends the rest'],
    },
  );
  const timer = setTimeout(() => controller.abort(why), Math.max(0, deadline - ctx.clock.now()));
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** A file the batch did not start before --batch-timeout: failed, with that reason. */
function batchTimedOut(batch: Batch): PdsError | undefined {
  if (batch.deadline === undefined || batch.ctx.clock.now() < batch.deadline) return undefined;
  return new PdsError(`batch timeout: not started within --batch-timeout ${batch.opts.batchTimeout} s`, {
    details: ['the files started before it are in the reports; a re-run with --skip-existing sends the rest'],
  });
}

/** Every file that passed its checks: skipped, planned (dry run), or uploaded and maybe waited for. */
async function sendAll(entries: Entry[], batch: Batch): Promise<void> {
  const { opts, ctx, existing, view } = batch;
  const failFast = new AbortController();
  const waits: Promise<void>[] = [];
  // Files of one name go one after the other, so that a record made by the first is seen by the next.
  await batch.run.each(byFileName(entries), async (group) => {
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
      const late = batchTimedOut(batch);
      if (late) {
        entry.error = late;
        view?.finished(entry);
        continue;
      }
      if (existing && !(await skipOrNot(entry, existing, view))) continue;
      if (!view) {
        existing?.uploaded(entry.file, undefined);
        continue;
      }
      const sent = entry.retried === undefined ? await sendOne(entry, batch, view) : await retryOne(entry, batch, view);
      if (!sent) {
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
      waits.push(waitFor(entry, opts.kind, batch.projectId, opts, ctx, view, batch.deadline));
    }
  });
  await Promise.all(waits);
}

/** One upload; false (the error recorded and shown) when it failed. */
async function sendOne(entry: Entry, batch: Batch, view: UploadDisplay): Promise<boolean> {
  const { opts, ctx, projectId, extractions, context, gate, cutSignal } = batch;
  await gate.enter();
  // The slot may have come after the deadline.
  const late = batchTimedOut(batch);
  if (late) {
    gate.leave();
    entry.error = late;
    view.finished(entry);
    return false;
  }
  view.started(entry);
  const send = async () => {
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
      onRateLimited: (waitMs) => gate.rateLimited(waitMs),
      ...(cutSignal ? { signal: cutSignal } : {}),
    });
  };
  try {
    return await attempt(entry, batch, view, send);
  } finally {
    gate.leave();
  }
}

/** A file the service holds paused (a quota): its upload is retried, not sent again; false when the retry failed. */
async function retryOne(entry: Entry, batch: Batch, view: UploadDisplay): Promise<boolean> {
  const { opts, ctx, projectId } = batch;
  return attempt(entry, batch, view, async () => {
    const answer = await ctx.api.documents.retry(opts.kind, projectId, entry.retried as number);
    // Still paused (the quota holds): the service says so, and a later re-run retries it again.
    entry.upload = { ...answer, staging_stage: answer.status === 'paused' ? 'paused' : 'queued' };
  });
}

/** One request for a file, timed: false (its error recorded and shown) when it failed. */
async function attempt(
  entry: Entry,
  batch: Batch,
  view: UploadDisplay,
  request: () => Promise<void>,
): Promise<boolean> {
  const started = batch.ctx.clock.now();
  try {
    await request();
    return true;
  } catch (error) {
    entry.error = batch.run.failure(error, failure);
    view.finished(entry);
    return false;
  } finally {
    entry.ms = batch.ctx.clock.now() - started;
  }
}

/** Stopped: what may have arrived, and what goes on processing; the files not reached are failed as not started. */
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
  const why = `not started: the batch was stopped (${stopSignalOf(ctx.signal)})`;
  for (const entry of entries) if (!entry.upload && !entry.error && !entry.skipped) entry.notStarted ??= why;
}

/** `interrupted` (Ctrl-C), `stopped by SIGTERM`. */
const stoppedBy = (ctx: Context): string => new InterruptedError(stopSignalOf(ctx.signal)).message;

/** --skip-existing: whether the file still goes (false: it is there already, or could not be compared). */
async function skipOrNot(entry: Entry, existing: ExistingRecords, view: UploadDisplay | undefined): Promise<boolean> {
  try {
    const decision = await existing.decide(entry.file);
    if (!decision.skip) {
      if (decision.changed !== undefined) entry.changed = decision.changed;
      if (decision.retry !== undefined) entry.retried = decision.retry;
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
  deadline: number | undefined,
): Promise<void> {
  const upload = entry.upload as UploadRecord;
  const started = ctx.clock.now();
  const timeoutMs = Math.min(
    opts.waitTimeout * 1000,
    deadline === undefined ? Infinity : Math.max(1, deadline - started),
  );
  try {
    entry.watched = await watchProcesses(ctx, kind, projectId, String(upload.staging_id), {
      intervalMs: opts.interval * 1000,
      timeoutMs,
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

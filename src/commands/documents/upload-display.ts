// What `pds upload` shows while it works (see batch-display.ts for where it goes).
import { basename } from 'node:path';
import type { Context } from '../../lib/context.js';
import type { DocumentKind, DocumentProcesses, UploadRecord } from '../../lib/api/documents.js';
import { InterruptedError, PdsError, ProcessingFailedError } from '../../lib/errors.js';
import type { LocalUpload } from '../../lib/transfer/local-upload.js';
import { workspacePath } from '../../lib/ci/report.js';
import { writeWorkflowCommands } from '../../lib/io.js';
import { formatBytes } from '../../lib/output/text.js';
import { BatchDisplay } from './batch-display.js';
import { briefOf, statusCommand, type Progress } from './processes.js';

/** What happened to one file. */
export interface UploadEntry {
  file: LocalUpload;
  line?: number;
  /** The body started to go out: the service may have the file even if no answer comes. */
  sending: boolean;
  /** Body bytes handed to the transport, of the whole multipart body. */
  sent: number;
  total: number;
  /** The service's own `progress` percent (event stream). */
  servicePercent?: number;
  upload?: UploadRecord;
  error?: PdsError;
  watched?: { processes: DocumentProcesses; progress: Progress; timedOut: boolean };
  // Batches.
  /** Not sent: the project has it already (`statement 123`, `staging id 45`). */
  skipped?: { id: string; label: string };
  /** The same file (device and inode) as an earlier argument's, which alone is sent: its argument. */
  sameAs?: string;
  /** A file in a directory of a kind the service does not take: why (skipped, never dropped silently). */
  unsupported?: string;
  /**
   * --skip-existing: why a file goes although a record has its name: `changed` (its size or bytes
   * differ), `same name as statement 40141 of 2026Q1` (another statement's context).
   */
  changed?: string;
  /** --skip-existing: the staging id of this file's paused upload (a quota), retried instead of sent again. */
  retried?: number;
  /** Why the batch stopped before this file was started (--fail-fast, a signal). */
  notStarted?: string;
  /** From its start to its end. */
  ms?: number;
  /** The last quarter of its bytes said on a non-interactive log. */
  quarter?: number;
}

/** A non-interactive log says where a large file is at every quarter of its bytes. */
const QUARTER_LINES_OVER = 5 * 1024 * 1024;

export const label = (file: LocalUpload): string => (file.arg === '-' ? `stdin (${file.fileName})` : file.arg);

/** An upload the service paused (a quota, say): not a failure; it waits for a retry. */
export const isPaused = (upload: UploadRecord | undefined): boolean => upload?.staging_stage === 'paused';

/** The decision a re-run made for a file the service held paused: `retried paused upload 1003`. */
export const retriedText = (stagingId: number): string => `retried paused upload ${stagingId}`;

/** How a log line says a file went: `uploaded`, or `retried paused upload 1003 of`. */
const wentAs = (entry: UploadEntry): string =>
  entry.retried === undefined ? 'uploaded' : `${retriedText(entry.retried)} of`;

export const retryCommand = (kind: DocumentKind, stagingId: number | string): string =>
  `pds ${kind}s retry ${stagingId}`;

/** `paused: <why>; resume it with \`pds statements retry N\``. */
export function pausedText(kind: DocumentKind, upload: UploadRecord): string {
  const reason = 'pause_reason' in upload && typeof upload.pause_reason === 'string' ? `: ${upload.pause_reason}` : '';
  return `paused${reason}; resume it with \`${retryCommand(kind, upload.staging_id)}\``;
}

/** `--wait` on a paused upload: it will not finish by itself, so it fails as processing does (exit 7). */
export function pausedError(kind: DocumentKind, upload: UploadRecord): PdsError {
  return new ProcessingFailedError(`the service paused the upload (staging id ${upload.staging_id})`, {
    details: [pausedText(kind, upload)],
  });
}

/**
 * A live line names the file by its base name (the table after does too): a long path would push
 * the state off an 80-column line. Messages keep the whole path.
 */
const lineLabel = (file: LocalUpload): string => (file.arg === '-' ? label(file) : basename(file.arg));

/** An upload that waited and did not complete: failed processing, or still running at the limit. */
export function waitProblem(entry: UploadEntry, kind: DocumentKind, waitTimeout: number): PdsError | undefined {
  const watched = entry.watched;
  if (!watched || !entry.upload) return undefined;
  const id = entry.upload.staging_id;
  if (watched.progress.outcome === 'failed') {
    return new PdsError(`processing failed (staging id ${id})`, {
      details: [...watched.progress.failure, `see \`${statusCommand(kind, id)}\``],
    });
  }
  if (watched.progress.outcome === 'paused') {
    return new ProcessingFailedError(`the service paused the upload (staging id ${id})`, {
      details: watched.progress.failure.slice(1),
    });
  }
  if (watched.timedOut) {
    return new PdsError(`still processing after ${waitTimeout} s (staging id ${id})`, {
      details: [`check again with \`${statusCommand(kind, id)}\`, or raise --wait-timeout`],
    });
  }
  return undefined;
}

/**
 * A GitHub Actions log (GITHUB_ACTIONS=true, not a terminal): one line per file, named as the job
 * page names it (relative to the workspace), the follow-up hint once after the batch, and a batch
 * of more than GROUPED_OVER files folded into a `::group::` so the summary line stays in view.
 */
interface ActionsLog {
  workspace: string | undefined;
  grouped: boolean;
}

/** Batches of more files than this fold their per-file lines into a group in an Actions log. */
export const GROUPED_OVER = 10;

/** What `pds upload` says of each file, through the display every batch of files shares. */
export class UploadDisplay {
  private readonly problems = new Map<UploadEntry, PdsError>();
  private uploadedUnwatched = 0;

  private constructor(
    private readonly ctx: Context,
    private readonly batch: BatchDisplay,
    private readonly kind: DocumentKind,
    private readonly wait: boolean,
    private readonly waitTimeout: number,
    private readonly actions: ActionsLog | undefined,
  ) {}

  static async create(
    ctx: Context,
    kind: DocumentKind,
    wait: boolean,
    waitTimeout: number,
    files: number,
  ): Promise<UploadDisplay> {
    const batch = await BatchDisplay.create(ctx);
    const actions =
      ctx.env.GITHUB_ACTIONS === 'true' && !batch.isLive && batch.linesPerFile
        ? { workspace: ctx.env.GITHUB_WORKSPACE || undefined, grouped: files > GROUPED_OVER }
        : undefined;
    const display = new UploadDisplay(ctx, batch, kind, wait, waitTimeout, actions);
    // pds's own commands: the runner reads the group commands from either stream.
    if (actions?.grouped) void writeWorkflowCommands(ctx.io.stderr, `::group::pds upload ${kind}: ${files} files\n`);
    return display;
  }

  /** A file as the log names it: relative to the workspace in an Actions log, else as given. */
  private name(file: LocalUpload): string {
    return this.actions && file.arg !== '-' ? workspacePath(file.arg, this.actions.workspace) : label(file);
  }

  queued(entry: UploadEntry): void {
    entry.line = this.batch.add('·', `${lineLabel(entry.file)}  ${formatBytes(entry.file.size)}  waiting`);
  }

  /** On a log (not a terminal): a line when a file starts. */
  started(entry: UploadEntry): void {
    // An Actions log has the file's one line when it is done.
    if (!this.batch.isLive && !this.actions)
      this.batch.say(
        `uploading ${label(entry.file)} (${formatBytes(entry.file.size)})${entry.changed ? `, ${entry.changed}` : ''}`,
      );
  }

  /** The file is there already, or is the same file as an earlier argument: not sent. */
  skipped(entry: UploadEntry): void {
    const text =
      entry.sameAs !== undefined
        ? `the same file as ${entry.sameAs}`
        : (entry.unsupported ?? `already uploaded (${entry.skipped?.label ?? ''})`);
    if (this.batch.isLive) this.batch.settle(entry.line, '–', `${label(entry.file)}  ${text}`);
    else this.batch.say(`skipped ${this.name(entry.file)}: ${text}`);
  }

  /** Bytes sent by pds, and the percent the service says it received. */
  progress(entry: UploadEntry): void {
    const percent = entry.total > 0 ? Math.floor((entry.sent * 100) / entry.total) : 0;
    if (!this.batch.isLive) {
      const quarter = Math.floor(percent / 25);
      if (entry.file.size > QUARTER_LINES_OVER && quarter > (entry.quarter ?? 0) && quarter < 4) {
        entry.quarter = quarter;
        this.batch.say(
          `${this.name(entry.file)}: ${quarter * 25}% sent (${formatBytes(entry.sent)} of ${formatBytes(entry.total)})`,
        );
      }
      return;
    }
    const service = entry.servicePercent === undefined ? '' : ` · service ${entry.servicePercent}%`;
    this.batch.set(
      entry.line,
      '↑',
      `${lineLabel(entry.file)}  ${formatBytes(entry.sent)} / ${formatBytes(entry.total)}  ${percent}% sent${service}`,
    );
  }

  watching(entry: UploadEntry, progress: Progress | undefined): void {
    if (!entry.upload) return;
    const state = progress ? briefOf(this.kind, progress) : `staging ${entry.upload.staging_stage}`;
    this.batch.set(entry.line, '…', `${lineLabel(entry.file)}  staging id ${entry.upload.staging_id} · ${state}`);
  }

  /** The file's work is over (uploaded, processed, or failed). */
  finished(entry: UploadEntry): void {
    // Ctrl-C: run() says once which uploads may have arrived; no line per file.
    if (entry.error instanceof InterruptedError) return;
    if (entry.notStarted) {
      this.batch.settle(entry.line, '✗', `${label(entry.file)}  ${entry.notStarted}`);
      return;
    }
    const problem = entry.error ?? waitProblem(entry, this.kind, this.waitTimeout);
    if (problem) this.problems.set(entry, problem);
    const name = this.name(entry.file);
    if (this.batch.isLive) {
      if (entry.error) this.batch.settle(entry.line, '✗', `${lineLabel(entry.file)}  ${entry.error.message}`);
      else if (entry.upload && entry.watched) {
        const mark =
          entry.watched.progress.outcome === 'completed'
            ? '✓'
            : entry.watched.progress.outcome === 'failed'
              ? '✗'
              : '!';
        const state = entry.watched.timedOut
          ? `still running after ${this.waitTimeout} s`
          : briefOf(this.kind, entry.watched.progress);
        this.batch.settle(
          entry.line,
          mark,
          `${lineLabel(entry.file)}  staging id ${entry.upload.staging_id} · ${state}`,
        );
      } else if (entry.upload && isPaused(entry.upload)) {
        this.batch.settle(
          entry.line,
          '!',
          `${lineLabel(entry.file)}  staging id ${entry.upload.staging_id} · ${pausedText(this.kind, entry.upload)}`,
        );
      } else if (entry.upload) {
        const changed = entry.changed
          ? ` · ${entry.changed}`
          : entry.retried === undefined
            ? ''
            : ` · ${retriedText(entry.retried)}`;
        this.batch.settle(
          entry.line,
          '✓',
          `${lineLabel(entry.file)}  ${formatBytes(entry.file.size)}  staging id ${entry.upload.staging_id} · ${entry.upload.staging_stage}${changed}`,
        );
      }
      return;
    }
    if (!this.batch.linesPerFile) return;
    if (problem) {
      this.batch.problem(name, problem.message, problem.details);
      return;
    }
    const upload = entry.upload as UploadRecord;
    if (isPaused(upload)) {
      this.batch.say(
        `${wentAs(entry)} ${name} (${formatBytes(entry.file.size)}): staging id ${upload.staging_id}, ${pausedText(this.kind, upload)}`,
      );
    } else if (this.wait && entry.watched) {
      const id = entry.watched.progress.resultId;
      this.batch.say(`processed ${name}: staging id ${upload.staging_id}, ${this.kind} ${id ?? '?'} completed`);
    } else {
      const follow = this.actions ? '' : `; follow it with \`${statusCommand(this.kind, upload.staging_id)}\``;
      this.uploadedUnwatched++;
      this.batch.say(
        `${wentAs(entry)} ${name} (${formatBytes(entry.file.size)}${entry.changed ? `, ${entry.changed}` : ''}): staging id ${upload.staging_id}, ${upload.staging_stage}${follow}`,
      );
    }
  }

  close(): void {
    this.batch.close();
    // Through the guard, in order after the lines it holds.
    if (this.actions?.grouped) void writeWorkflowCommands(this.ctx.io.stderr, '::endgroup::\n');
  }

  /** An Actions log's follow-up, once for the batch: each uploaded file's line left it out. */
  followUp(): void {
    if (!this.actions || this.uploadedUnwatched === 0) return;
    this.ctx.output.info(
      `processing goes on in the service: follow an upload with \`${statusCommand(this.kind, '<staging-id>')}\` (the staging ids are above and in the step's outputs)`,
    );
  }

  /** On a terminal the live lines showed ✗; the messages with their details follow them. */
  errors(entries: UploadEntry[]): void {
    if (!this.batch.isLive) return;
    for (const entry of entries) {
      const problem = this.problems.get(entry);
      if (problem) this.batch.problem(label(entry.file), problem.message, problem.details);
    }
  }
}

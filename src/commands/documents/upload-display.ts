// What `pds upload` shows while it works (see batch-display.ts for where it goes).
import { basename } from 'node:path';
import type { Context } from '../../lib/context.js';
import type { DocumentKind, DocumentProcesses, UploadRecord } from '../../lib/api/documents.js';
import { InterruptedError, PdsError } from '../../lib/errors.js';
import { formatBytes, type LocalUpload } from '../../lib/upload.js';
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
}

export const label = (file: LocalUpload): string => (file.arg === '-' ? `stdin (${file.fileName})` : file.arg);

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
  if (watched.timedOut) {
    return new PdsError(`still processing after ${waitTimeout} s (staging id ${id})`, {
      details: [`check again with \`${statusCommand(kind, id)}\`, or raise --wait-timeout`],
    });
  }
  return undefined;
}

/** What `pds upload` says of each file, through the display every batch of files shares. */
export class UploadDisplay {
  private readonly problems = new Map<UploadEntry, PdsError>();

  private constructor(
    private readonly batch: BatchDisplay,
    private readonly kind: DocumentKind,
    private readonly wait: boolean,
    private readonly waitTimeout: number,
  ) {}

  static async create(ctx: Context, kind: DocumentKind, wait: boolean, waitTimeout: number): Promise<UploadDisplay> {
    return new UploadDisplay(await BatchDisplay.create(ctx), kind, wait, waitTimeout);
  }

  queued(entry: UploadEntry): void {
    entry.line = this.batch.add('·', `${lineLabel(entry.file)}  ${formatBytes(entry.file.size)}  waiting`);
  }

  /** Bytes sent by pds, and the percent the service says it received. */
  progress(entry: UploadEntry): void {
    const percent = entry.total > 0 ? Math.floor((entry.sent * 100) / entry.total) : 0;
    const service = entry.servicePercent === undefined ? '' : ` · service ${entry.servicePercent}%`;
    this.batch.set(entry.line, '↑', `${lineLabel(entry.file)}  ${formatBytes(entry.sent)} / ${formatBytes(entry.total)}  ${percent}% sent${service}`);
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
    const problem = entry.error ?? waitProblem(entry, this.kind, this.waitTimeout);
    if (problem) this.problems.set(entry, problem);
    const name = label(entry.file);
    if (this.batch.isLive) {
      if (entry.error) this.batch.settle(entry.line, '✗', `${lineLabel(entry.file)}  ${entry.error.message}`);
      else if (entry.upload && entry.watched) {
        const mark = entry.watched.progress.outcome === 'completed' ? '✓' : entry.watched.progress.outcome === 'failed' ? '✗' : '!';
        const state = entry.watched.timedOut ? `still running after ${this.waitTimeout} s` : briefOf(this.kind, entry.watched.progress);
        this.batch.settle(entry.line, mark, `${lineLabel(entry.file)}  staging id ${entry.upload.staging_id} · ${state}`);
      } else if (entry.upload) {
        this.batch.settle(entry.line, '✓', `${lineLabel(entry.file)}  ${formatBytes(entry.file.size)}  staging id ${entry.upload.staging_id} · ${entry.upload.staging_stage}`);
      }
      return;
    }
    if (!this.batch.linesPerFile) return;
    if (problem) {
      this.batch.problem(name, problem.message, problem.details);
      return;
    }
    const upload = entry.upload as UploadRecord;
    if (this.wait && entry.watched) {
      const id = entry.watched.progress.resultId;
      this.batch.say(`processed ${name}: staging id ${upload.staging_id}, ${this.kind} ${id ?? '?'} completed`);
    } else {
      this.batch.say(
        `uploaded ${name} (${formatBytes(entry.file.size)}): staging id ${upload.staging_id}, ${upload.staging_stage}; follow it with \`${statusCommand(this.kind, upload.staging_id)}\``,
      );
    }
  }

  close(): void {
    this.batch.close();
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

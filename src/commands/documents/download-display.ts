// What `pds contracts download` and `pds statements download` show while they work (see
// batch-display.ts for where it goes).
import type { Context } from '../../lib/context.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { InterruptedError, type PdsError } from '../../lib/errors.js';
import type { Saved } from '../../lib/transfer/download.js';
import { formatBytes } from '../../lib/output/text.js';
import { BatchDisplay } from './batch-display.js';

/** One record's file in a download: where it goes, how far it came, and how it ended. */
export interface DownloadEntry {
  id: string;
  line?: number;
  path?: string;
  received: number;
  total?: number;
  saved?: Saved;
  error?: PdsError;
  /** --dry-run: where it would be saved (the link was read, the file not fetched). */
  planned?: boolean;
}

/** What a download says of each file, through the display every batch of files shares. */
export class DownloadDisplay {
  private constructor(
    private readonly ctx: Context,
    private readonly kind: DocumentKind,
    private readonly batch: BatchDisplay,
  ) {}

  /** With `-o -` the file is the output: a piped stderr gets no line for it. */
  static async create(ctx: Context, kind: DocumentKind, toStdout: boolean): Promise<DownloadDisplay> {
    return new DownloadDisplay(ctx, kind, await BatchDisplay.create(ctx, { piped: !toStdout }));
  }

  queued(entry: DownloadEntry): void {
    entry.line = this.batch.add('·', `${this.kind} ${entry.id}  waiting`);
  }

  started(entry: DownloadEntry): void {
    this.progress(entry);
  }

  progress(entry: DownloadEntry): void {
    const total =
      entry.total === undefined
        ? ''
        : ` / ${formatBytes(entry.total)}  ${entry.total > 0 ? Math.floor((entry.received * 100) / entry.total) : 100}%`;
    this.batch.set(entry.line, '↓', `${this.kind} ${entry.id} → ${entry.path}  ${formatBytes(entry.received)}${total}`);
  }

  finished(entry: DownloadEntry): void {
    if (entry.error instanceof InterruptedError) return;
    const name = `${this.kind} ${entry.id}`;
    if (this.batch.isLive) {
      if (entry.error) this.batch.settle(entry.line, '✗', `${name}  ${this.reason(entry)}`);
      else if (entry.saved?.upToDate) this.batch.settle(entry.line, '=', `${name} → ${entry.path}  up to date`);
      else if (entry.saved)
        this.batch.settle(entry.line, '✓', `${name} → ${entry.path}  ${formatBytes(entry.saved.bytes)}`);
      return;
    }
    if (entry.error) return; // said by errors() (several) or by the error handler (one)
    if (entry.saved?.upToDate) this.batch.say(`${name}: ${entry.path} is up to date`);
    else if (entry.saved) this.batch.say(`${name}: saved ${entry.path} (${formatBytes(entry.saved.bytes)})`);
  }

  close(): void {
    this.batch.close();
  }

  /** Why a file failed, beside the record's name: without that name again at its start. */
  private reason(entry: DownloadEntry): string {
    const message = entry.error?.message ?? '';
    const subject = `${this.kind} ${entry.id} `;
    return message.startsWith(subject) ? message.slice(subject.length) : message;
  }

  /** The failures of a batch, with their details, after the lines. */
  errors(entries: DownloadEntry[]): void {
    if (this.ctx.output.isData) return;
    for (const entry of entries)
      if (entry.error)
        this.batch.problem(`${this.kind} ${entry.id}`, this.reason(entry), entry.error.details, entry.error.requestId);
  }
}

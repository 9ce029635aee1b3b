// How a batch of files (`pds upload`, `pds contracts download`) runs its work: at most
// --concurrency files at once, started in order; no new file once Ctrl-C came or the batch stopped
// itself (a service without downloads); and a file that fails after Ctrl-C failed by the
// interruption, not by whatever its cut connection said. Each command closes its own display once
// its work is done (an upload's waits outlast the batch's uploads).
import type { Context } from '../../lib/context.js';
import { InterruptedError, asPdsError, stopSignalOf, type PdsError } from '../../lib/errors.js';
import { pool } from '../../lib/transfer/pool.js';

export class BatchRun {
  private readonly stopping = new AbortController();

  constructor(
    private readonly ctx: Context,
    private readonly concurrency: number,
  ) {}

  /** Runs `work` over the items; resolves once every started item is done. */
  async each<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
    await pool(items, this.concurrency, AbortSignal.any([this.ctx.signal, this.stopping.signal]), work);
  }

  /** Starts no further item; those under way finish. */
  stop(): void {
    this.stopping.abort();
  }

  /** Ends the command as its stop asks (Ctrl-C: exit 130; SIGTERM: 143…), once a stop came. */
  throwIfStopped(): void {
    if (this.ctx.signal.aborted) throw new InterruptedError(stopSignalOf(this.ctx.signal));
  }

  /** A file's failure as it is reported: the interruption once Ctrl-C came, else `error` as `asError` words it. */
  failure(error: unknown, asError: (error: unknown) => PdsError = asPdsError): PdsError {
    return this.ctx.signal.aborted ? new InterruptedError() : asError(error);
  }
}

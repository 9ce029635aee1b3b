// How many uploads of a batch go at once: --concurrency, halved while a rate limit the service
// answered lasts (its wait from the 429), so the batch stops pressing a service that said stop.

export class RateGate {
  private active = 0;
  private limit: number;
  private readonly waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly concurrency: number) {
    this.limit = concurrency;
  }

  /** Resolves once the upload may go. */
  async enter(): Promise<void> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
  }

  leave(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  /** A 429 on an upload request, whose wait is `waitMs`: half as many at once until it has passed. */
  rateLimited(waitMs: number): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.limit = this.concurrency;
      for (const wake of this.waiting.splice(0)) wake();
    }, waitMs);
    // The batch's end is not held back by it.
    this.timer.unref();
  }

  close(): void {
    clearTimeout(this.timer);
    for (const wake of this.waiting.splice(0)) wake();
  }
}

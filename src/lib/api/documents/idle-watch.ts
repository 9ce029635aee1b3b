/** Aborts when nothing happened for `ms`; every `touch` restarts the count. */
export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private stopped = false;
  fired = false;

  constructor(readonly ms: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    // After stop, a body chunk still being pulled must not arm a timer that keeps the process alive.
    if (this.ms <= 0 || this.fired || this.stopped) return;
    this.last = Date.now();
    // One timer, re-armed lazily: touching on every 64 KiB chunk must stay cheap.
    this.timer ??= setTimeout(() => this.check(), this.ms);
  }

  private check(): void {
    const quiet = Date.now() - this.last;
    if (quiet >= this.ms) {
      this.fired = true;
      this.timer = undefined;
      this.controller.abort(new Error('upload stalled'));
      return;
    }
    this.timer = setTimeout(() => this.check(), this.ms - quiet);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

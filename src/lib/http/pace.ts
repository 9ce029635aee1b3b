// A command keeps to the service's rate limit before it is refused: the answers' rate-limit headers
// (X-RateLimit-Limit/-Remaining/-Reset, RateLimit-*) say how many requests the window has left and
// when it ends; once none are left, requests wait for the next window instead of being answered
// 429. That wait is the service's pace, not a retry: it does not draw on the retry budget.
import type { HttpResponse } from './transport.js';

interface Window {
  /** Requests the service said are left, less those sent since. */
  remaining: number;
  /** When the window ends (ms since the epoch); undefined while no answer of it has said. */
  resetAt: number | undefined;
  /** The window's size, when said: a new window is assumed to have it. */
  limit: number | undefined;
}

export interface PaceOptions {
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A window further off than this is not waited for (the request goes, and a 429 is the budget's to judge). */
  maxWaitMs: number;
  /** Told once per wait of 1 s or more. */
  notice?: (line: string) => void;
}

const header = (response: Pick<HttpResponse, 'headers'>, name: string): string | null =>
  response.headers.get(`x-ratelimit-${name}`) ?? response.headers.get(`ratelimit-${name}`);

/** A reset as a time: a Unix time in seconds or milliseconds, or seconds from now when small. */
function resetAtOf(value: string | null, now: number): number | undefined {
  const n = Number(value ?? Number.NaN);
  if (value === null || !Number.isFinite(n) || n < 0) return undefined;
  if (n > 1e12) return n;
  if (n > 1e9) return n * 1000;
  return now + n * 1000;
}

export class RatePacer {
  private window: Window | undefined;
  private waiting: Promise<void> | undefined;

  constructor(private readonly options: PaceOptions) {}

  /** What an answer says of the window (a 429's too). */
  update(response: Pick<HttpResponse, 'headers'>): void {
    const remaining = Number(header(response, 'remaining') ?? Number.NaN);
    if (!Number.isInteger(remaining) || remaining < 0) return;
    const resetAt = resetAtOf(header(response, 'reset'), this.options.now());
    const limit = Number(header(response, 'limit') ?? Number.NaN);
    const current = this.window;
    const said: Window = { remaining, resetAt, limit: Number.isInteger(limit) && limit > 0 ? limit : undefined };
    // Answers come back out of order: within a window the smallest count left is the truest; an
    // answer of an older window says nothing of this one.
    if (current === undefined || current.resetAt === undefined || resetAt === undefined) this.window = said;
    else if (resetAt > current.resetAt + 1000) this.window = said;
    else if (resetAt >= current.resetAt - 1000) current.remaining = Math.min(current.remaining, remaining);
  }

  /** Resolves when a request may go: at once while the window has some left, else when it ends. */
  async before(signal: AbortSignal): Promise<void> {
    for (;;) {
      const window = this.window;
      if (window === undefined || window.remaining > 0) {
        if (window) window.remaining--;
        return;
      }
      const waitMs = window.resetAt === undefined ? 0 : window.resetAt - this.options.now();
      if (waitMs <= 0 || waitMs > this.options.maxWaitMs) {
        this.nextWindow(window);
        continue;
      }
      this.waiting ??= this.waitFor(window, waitMs, signal);
      await this.waiting;
    }
  }

  private async waitFor(window: Window, waitMs: number, signal: AbortSignal): Promise<void> {
    if (waitMs >= 1000)
      this.options.notice?.(
        `rate limit reached${window.limit === undefined ? '' : ` (${window.limit} a window)`}: waiting ${Math.ceil(waitMs / 1000)} s for the service's next window (Ctrl-C to stop)`,
      );
    try {
      // To the window's end as said (a reset in seconds already ends on a whole second).
      await this.options.sleep(waitMs, signal);
      if (this.window === window) this.nextWindow(window);
    } finally {
      this.waiting = undefined;
    }
  }

  /** A retry waited what a 429 asked (the rest of the window): the next window has begun. */
  waitedOut(): void {
    if (this.window) this.nextWindow(this.window);
  }

  /** The window is over: the next is assumed whole until an answer of it says otherwise. */
  private nextWindow(window: Window): void {
    this.window =
      window.limit === undefined ? undefined : { remaining: window.limit, resetAt: undefined, limit: window.limit };
  }
}

// When and how long to wait before trying a request again: the per-command retry budget, backoff,
// and the waits a service asks for (Retry-After, the rate-limit headers).
import type { HttpResponse } from './transport.js';
import { type PdsError, RateLimitError } from '../errors.js';

/** The retry budget of a command that sets none (--retry-budget, PDS_RETRY_BUDGET, the retry-budget key). */
export const DEFAULT_RETRY_BUDGET_SECONDS = 60;

/**
 * The total time one command may spend waiting before retries. The default covers one whole
 * per-minute rate-limit window (the service limits "n per minute"; its Retry-After runs up to
 * 60 s): a script is better served by waiting once than by failing, and Ctrl-C ends the wait.
 *
 * It is charged by wall time: waits that run at the same time (four uploads of a batch told to
 * wait for the same window) cost the time they overlap once, not once each.
 */
export class RetryBudget {
  private spentMs = 0;
  /** When the latest of the waits still going ends. */
  private waitingUntil = 0;
  /** Waits taken and not yet over. */
  private active = 0;

  constructor(
    readonly totalMs: number = DEFAULT_RETRY_BUDGET_SECONDS * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  get leftMs(): number {
    return Math.max(0, this.totalMs - this.spentMs);
  }

  /**
   * Takes a wait of `ms` from the budget if it is there (only the part of it past the waits still
   * going); false, and nothing taken, if not. A wait taken is handed back with done().
   */
  take(ms: number): boolean {
    const now = this.now();
    const overlapEnd = this.active > 0 ? Math.max(now, this.waitingUntil) : now;
    const cost = Math.max(0, now + ms - overlapEnd);
    if (cost > this.leftMs) return false;
    this.spentMs += cost;
    this.waitingUntil = Math.max(overlapEnd, now + ms);
    this.active++;
    return true;
  }

  /** A wait taken is over (or was cut short). */
  done(): void {
    this.active = Math.max(0, this.active - 1);
  }
}

/** Waits from this long on are announced on stderr, so a silent terminal or CI log is not mistaken for a hang. */
export const NOTICE_WAIT_MS = 1_000;
const BACKOFF_BASE_MS = 250;

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/** Jittered exponential backoff: 125 ms plus up to 250 ms, 500 ms, 1 s, … */
export function backoff(attempt: number): number {
  return BACKOFF_BASE_MS / 2 + Math.random() * BACKOFF_BASE_MS * 2 ** attempt;
}

/** The keys of a `RateLimit` header: the early draft's words, the later one's letters (q is the quota). */
const RATELIMIT_KEYS = { limit: 'limit|q', remaining: 'remaining|r', reset: 'reset|t' } as const;

/**
 * The rate limit an answer states, in words ("limit 60, remaining 0, reset 42"), or '' when it
 * states none: RateLimit-Limit/-Remaining/-Reset, their X- forms, or one `RateLimit: limit=…,
 * remaining=…, reset=…` header (the IETF draft's two shapes).
 */
export function rateLimitText(response: Pick<HttpResponse, 'headers'>): string {
  const combined = response.headers.get('ratelimit') ?? '';
  const part = (name: keyof typeof RATELIMIT_KEYS): string | undefined => {
    const value = response.headers.get(`ratelimit-${name}`) ?? response.headers.get(`x-ratelimit-${name}`);
    if (value !== null) return value.trim();
    return new RegExp(`(?:^|[;,\\s])(?:${RATELIMIT_KEYS[name]})=(\\d+)`).exec(combined)?.[1];
  };
  return (Object.keys(RATELIMIT_KEYS) as (keyof typeof RATELIMIT_KEYS)[])
    .map((name) => [name, part(name)] as const)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => (name === 'reset' ? resetText(value as string) : `${name} ${value}`))
    .join(', ');
}

/**
 * A reset as a person reads it: `reset at 14:02:11` (UTC) for a Unix time (seconds or
 * milliseconds), `reset in 58 s` for seconds left; anything else as sent.
 */
function resetText(value: string, now = Date.now()): string {
  if (!/^\d+$/.test(value)) return `reset ${value}`;
  const n = Number(value);
  if (n <= 1e9) return `reset in ${n} s`;
  const at = new Date(n > 1e12 ? n : n * 1000);
  const inSeconds = Math.max(0, Math.ceil((at.getTime() - now) / 1000));
  return `reset at ${at.toISOString().slice(11, 19)} UTC, in ${inSeconds} s`;
}

/** A 429, or a 503 that names its wait: the service refused the request before acting on it. */
export function refusedBeforeActing(response: HttpResponse): boolean {
  return response.status === 429 || (response.status === 503 && response.headers.get('retry-after') !== null);
}

/** What the service asked for (Retry-After, else X-RateLimit-Reset on a 429), else backoff. */
export function retryDelay(response: HttpResponse, attempt: number): number {
  return askedDelay(response) ?? backoff(attempt);
}

/**
 * The wait the answer asks for, in ms, or undefined when it asks for none that makes sense.
 * Retry-After: seconds or an HTTP date; anything else (a negative number, a word) is ignored, and
 * X-RateLimit-Reset read instead.
 * X-RateLimit-Reset: a Unix time in seconds (docs/service.md), but also met in milliseconds, or as the seconds
 * left; told apart by size.
 */
export function askedDelay(response: HttpResponse): number | undefined {
  const retryAfter = response.headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
    // An HTTP date starts with its day's name; Date.parse alone would take "-5" for the year -5.
    const date = /^[A-Za-z]{3}/.test(retryAfter) ? Date.parse(retryAfter) : Number.NaN;
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const reset = Number(response.headers.get('x-ratelimit-reset') ?? NaN);
  if (response.status === 429 && Number.isFinite(reset) && reset >= 0) {
    const now = Date.now();
    if (reset > 1e12) return Math.max(0, reset - now); // Unix time in milliseconds
    if (reset > 1e9) return Math.max(0, reset * 1000 - now); // Unix time in seconds
    return reset * 1000; // seconds from now
  }
  return undefined;
}

/** How to wait longer: the flag, or under GitHub Actions the action's input for it (a workflow's `args:`). */
export function raiseBudgetHint(env: NodeJS.ProcessEnv): string {
  return env.GITHUB_ACTIONS === 'true'
    ? 'allow a longer wait: `args: --retry-budget <duration>` in the step (e.g. `args: --retry-budget 5m`), or lower the concurrency'
    : 'allow a longer wait with --retry-budget <duration> (e.g. --retry-budget 5m), or try again later';
}

/** The failure, told why it was not retried: the wait it needed is more than the budget has left. */
/** `asked`: the wait is the service's (Retry-After), so worth passing on; pds's own backoff is not. */
export function overBudget(
  failure: PdsError,
  waitMs: number,
  budget: RetryBudget,
  asked: boolean,
  hint?: string,
): PdsError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  if (asked && !(failure instanceof RateLimitError)) failure.details.push(`try again in ${seconds} s`);
  failure.details.push(
    budget.totalMs === 0
      ? 'not retried: the retry budget is 0 (--retry-budget, PDS_RETRY_BUDGET or the retry-budget config key)'
      : `not retried: a wait of ${seconds} s is more than the ${Math.floor(budget.leftMs / 1000)} s left of the ${budget.totalMs / 1000} s retry budget (--retry-budget)`,
  );
  if (budget.totalMs > 0 && hint !== undefined) failure.details.push(hint);
  return failure;
}

/**
 * The wait to take when it is announced, rounded up to the whole seconds the notice names, so the
 * wait said is the wait taken (rounding up never retries before the service asked); 0 stays 0.
 */
export function announcedWait(waitMs: number): number {
  return Math.ceil(waitMs / 1000) * 1000;
}

/** The notice's words for an announced wait. */
export const waitText = (waitMs: number): string => (waitMs === 0 ? 'retrying now' : `retrying in ${waitMs / 1000} s`);

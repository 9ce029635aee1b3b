// What a request meets before any handler: the host check, the rate limit, latency and injected faults.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { HttpError, type EmulatorOptions } from './http.js';
import type { Rng } from './seed.js';

const DEFAULT_WINDOW_MS = 60_000;
/** What the headers announce when no limit is set: clients that pace themselves never need to. */
const UNLIMITED = 1_000_000;

interface RateDecision {
  headers: Record<string, string>;
  /** Seconds until the window resets, when this request is over the limit. */
  retryAfter?: number;
}

/** A fixed window per key (60 s unless told) (the token, or the client address when there is none). */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number = DEFAULT_WINDOW_MS,
  ) {}

  hit(key: string, now: number): RateDecision {
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs) {
      if (this.windows.size > 10_000) this.prune(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    const limit = this.limit > 0 ? this.limit : UNLIMITED;
    const resetMs = window.start + this.windowMs;
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - window.count)),
      // A Unix time in seconds, as services send it; a window under a second (a test's) could not
      // say its end so, and says it in milliseconds (clients read a time past 1e12 as such).
      'x-ratelimit-reset': String(this.windowMs < 1000 ? resetMs : Math.ceil(resetMs / 1000)),
    };
    if (this.limit > 0 && window.count > this.limit) {
      return { headers, retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)) };
    }
    return { headers };
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now >= window.start + this.windowMs) this.windows.delete(key);
  }
}

export const bearer = (req: IncomingMessage): string =>
  /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What comes before any handler: the host check, the rate limit, the latency asked for and an
 * injected fault. Throws the refusal.
 */
export async function admit(
  req: IncomingMessage,
  res: ServerResponse,
  options: EmulatorOptions,
  limiter: RateLimiter,
  faults: Rng,
): Promise<void> {
  if (!ownHost(req.headers.host, options.host)) {
    throw new HttpError(
      421,
      `this emulator answers only to its own address (${options.host}, localhost or an IP address), not to '${req.headers.host ?? ''}'`,
    );
  }
  const token = bearer(req);
  const rate = limiter.hit(token ? `token:${token}` : `address:${req.socket.remoteAddress ?? ''}`, Date.now());
  for (const [name, value] of Object.entries(rate.headers)) res.setHeader(name, value);
  const injectFault = faults.next() < options.failRate;
  if (options.latencyMs > 0) await sleep(options.latencyMs);
  // Both refusals come before any handler, so a refused upload leaves nothing behind.
  if (rate.retryAfter !== undefined) {
    throw new HttpError(429, 'rate limit exceeded', { 'retry-after': String(rate.retryAfter) });
  }
  if (injectFault) throw new HttpError(503, 'service unavailable (injected fault)', { 'retry-after': '1' });
}

/**
 * Whether a request's Host names this emulator: an IP address, `localhost`, or the --host it was
 * given. A page of another site whose name was rebound to 127.0.0.1 (DNS rebinding) still sends
 * its own name, and would otherwise drive the emulator, tokens included, from the browser.
 */
export function ownHost(header: string | undefined, listening: string): boolean {
  if (header === undefined) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${header}`).hostname;
  } catch {
    return false;
  }
  const bare = hostname.replace(/^\[|\]$/g, '');
  return hostname === 'localhost' || isIP(bare) !== 0 || bare === listening.replace(/^\[|\]$/g, '').toLowerCase();
}

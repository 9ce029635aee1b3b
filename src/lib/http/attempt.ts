// One attempt's abort (Ctrl-C, a caller's signal, the timeout) and the shapes of its answer's body,
// made cheap enough for the thousands of requests of an `--all`.
import { whenAborted } from './abort-fanout.js';
import type { AbortSource, HttpResponse } from './transport.js';

/** The answer, calling `release` once its body has been read (or reading it failed). */
export function releasedAfterBody(response: HttpResponse, release: () => void): HttpResponse {
  const source = response.body;
  return {
    ...response,
    text: async (maxBytes) => {
      try {
        return await response.text(maxBytes);
      } finally {
        release();
      }
    },
    body: (async function* () {
      try {
        yield* source;
      } finally {
        release();
      }
    })(),
  };
}

/**
 * The abort of one attempt, which the transport listens to. Not an AbortController: Node's costs
 * some 20 µs to make, and an `--all` of 100,000 records makes a thousand of them (measured: 4% of
 * its CPU). A listener added after the abort is not called, as with an AbortSignal.
 */
class AttemptAbort implements AbortSource {
  aborted = false;
  reason: unknown;
  private listeners: (() => void)[] = [];

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of this.listeners.splice(0)) listener();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }
}

/**
 * The signal of one attempt: aborted by any of `sources` or after `timeoutMs` (0: never). `release`
 * drops the timer and lets go of the sources at once. (AbortSignal.any with AbortSignal.timeout keeps
 * each attempt's timer and signal alive for the whole timeout after the answer: thousands of them
 * over an `--all` of 100,000 records.)
 */
export function attemptSignal(sources: AbortSignal[], timeoutMs: number): { signal: AbortSource; release(): void } {
  const attempt = new AttemptAbort();
  const unfollow = sources.map((source) => follow(source, attempt));
  const timer =
    timeoutMs > 0
      ? setTimeout(() => attempt.abort(new DOMException('the request timed out', 'TimeoutError')), timeoutMs)
      : undefined;
  return {
    signal: attempt,
    release: () => {
      if (timer) clearTimeout(timer);
      for (const stop of unfollow) stop();
    },
  };
}

/** Makes `source` abort `attempt` until the returned function is called (one listener per source). */
function follow(source: AbortSignal, attempt: AttemptAbort): () => void {
  return whenAborted(source, (reason) => attempt.abort(reason));
}

/**
 * The answer with its body already read. The body iterable makes its generator only when iterated:
 * an async generator object made per answer and never run (the usual case) was measured to keep
 * the young generation growing over an `--all` of 100,000 records (32 MB of semi-spaces, not 8).
 */
export function buffered(response: HttpResponse, text: string): HttpResponse {
  return {
    ...response,
    text: async () => text,
    body: {
      async *[Symbol.asyncIterator]() {
        yield Buffer.from(text);
      },
    },
  };
}

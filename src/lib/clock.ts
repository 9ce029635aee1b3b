// Time, injectable: tests and `--watch` loops sleep through it, and Ctrl-C cuts a sleep short.
import { whenAborted } from './http/abort-fanout.js';
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  // However many sleep on one signal at once (a batch's waits), it gets one abort listener.
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(() => {
        unfollow();
        resolve();
      }, ms);
      const unfollow = signal
        ? whenAborted(signal, (reason) => {
            clearTimeout(timer);
            reject(reason);
          })
        : () => undefined;
    }),
};

const DURATION_UNITS_SECONDS = { h: 3600, m: 60, s: 1, ms: 0.001 } as const;

/**
 * A duration as people write it, in seconds: `90` (plain seconds), `90s`, `1.5s`, `500ms`, `5m`,
 * `1h`, `1m30s`, `1h05m` (gh and kubectl take the same); undefined for anything else (a negative
 * number, a unit it does not know, an empty string). Every flag, variable, config key and action
 * input that takes seconds reads them through this one parser.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  // Units largest first, each at most once: `1h30m`, `2m5s`; `5s3m` and `5mm` are no durations.
  const match = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/i.exec(
    trimmed,
  );
  if (!match || trimmed === '') return undefined;
  const [, h, m, s, ms] = match;
  const parts: [string | undefined, number][] = [
    [h, DURATION_UNITS_SECONDS.h],
    [m, DURATION_UNITS_SECONDS.m],
    [s, DURATION_UNITS_SECONDS.s],
    [ms, DURATION_UNITS_SECONDS.ms],
  ];
  // Rounded to the millisecond, so `0.1s` is 0.1 and not 0.10000000000000002.
  return (
    Math.round(parts.reduce((sum, [value, unit]) => sum + (value === undefined ? 0 : Number(value) * unit), 0) * 1000) /
    1000
  );
}

/** The words a message about a bad duration uses for what it takes. */
export const DURATION_FORMS = '90, 90s, 5m, 1h or 1m30s';

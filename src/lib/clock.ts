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

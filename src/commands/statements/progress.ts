// Long reads look like long work: on a terminal, statements read of how many, lines so far and an
// estimate of the time left, on one line of stderr that is cleared at the end. Piped or under CI
// the spinner draws nothing (Output.spinner decides).
import type { Context } from '../../lib/context.js';

export type ProgressUpdate = (read: number, total: number, lines: number) => void;

/** `12/400 statements · 30,000 lines · about 8s left`. */
export function progressLine(read: number, total: number, lines: number, elapsedMs: number): string {
  const left = read === 0 ? undefined : Math.ceil(((total - read) * elapsedMs) / read / 1000);
  const eta = left === undefined || read === total ? '' : ` · about ${left}s left`;
  return `${read}/${total} statements · ${lines.toLocaleString('en-US')} lines${eta}`;
}

/** Runs `work` with a progress line it updates; the line is gone when work ends, however it ends. */
export async function withProgress<T>(ctx: Context, work: (update: ProgressUpdate) => Promise<T>): Promise<T> {
  const started = Date.now();
  const spinner = await ctx.output.spinner('reading the lines exports');
  try {
    return await work((read, total, lines) => spinner.update(progressLine(read, total, lines, Date.now() - started)));
  } finally {
    spinner.stop();
  }
}

import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { defaultOptions } from '../../emulator/server.js';
import { serveFromCli } from '../../emulator/cli.js';
import type { EmulatorOptions } from '../../emulator/http.js';

/** A number from a flag's string, within bounds; `integer` rejects fractions. */
function numberFlag(flag: string, { min, max, integer }: { min: number; max?: number; integer: boolean }) {
  const range = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
  const kind = integer ? 'a whole number' : 'a number';
  return z.pipe(
    z.string(),
    z.transform((value, ctx) => {
      const n = Number(value);
      const shaped = integer ? /^\s*-?\d+\s*$/.test(value) : value.trim() !== '';
      if (!shaped || !Number.isFinite(n) || n < min || (max !== undefined && n > max)) {
        ctx.issues.push({ code: 'custom', input: value, message: `invalid ${flag} '${value}': expected ${kind} ${range}` });
        return z.NEVER;
      }
      return n;
    }),
  );
}

/** It reads no profile: a --profile or PDS_PROFILE of the shell does not stop it. */
export const allowsNewProfile = true;

export const Options = z.object({
  args: z.tuple([]),
  port: z.optional(numberFlag('--port', { min: 0, max: 65_535, integer: true })),
  host: z.optional(z.string().check(z.minLength(1, 'invalid --host: empty'))),
  data: z.optional(z.string().check(z.minLength(1, 'invalid --data: empty'))),
  scale: z.optional(numberFlag('--scale', { min: 1, max: 1000, integer: true })),
  latency: z.optional(numberFlag('--latency', { min: 0, integer: true })),
  failRate: z.optional(numberFlag('--fail-rate', { min: 0, max: 1, integer: false })),
  rateLimit: z.optional(numberFlag('--rate-limit', { min: 0, integer: true })),
  processingMs: z.optional(numberFlag('--processing-ms', { min: 0, integer: true })),
  seed: z.optional(numberFlag('--seed', { min: 0, integer: true })),
  drift: z.optional(z.boolean()),
  urlTtl: z.optional(numberFlag('--url-ttl', { min: 0, integer: true })),
  tokenTtl: z.optional(numberFlag('--token-ttl', { min: 1, integer: true })),
  flavor: z.optional(z.enum(['current', 'seed'], { error: (issue) => `invalid --flavor '${String(issue.input)}': expected current or seed` })),
  pauseUploads: z.optional(z.boolean()),
});

export async function run(opts: z.infer<typeof Options>, ctx: Context): Promise<number> {
  const options: EmulatorOptions = {
    ...defaultOptions,
    ...(opts.port === undefined ? {} : { port: opts.port }),
    ...(opts.host === undefined ? {} : { host: opts.host }),
    ...(opts.data === undefined ? {} : { dataFile: opts.data }),
    ...(opts.scale === undefined ? {} : { scale: opts.scale }),
    ...(opts.latency === undefined ? {} : { latencyMs: opts.latency }),
    ...(opts.failRate === undefined ? {} : { failRate: opts.failRate }),
    ...(opts.rateLimit === undefined ? {} : { rateLimit: opts.rateLimit }),
    ...(opts.processingMs === undefined ? {} : { processingMs: opts.processingMs }),
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
    drift: opts.drift === true,
    ...(opts.urlTtl === undefined ? {} : { urlTtlSeconds: opts.urlTtl }),
    ...(opts.tokenTtl === undefined ? {} : { tokenTtlSeconds: opts.tokenTtl }),
    ...(opts.flavor === undefined ? {} : { flavor: opts.flavor }),
    pauseUploads: opts.pauseUploads === true,
    // commander hands --quiet to the global -q/--quiet, whose meaning (nothing but errors) fits.
    quiet: ctx.settings.quiet,
  };
  // A service manager (or `kill`) stops it with SIGTERM: stop as cleanly as on Ctrl-C.
  const stop = new AbortController();
  const onTerm = () => stop.abort();
  process.once('SIGTERM', onTerm);
  try {
    // serveFromCli resolves when a signal stops the server; its code is ours.
    return await serveFromCli(options, { stdout: ctx.io.stdout, stderr: ctx.io.stderr }, AbortSignal.any([ctx.signal, stop.signal]));
  } finally {
    process.off('SIGTERM', onTerm);
  }
}

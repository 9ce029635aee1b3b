import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { requireFullBuild } from '../../lib/ci/action-build.js';
import type { EmulatorOptions } from '../../emulator/http.js';
import { parseSize } from '../../lib/transfer/sizes.js';
import type { start } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof start>;

/** --statements N [--lines L]; --lines alone says nothing and is refused. */
function manyStatementsOf(opts: Options): Pick<EmulatorOptions, 'manyStatements'> {
  if (opts.statements === undefined) {
    if (opts.lines !== undefined) throw new UsageError('--lines sets the lines of --statements: give both');
    return {};
  }
  return { manyStatements: { count: opts.statements, lines: opts.lines ?? 2500 } };
}

export async function run(opts: Options, ctx: Context): Promise<number> {
  // The emulator cannot run from the action's one-file build (its sandbox needs the copy of
  // just-bash in dist/), so that build leaves it out, and its modules load only past this check.
  requireFullBuild('pds emulator');
  const [{ defaultOptions }, { serveFromCli }] = await Promise.all([
    import('../../emulator/server.js'),
    import('../../emulator/cli.js'),
  ]);
  const options: EmulatorOptions = {
    ...defaultOptions,
    ...(opts.port === undefined ? {} : { port: opts.port }),
    ...(opts.host === undefined ? {} : { host: opts.host }),
    ...(opts.data === undefined ? {} : { dataFile: opts.data }),
    ...(opts.scale === undefined ? {} : { scale: opts.scale }),
    ...manyStatementsOf(opts),
    ...(opts.exportSize === undefined ? {} : { exportBytes: parseSize('--export-size', opts.exportSize) }),
    ...(opts.latency === undefined ? {} : { latencyMs: opts.latency }),
    ...(opts.failRate === undefined ? {} : { failRate: opts.failRate }),
    ...(opts.rateLimit === undefined ? {} : { rateLimit: opts.rateLimit }),
    ...(opts.rateWindow === undefined ? {} : { rateWindowMs: Math.round(opts.rateWindow * 1000) }),
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
  // serveFromCli resolves when a signal stops the server (Ctrl-C, or SIGTERM from a service
  // manager or `kill`, which abort ctx.signal alike); its code is ours.
  return await serveFromCli(options, { stdout: ctx.io.stdout, stderr: ctx.io.stderr }, ctx.signal);
}

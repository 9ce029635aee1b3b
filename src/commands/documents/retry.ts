// `pds contracts|statements retry <staging-id>`: a paused upload queued again (docs/service.md).
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import type { RetryOptions } from './definitions.js';
import { retryCommand } from './upload-display.js';
import { statusCommand } from './processes.js';

export async function run(opts: RetryOptions, ctx: Context): Promise<void> {
  const raw = opts.args[0];
  if (!/^\d{1,15}$/.test(raw)) throw new UsageError(`invalid staging id '${raw}': expected a whole number`);
  const projectId = ctx.project();
  if (ctx.settings.dryRun) {
    ctx.output.info(`Would queue ${opts.kind} staging ${raw} again; nothing was sent (--dry-run)`);
    return;
  }
  const result = await ctx.api.documents.retry(opts.kind, projectId, Number(raw));
  await ctx.output.record(result, 'staging_id');
  if (result.status === 'paused') {
    const quota =
      typeof result.current_count === 'number' && typeof result.limit === 'number'
        ? ` (${result.current_count} of ${result.limit})`
        : '';
    ctx.output.warn(
      `the service keeps staging ${result.staging_id} paused${quota}; try again later with \`${retryCommand(opts.kind, result.staging_id)}\``,
    );
  } else {
    ctx.output.info(`follow it with \`${statusCommand(opts.kind, result.staging_id)}\``);
  }
}

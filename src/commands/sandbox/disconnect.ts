// `pds sandbox disconnect`: ends the project's sandbox session.
import type { Context } from '../../lib/context.js';
import type { disconnect } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof disconnect>;

export async function run(_opts: Options, ctx: Context): Promise<void> {
  const projectId = ctx.project();
  const result = await ctx.api.sandbox.disconnect(projectId);
  if (await ctx.output.asData(result)) return;
  ctx.output.info(`sandbox of project ${projectId}: ${result.status}`);
}

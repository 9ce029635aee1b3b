// `pds sandbox disconnect`: ends the project's sandbox session.
import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';

export const scripting = ['jq'] as const;

export const Options = z.object({ args: z.tuple([]) });

export async function run(_opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const projectId = ctx.project();
  const result = await ctx.api.sandbox.disconnect(projectId);
  if (ctx.settings.json) {
    ctx.output.json(result);
    return;
  }
  ctx.output.info(`sandbox of project ${projectId}: ${result.status}`);
}

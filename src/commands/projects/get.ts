import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { Project } from '../../lib/schemas.js';
import { schemaFields } from '../../lib/fields.js';

export const paged = true;

export const scripting = ['jq', 'fields'] as const;

export const Options = z.object({ args: z.tuple([z.optional(z.string())]) });

export async function run(opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  ctx.output.checkFields(schemaFields(Project), 'projects');
  const projectId = ctx.project(opts.args[0]);
  await ctx.output.record(await ctx.api.projects.get(projectId));
}

import type { Context } from '../../lib/context.js';
import { Project } from '../../lib/schemas.js';
import { schemaFields } from '../../lib/output/fields.js';
import type { get } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof get>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  ctx.output.checkFields(schemaFields(Project), 'projects');
  const projectId = ctx.project(opts.args[0]);
  await ctx.output.record(await ctx.api.projects.get(projectId));
}

import type { Context } from '../../lib/context.js';
import { Project } from '../../lib/schemas.js';
import { schemaFields } from '../../lib/output/fields.js';
import type { get } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';
import { personViewOf } from '../catalog/record-views.js';

type Options = OptionsOf<typeof get>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  ctx.output.checkFields(schemaFields(Project), 'projects');
  const projectId = ctx.project(opts.args[0]);
  const project = await ctx.api.projects.get(projectId);
  // A terminal gets the project as a person reads it; --fields and --jq pick from it as it came.
  const read = ctx.output.jq === undefined && ctx.output.fields === undefined;
  await ctx.output.record(
    project,
    'id',
    read
      ? () => personViewOf('projects', project as Record<string, unknown>, { verbose: ctx.settings.verbose })
      : undefined,
  );
}

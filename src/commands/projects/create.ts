// `pds projects create <name>`: POST /v1/projects (docs/service.md); prints the new project.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import type { create } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof create>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const name = opts.args[0].trim();
  if (name === '' || name.length > 200) throw new UsageError('a project name is 1 to 200 characters');
  if (ctx.settings.dryRun) {
    ctx.output.info(
      `Would create project '${name}'${opts.entityName ? ` for ${opts.entityName.trim()}` : ''}; nothing was sent (--dry-run)`,
    );
    return;
  }
  const project = await ctx.api.projects.create(name, opts.entityName?.trim());
  await ctx.output.record(project);
  ctx.output.info(`make it the default with \`pds use ${project.id}\``);
}

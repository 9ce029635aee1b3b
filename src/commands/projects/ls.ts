import type { Context } from '../../lib/context.js';
import { projectColumns } from './view.js';
import { Project } from '../../lib/schemas.js';
import { schemaFields } from '../../lib/fields.js';
import type { ls } from './index.js';
import type { OptionsOf } from '../../lib/verb.js';

type Options = OptionsOf<typeof ls>;

export async function run(_opts: Options, ctx: Context): Promise<void> {
  const fields = schemaFields(Project);
  ctx.output.checkFields(fields, 'projects');
  const projects = await ctx.api.projects.list();
  async function* single() {
    yield { items: projects, page: 1, perPage: projects.length, total: projects.length };
  }
  await ctx.output.list(single(), { columns: projectColumns, id: (p) => p.id, noun: 'projects', all: true, fields });
}

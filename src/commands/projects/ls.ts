import type { Context } from '../../lib/context.js';
import { projectColumns } from './view.js';
import type { Project } from '../../lib/schemas.js';
import { PROJECT_SHAPE, shapeFields } from '../../lib/api/shapes.js';
import type { ls } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof ls>;

export async function run(_opts: Options, ctx: Context): Promise<void> {
  const fields = shapeFields(PROJECT_SHAPE);
  ctx.output.checkFields(fields, 'projects');
  const projects = await ctx.api.projects.list();
  async function* single() {
    yield { items: projects, page: 1, perPage: projects.length, total: projects.length };
  }
  // On a terminal the current project is marked; data formats and TSV keep the service's fields.
  const current = ctx.settings.project?.toLowerCase();
  const columns =
    ctx.output.mode === 'table'
      ? [{ header: '', value: (p: Project) => (p.id === current ? '*' : '') }, ...projectColumns]
      : projectColumns;
  await ctx.output.list(single(), { columns, id: (p) => p.id, noun: 'projects', all: true, fields });
}

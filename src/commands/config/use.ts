import type { Context } from '../../lib/context.js';
import { updateProfile } from '../../lib/config.js';
import { UsageError } from '../../lib/errors.js';
import { UUID_PATTERN, type Project } from '../../lib/schemas.js';
import type { use } from './index.js';
import type { OptionsOf } from '../../lib/verb.js';

type Options = OptionsOf<typeof use>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const wanted = opts.args[0].trim();
  const project = UUID_PATTERN.test(wanted) ? await ctx.api.projects.get(wanted.toLowerCase()) : await byName(wanted, ctx);
  const { profile } = ctx.settings;
  await updateProfile(ctx.env, profile, (stored) => ({ ...stored, project: project.id }));
  ctx.output.info(`Now using ${project.name} (${project.id})`);
  if (ctx.env.PDS_PROJECT && ctx.env.PDS_PROJECT !== project.id) {
    ctx.output.warn(`PDS_PROJECT is set in this environment and overrides the profile's project`);
  }
}

/** Exact names only: a near match picked silently would aim every later command at the wrong project. */
async function byName(name: string, ctx: Context): Promise<Project> {
  const projects = await ctx.api.projects.list();
  const matches = projects.filter((p) => p.name === name);
  const [only] = matches;
  if (matches.length === 1 && only) return only;
  const candidates = (matches.length > 1 ? matches : projects).map((p) => `${p.id}  ${p.name}`);
  if (matches.length > 1) {
    throw new UsageError(`${matches.length} projects are named '${name}': use the id`, { details: candidates });
  }
  throw new UsageError(`no project named '${name}'`, {
    details: projects.length > 0 ? ['projects this token reaches:', ...candidates.map((c) => `  ${c}`)] : ['this token reaches no projects'],
  });
}

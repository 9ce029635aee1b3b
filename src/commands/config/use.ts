import type { Context } from '../../lib/context.js';
import { updateProfile } from '../../lib/config/profiles.js';
import { UUID_PATTERN } from '../../lib/schemas.js';
import { projectByName as byName } from '../../lib/project-name.js';
import type { use } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';
import { projectLabel } from '../projects/view.js';

type Options = OptionsOf<typeof use>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const wanted = opts.args[0].trim();
  const project = UUID_PATTERN.test(wanted)
    ? await ctx.api.projects.get(wanted.toLowerCase())
    : await byName(wanted, ctx.api);
  const { profile } = ctx.settings;
  if (ctx.settings.dryRun) {
    ctx.output.info(
      `Would use ${projectLabel(project)} (${project.id}) in profile ${profile}; nothing was written (--dry-run)`,
    );
    return;
  }
  await updateProfile(
    ctx.env,
    profile,
    (stored) => ({ ...stored, project: project.id }),
    undefined,
    (line) => ctx.output.warn(line),
  );
  ctx.output.info(`Now using ${projectLabel(project)} (${project.id})`);
  if (ctx.env.PDS_PROJECT && ctx.env.PDS_PROJECT !== project.id) {
    ctx.output.warn(`PDS_PROJECT is set in this environment and overrides the profile's project`);
  }
}

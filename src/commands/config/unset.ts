import type { Context } from '../../lib/context.js';
import { readProfile, updateProfile } from '../../lib/config/profiles.js';
import { configKey } from './keys.js';
import type { unset } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof unset>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const key = configKey(opts.args[0]);
  const { profile } = ctx.settings;
  if (readProfile(ctx.env, profile)[key] === undefined) {
    ctx.output.info(`${key} was not set (profile ${profile})`);
    return;
  }
  if (ctx.settings.dryRun) {
    ctx.output.info(`Would unset ${key} (profile ${profile}); nothing was written (--dry-run)`);
    return;
  }
  await updateProfile(
    ctx.env,
    profile,
    ({ [key]: _removed, ...rest }) => rest,
    undefined,
    (line) => ctx.output.warn(line),
  );
  ctx.output.info(`Unset ${key} (profile ${profile})`);
}

import type { Context } from '../../lib/context.js';
import { updateProfile } from '../../lib/config/profiles.js';
import { configKey, configValue } from './keys.js';
import type { set } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof set>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const key = configKey(opts.args[0]);
  const value = configValue(key, opts.args[1]);
  const { profile } = ctx.settings;
  if (ctx.settings.dryRun) {
    ctx.output.info(`Would set ${key} to ${value} (profile ${profile}); nothing was written (--dry-run)`);
    return;
  }
  await updateProfile(
    ctx.env,
    profile,
    (stored) => ({ ...stored, [key]: value }),
    undefined,
    (line) => ctx.output.warn(line),
  );
  ctx.output.info(`Set ${key} to ${value} (profile ${profile})`);
}

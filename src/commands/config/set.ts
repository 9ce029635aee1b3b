import type { Context } from '../../lib/context.js';
import { updateProfile } from '../../lib/config.js';
import { configKey, configValue } from './keys.js';
import type { set } from './index.js';
import type { OptionsOf } from '../../lib/verb.js';

type Options = OptionsOf<typeof set>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const key = configKey(opts.args[0]);
  const value = configValue(key, opts.args[1]);
  const { profile } = ctx.settings;
  await updateProfile(ctx.env, profile, (stored) => ({ ...stored, [key]: value }));
  ctx.output.info(`Set ${key} to ${value} (profile ${profile})`);
}

import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { readProfile, updateProfile } from '../../lib/config.js';
import { configKey } from './keys.js';

export const Options = z.object({ args: z.tuple([z.string()]) });

export async function run(opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const key = configKey(opts.args[0]);
  const { profile } = ctx.settings;
  if (readProfile(ctx.env, profile)[key] === undefined) {
    ctx.output.info(`${key} was not set (profile ${profile})`);
    return;
  }
  await updateProfile(ctx.env, profile, ({ [key]: _removed, ...rest }) => rest);
  ctx.output.info(`Unset ${key} (profile ${profile})`);
}

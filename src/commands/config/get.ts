import type { Context } from '../../lib/context.js';
import { readProfile } from '../../lib/config/profiles.js';
import { PdsError } from '../../lib/errors.js';
import { configKey } from './keys.js';
import type { get } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof get>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const key = configKey(opts.args[0]);
  const { profile } = ctx.settings;
  const value = readProfile(ctx.env, profile)[key];
  // Like `git config --get`: an unset key is exit 1 and nothing on stdout, so `$(pds config get …)`
  // never captures a message.
  if (value === undefined) throw new PdsError(`${key} is not set in profile ${profile}`);
  if (!(await ctx.output.asData(value))) ctx.output.write(`${value}\n`);
}

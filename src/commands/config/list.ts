import type { Context } from '../../lib/context.js';
import { CONFIG_KEYS } from '../../lib/config/keys.js';
import { maskToken } from '../../lib/config/settings.js';
import { readProfile } from '../../lib/config/profiles.js';
import type { list } from './definitions.js';
import { outputKey } from './keys.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof list>;

export async function run(_opts: Options, ctx: Context): Promise<void> {
  const { profile } = ctx.settings;
  const stored = readProfile(ctx.env, profile);
  // Printed with the same keys as every other output (`api_url`); `config get/set` take either spelling.
  const values: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = stored[key];
    if (value !== undefined) values[outputKey(key)] = value;
  }
  if (stored.token !== undefined) values.token = maskToken(stored.token);
  if (stored.oauth !== undefined)
    values.token = `${maskToken(stored.oauth.access_token)} (browser sign-in at ${stored.oauth.issuer})`;

  if (ctx.output.mode === 'ids') {
    for (const key of Object.keys(values)) ctx.output.write(`${key}\n`);
    return;
  }
  if (!ctx.output.isData && Object.keys(values).length === 0) {
    ctx.output.info(`profile ${profile} has no stored settings`);
    return;
  }
  await ctx.output.record(values);
}

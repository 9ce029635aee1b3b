import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { readProfile, updateProfile } from '../../lib/config.js';

export const Options = z.object({ args: z.tuple([]) });

// Logging out twice is not an error: the outcome a script wants (no stored token) holds.
export async function run(_opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const { profile, apiUrl } = ctx.settings;
  if (readProfile(ctx.env, profile).token === undefined) {
    ctx.output.info(`profile ${profile} has no stored token`);
  } else {
    await updateProfile(ctx.env, profile, ({ token: _forgotten, ...rest }) => rest);
    ctx.output.info(`Logged out of ${apiUrl} (profile ${profile})`);
  }
  if (ctx.env.PDS_TOKEN) ctx.output.warn('PDS_TOKEN is still set in this environment, and pds keeps using it');
}

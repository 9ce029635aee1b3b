import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { AuthError } from '../../lib/errors.js';

export const Options = z.object({ args: z.tuple([]) });

/** The token in use, as the requests would send it: PDS_TOKEN wins over the profile's, as everywhere. */
export async function run(_opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const { token, profile } = ctx.settings;
  if (!token) {
    throw new AuthError(`no token (profile ${profile})`, { details: ['run `pds auth login --with-token` or set PDS_TOKEN'] });
  }
  ctx.output.write(`${token}\n`);
}

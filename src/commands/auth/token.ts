import type { Context } from '../../lib/context.js';
import { AuthError, SIGN_IN_HINT } from '../../lib/errors.js';
import type { token } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof token>;

/**
 * The token in use, as the requests would send it: PDS_TOKEN wins over the profile's, as
 * everywhere; a browser sign-in's access token is refreshed first when it is about to expire.
 */
export async function run(_opts: Options, ctx: Context): Promise<void> {
  const { token, profile } = ctx.settings;
  if (!token) {
    throw new AuthError(`no token (profile ${profile})`, { details: [SIGN_IN_HINT] });
  }
  const session = ctx.oauthSession;
  ctx.output.write(`${session ? await session.token() : token}\n`);
}

import type { Context } from '../../lib/context.js';
import { readProfile, updateProfile } from '../../lib/config.js';
import { InterruptedError, PdsError } from '../../lib/errors.js';
import { revoke } from '../../lib/auth/session.js';
import type { logout } from './index.js';
import type { OptionsOf } from '../../lib/verb.js';

type Options = OptionsOf<typeof logout>;

// Logging out twice is not an error: the outcome a script wants (no stored credential) holds.
export async function run(_opts: Options, ctx: Context): Promise<void> {
  const { profile, apiUrl } = ctx.settings;
  const stored = readProfile(ctx.env, profile);
  if (stored.token === undefined && stored.oauth === undefined) {
    ctx.output.info(`profile ${profile} has no stored token`);
  } else {
    let revoked = false;
    if (stored.oauth) {
      // The grant is revoked at the server when it offers that; it is forgotten here in any case.
      try {
        revoked = await revoke(ctx.oauthRequests(), stored.oauth);
      } catch (error) {
        if (!(error instanceof PdsError) || error instanceof InterruptedError) throw error;
        ctx.output.warn(`could not revoke the sign-in at ${new URL(stored.oauth.issuer).origin}: ${error.message}`);
      }
    }
    await updateProfile(ctx.env, profile, ({ token: _token, oauth: _oauth, ...rest }) => rest);
    ctx.output.info(`Logged out of ${apiUrl} (profile ${profile})${revoked ? '; the sign-in is revoked at the server' : ''}`);
  }
  if (ctx.env.PDS_TOKEN) ctx.output.warn('PDS_TOKEN is still set in this environment, and pds keeps using it');
}

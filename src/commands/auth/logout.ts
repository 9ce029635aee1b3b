import type { Context } from '../../lib/context.js';
import { readProfile, updateProfile } from '../../lib/config/profiles.js';
import { InterruptedError, PdsError } from '../../lib/errors.js';
import { revoke } from '../../lib/auth/session.js';
import type { logout } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof logout>;

// Logging out twice is not an error: the outcome a script wants (no stored credential) holds.
export async function run(_opts: Options, ctx: Context): Promise<void> {
  const { profile, apiUrl } = ctx.settings;
  const stored = readProfile(ctx.env, profile, { keychainUnreadableAsEmpty: true });
  if (stored.token === undefined && stored.oauth === undefined && stored.credential_store === undefined) {
    ctx.output.info(`profile ${profile} has no stored token`);
  } else if (ctx.settings.dryRun) {
    // Revoking is a write at the authorization server: a dry run only says it would.
    const revoke = stored.oauth ? ` and revoke the sign-in at ${new URL(stored.oauth.issuer).origin}` : '';
    ctx.output.info(
      `Would log out of ${apiUrl} (profile ${profile}): forget the stored credential${revoke}; nothing was changed (--dry-run)`,
    );
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
    // From the file and from the keychain alike.
    await updateProfile(
      ctx.env,
      profile,
      ({ token: _token, oauth: _oauth, credential_store: _store, ...rest }) => rest,
      undefined,
      (line) => ctx.output.warn(line),
    );
    ctx.output.info(
      `Logged out of ${apiUrl} (profile ${profile})${revoked ? '; the sign-in is revoked at the server' : ''}`,
    );
  }
  if (ctx.env.PDS_TOKEN) ctx.output.warn('PDS_TOKEN is still set in this environment, and pds keeps using it');
}

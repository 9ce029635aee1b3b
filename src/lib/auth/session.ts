// A browser sign-in in use: hands HttpClient a valid access token, refreshing it shortly before
// it expires and once when the service refuses it. Refresh tokens rotate, so the refresh happens
// under the config lock: a process that finds the stored refresh token already replaced knows
// another one refreshed meanwhile and takes its tokens instead of spending the old (now reused,
// grant-revoking) refresh token.
import { updateProfile, type OAuthCredentials, type Profile } from '../config/profiles.js';
import { AuthError } from '../errors.js';
import type { Credentials } from '../http/client.js';
import { OAuthAnswerError, type OAuthRequests } from './requests.js';
// tokens.ts (and zod with it) is loaded by a refresh or a revocation: not by every command that
// has a browser sign-in, nor by one without.
const tokens = () => import('./tokens.js');

/** Refresh this long before the expiry the server announced: clocks drift and requests take time. */
export const REFRESH_MARGIN_MS = 30_000;

export const SIGN_IN_AGAIN = 'sign in again with `pds auth login --web`';

export class OAuthSession implements Credentials {
  constructor(
    private current: OAuthCredentials,
    private readonly deps: {
      env: NodeJS.ProcessEnv;
      profile: string;
      now: () => number;
      requests: () => OAuthRequests;
    },
  ) {}

  get credentials(): OAuthCredentials {
    return this.current;
  }

  async token(): Promise<string> {
    const expires =
      this.current.expires_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(this.current.expires_at);
    if (this.deps.now() < expires - REFRESH_MARGIN_MS) return this.current.access_token;
    return this.refresh(this.current.access_token);
  }

  /** A new access token in place of `refused` (expired, or answered with 401). */
  async refresh(refused: string): Promise<string> {
    const { profile } = this.deps;
    const stored = await updateProfile(this.deps.env, profile, async (fresh: Profile): Promise<Profile> => {
      const latest = fresh.oauth;
      if (!latest || fresh.token !== undefined) {
        throw new AuthError(`the browser sign-in of profile ${profile} is gone (signed out in another pds?)`, {
          details: [SIGN_IN_AGAIN],
        });
      }
      // Another process refreshed since this one read the profile: its tokens are the ones to use
      // (spending the replaced refresh token would be reuse, and reuse revokes the grant).
      if (latest.refresh_token !== this.current.refresh_token && latest.access_token !== refused) return fresh;
      if (latest.refresh_token === undefined) {
        throw new AuthError(`the browser sign-in of profile ${profile} has expired and cannot be refreshed`, {
          details: [SIGN_IN_AGAIN],
        });
      }
      return { ...fresh, oauth: await this.redeem(latest) };
    });
    if (!stored.oauth)
      throw new AuthError(`the browser sign-in of profile ${profile} is gone`, { details: [SIGN_IN_AGAIN] });
    this.current = stored.oauth;
    return this.current.access_token;
  }

  private async redeem(latest: OAuthCredentials): Promise<OAuthCredentials> {
    const { credentialsFrom, TokenAnswer } = await tokens();
    try {
      const answer = await this.deps
        .requests()
        .postForm(
          new URL(latest.token_endpoint),
          { grant_type: 'refresh_token', refresh_token: latest.refresh_token, client_id: latest.client_id },
          TokenAnswer,
        );
      return credentialsFrom(answer, latest, this.deps.now());
    } catch (error) {
      if (error instanceof OAuthAnswerError && error.httpStatus >= 400 && error.httpStatus < 500) {
        throw new AuthError(
          `the browser sign-in of profile ${this.deps.profile} could not be refreshed: ${error.description ?? error.code ?? `HTTP ${error.httpStatus}`}`,
          {
            details: [SIGN_IN_AGAIN],
            status: error.httpStatus,
          },
        );
      }
      throw error;
    }
  }
}

/**
 * Revokes the grant at the server (RFC 7009): the refresh token, which takes the grant's access
 * tokens with it, else the access token. Resolves false when the server offers no revocation.
 */
export async function revoke(requests: OAuthRequests, credentials: OAuthCredentials): Promise<boolean> {
  if (credentials.revocation_endpoint === undefined) return false;
  const [token, hint] =
    credentials.refresh_token === undefined
      ? [credentials.access_token, 'access_token']
      : [credentials.refresh_token, 'refresh_token'];
  await requests.postForm(
    new URL(credentials.revocation_endpoint),
    { token, token_type_hint: hint, client_id: credentials.client_id },
    (await tokens()).AnyAnswer,
  );
  return true;
}

// The token endpoint's answer (RFC 6749 section 5.1) and what pds keeps of it.
import * as z from 'zod/mini';
import type { OAuthCredentials } from '../config/profiles.js';

export const TokenAnswer = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  // Only bearer tokens are what the API takes (RFC 6750); the type is case-insensitive.
  token_type: z.string().check(z.refine((type) => type.toLowerCase() === 'bearer', 'token_type must be Bearer')),
  // Taken as it comes and judged by lifetimeMs: a bad lifetime must not cost the rotated refresh token.
  expires_in: z.optional(z.unknown()),
  refresh_token: z.optional(z.string()),
});

/** An answer whose body is not read (a revocation's). */
export const AnyAnswer = z.unknown();

/** A year: a longer lifetime is a server's mistake (or a lie), not a reason to stop refreshing. */
const LONGEST_LIFETIME_S = 365 * 24 * 3600;

/**
 * The announced lifetime in milliseconds, or undefined when it is missing, not a positive number
 * or over a year: then the token's expiry is unknown, and it is refreshed on the first 401.
 */
function lifetimeMs(expiresIn: unknown): number | undefined {
  const seconds = typeof expiresIn === 'string' && /^\d+$/.test(expiresIn) ? Number(expiresIn) : expiresIn;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || seconds > LONGEST_LIFETIME_S)
    return undefined;
  return seconds * 1000;
}

type Endpoints = Pick<OAuthCredentials, 'issuer' | 'client_id' | 'token_endpoint' | 'revocation_endpoint'>;

/** A refresh answer may omit the refresh token: the old one then stays valid (RFC 6749 6). */
export function credentialsFrom(
  answer: z.infer<typeof TokenAnswer>,
  base: Endpoints & { refresh_token?: string },
  now: number,
): OAuthCredentials {
  const refreshToken = answer.refresh_token ?? base.refresh_token;
  const lifetime = lifetimeMs(answer.expires_in);
  return {
    issuer: base.issuer,
    client_id: base.client_id,
    token_endpoint: base.token_endpoint,
    ...(base.revocation_endpoint === undefined ? {} : { revocation_endpoint: base.revocation_endpoint }),
    access_token: answer.access_token,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    ...(lifetime === undefined ? {} : { expires_at: new Date(now + lifetime).toISOString() }),
  };
}

// The token endpoint's answer (RFC 6749 section 5.1) and what pds keeps of it.
import * as z from 'zod/mini';
import type { OAuthCredentials } from '../config.js';

export const TokenAnswer = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  // Only bearer tokens are what the API takes (RFC 6750); the type is case-insensitive.
  token_type: z.string().check(z.refine((type) => type.toLowerCase() === 'bearer', 'token_type must be Bearer')),
  expires_in: z.optional(z.number()),
  refresh_token: z.optional(z.string()),
});

type Endpoints = Pick<OAuthCredentials, 'issuer' | 'client_id' | 'token_endpoint' | 'revocation_endpoint'>;

/** A refresh answer may omit the refresh token: the old one then stays valid (RFC 6749 6). */
export function credentialsFrom(answer: z.infer<typeof TokenAnswer>, base: Endpoints & { refresh_token?: string }, now: number): OAuthCredentials {
  const refreshToken = answer.refresh_token ?? base.refresh_token;
  return {
    issuer: base.issuer,
    client_id: base.client_id,
    token_endpoint: base.token_endpoint,
    ...(base.revocation_endpoint === undefined ? {} : { revocation_endpoint: base.revocation_endpoint }),
    access_token: answer.access_token,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    ...(answer.expires_in === undefined ? {} : { expires_at: new Date(now + answer.expires_in * 1000).toISOString() }),
  };
}

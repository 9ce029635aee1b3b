// The config file's zod schemas: the types of config.ts, and what its plain shapes
// (config-shapes.ts) are held to by a unit test. Nothing loads this at run time.
import * as z from 'zod/mini';

/** A browser sign-in (OAuth 2.1): the grant's tokens and what refreshing and revoking them needs. */
export const OAuthCredentials = z.looseObject({
  issuer: z.string(),
  client_id: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.optional(z.string()),
  access_token: z.string(),
  refresh_token: z.optional(z.string()),
  /** ISO 8601; absent when the server did not say. */
  expires_at: z.optional(z.string()),
});
export type OAuthCredentials = z.infer<typeof OAuthCredentials>;

export const Profile = z.looseObject({
  'api-url': z.optional(z.string()),
  token: z.optional(z.string()),
  oauth: z.optional(OAuthCredentials),
  /** The client `auth login --web` registered at that issuer, used again by the next sign-in. */
  oauth_client: z.optional(z.looseObject({ issuer: z.string(), client_id: z.string() })),
  /** The credential is in the operating system's keychain, not in this file (src/lib/auth/keychain.ts). */
  credential_store: z.optional(z.literal('keychain')),
  project: z.optional(z.string()),
  timeout: z.optional(z.string()),
  'retry-budget': z.optional(z.string()),
  'allow-http': z.optional(z.string()),
});
export type Profile = z.infer<typeof Profile>;

export const ConfigFile = z.looseObject({
  profiles: z._default(z.record(z.string(), Profile), {}),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

/** What the keychain holds for a profile: its credential, of either kind. */
export const StoredSecret = z.object({ token: z.optional(z.string()), oauth: z.optional(OAuthCredentials) });

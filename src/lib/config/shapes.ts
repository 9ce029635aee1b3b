// The config file's profiles as shapes (shape.ts): the one definition of what the file holds.
// config-file.ts checks the file with them, without zod (every command reads the file); their types
// are ShapeType of them; a unit test (config-shapes.test.ts) holds them to zod schemas built from them.
import type { Shape, ShapeType } from '../shape.js';

const optionalString = { optional: 'string' } as const;

/** A browser sign-in (OAuth 2.1): the grant's tokens and what refreshing and revoking them needs. */
export const OAUTH_CREDENTIALS_SHAPE = {
  object: {
    issuer: 'string',
    client_id: 'string',
    token_endpoint: 'string',
    revocation_endpoint: optionalString,
    access_token: 'string',
    refresh_token: optionalString,
    // ISO 8601; absent when the server did not say.
    expires_at: optionalString,
  },
} as const satisfies Shape;
export type OAuthCredentials = ShapeType<typeof OAUTH_CREDENTIALS_SHAPE>;

export const PROFILE_SHAPE = {
  object: {
    'api-url': optionalString,
    token: optionalString,
    oauth: { optional: OAUTH_CREDENTIALS_SHAPE },
    // The client `auth login --web` registered at that issuer, used again by the next sign-in.
    oauth_client: { optional: { object: { issuer: 'string', client_id: 'string' } } },
    // The credential is in the operating system's keychain, not in this file (src/lib/auth/keychain.ts).
    credential_store: { optional: { literal: 'keychain' } },
    project: optionalString,
    timeout: optionalString,
    'retry-budget': optionalString,
    'allow-http': optionalString,
  },
} as const satisfies Shape;
export type Profile = ShapeType<typeof PROFILE_SHAPE>;

export const PROFILES_SHAPE = { record: PROFILE_SHAPE } as const satisfies Shape;

/** The file: its profiles ({} when it names none) and whatever else it holds. */
export interface ConfigFile {
  profiles: Record<string, Profile>;
  [field: string]: unknown;
}

/** What the keychain holds for a profile: its credential, of either kind. */
export const STORED_SECRET_SHAPE = {
  object: { token: optionalString, oauth: { optional: OAUTH_CREDENTIALS_SHAPE } },
} as const satisfies Shape;

// The config file's profiles as shapes (shape.ts), which config.ts checks the file with: plain
// data, since every command reads the file. Their zod schemas, which say the same with comments,
// are in config-schemas.ts; a unit test holds the two together. The types come from the schemas.
import type { Shape } from './shape.js';
export type { ConfigFile, OAuthCredentials, Profile } from './config-schemas.js';

const optionalString = { optional: 'string' } as const;

export const OAUTH_CREDENTIALS_SHAPE: Shape = {
  object: {
    issuer: 'string',
    client_id: 'string',
    token_endpoint: 'string',
    revocation_endpoint: optionalString,
    access_token: 'string',
    refresh_token: optionalString,
    expires_at: optionalString,
  },
};

export const PROFILE_SHAPE: Shape = {
  object: {
    'api-url': optionalString,
    token: optionalString,
    oauth: { optional: OAUTH_CREDENTIALS_SHAPE },
    oauth_client: { optional: { object: { issuer: 'string', client_id: 'string' } } },
    credential_store: { optional: { literal: 'keychain' } },
    project: optionalString,
    timeout: optionalString,
    'retry-budget': optionalString,
    'allow-http': optionalString,
  },
};

export const PROFILES_SHAPE: Shape = { record: PROFILE_SHAPE };

/** What the keychain holds for a profile: its credential, of either kind. */
export const STORED_SECRET_SHAPE: Shape = { object: { token: optionalString, oauth: { optional: OAUTH_CREDENTIALS_SHAPE } } };

// The config file's zod schemas, built from its shapes (config-shapes.ts) as zod reads a file: a
// unit test holds config.ts's plain checks to them. Nothing loads this at run time.
import * as z from 'zod/mini';
import { OAUTH_CREDENTIALS_SHAPE, PROFILE_SHAPE, STORED_SECRET_SHAPE } from './config-shapes.js';
import { schemaOf } from './schemas.js';

export const OAuthCredentials = schemaOf(OAUTH_CREDENTIALS_SHAPE);
export const Profile = schemaOf(PROFILE_SHAPE);

export const ConfigFile = z.looseObject({
  profiles: z._default(z.record(z.string(), Profile), {}),
});

/** A keychain entry as config.ts reads it: its credential, other fields dropped. */
export const StoredSecret = z.object(
  Object.fromEntries(Object.entries(STORED_SECRET_SHAPE.object).map(([field, shape]) => [field, schemaOf(shape)])),
);

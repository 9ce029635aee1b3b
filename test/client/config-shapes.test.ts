// config-file.ts reads the config file and the keychain's entries by plain shapes: the same as the zod
// schemas built here from those shapes (as zod would read a file), which zod runs.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { OAUTH_CREDENTIALS_SHAPE, PROFILE_SHAPE, STORED_SECRET_SHAPE } from '../../src/lib/config/shapes.js';
import { configFrom } from '../../src/lib/config/file.js';
import { secretFrom } from '../../src/lib/config/profiles.js';
import { schemaOf, shapeOf } from '../../src/lib/schemas.js';

const OAuthCredentials = schemaOf(OAUTH_CREDENTIALS_SHAPE);
const Profile = schemaOf(PROFILE_SHAPE);
const ConfigFile = z.looseObject({ profiles: z._default(z.record(z.string(), Profile), {}) });
/** A keychain entry as config-profiles.ts reads it: its credential, other fields dropped. */
const StoredSecret = z.object(
  Object.fromEntries(Object.entries(STORED_SECRET_SHAPE.object).map(([field, shape]) => [field, schemaOf(shape)])),
);

const oauth = {
  issuer: 'https://id.example',
  client_id: 'c',
  token_endpoint: 'https://id.example/token',
  access_token: 'a',
  extra: 1,
};
const profiles = [
  {},
  { token: 't', project: 'p', 'api-url': 'http://x' },
  { oauth },
  { oauth: { ...oauth, access_token: 5 } },
  { credential_store: 'keychain' },
  { credential_store: 'vault' },
  { oauth_client: { issuer: 'i', client_id: 'c' } },
  { oauth_client: { issuer: 'i' } },
  { timeout: 30 },
  { unknown: [1, 2] },
  [],
  null,
  'text',
];
const files: unknown[] = [
  {},
  { profiles: {} },
  { other: 1 },
  { profiles: null },
  { profiles: [] },
  null,
  [],
  'x',
  3,
  ...profiles.map((profile) => ({ profiles: { default: profile } })),
];
const secrets: unknown[] = [
  {},
  { token: 't' },
  { token: 1 },
  { oauth },
  { oauth: { issuer: 'i' } },
  { token: 't', more: 'dropped' },
  null,
  [],
  'x',
];

describe('the config file read without zod', () => {
  it('has the shapes of the schemas', () => {
    expect(PROFILE_SHAPE).toEqual(shapeOf(Profile));
    expect(OAUTH_CREDENTIALS_SHAPE).toEqual(shapeOf(OAuthCredentials));
  });

  it('takes and refuses the files the schema does, with the same result', () => {
    for (const file of files) {
      const parsed = ConfigFile.safeParse(file);
      expect({ file, result: configFrom(file) }).toEqual({ file, result: parsed.success ? parsed.data : undefined });
    }
  });

  it('reads a keychain entry as the schema does', () => {
    for (const secret of secrets) {
      const parsed = StoredSecret.safeParse(secret);
      expect({ secret, result: secretFrom(secret) }).toEqual({ secret, result: parsed.success ? parsed.data : {} });
    }
  });
});

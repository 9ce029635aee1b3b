// config.ts reads the config file and the keychain's entries by plain shapes: the same as the zod
// schemas config-schemas.ts builds from them, which zod runs.
import { describe, expect, it } from 'vitest';
import { ConfigFile, OAuthCredentials, Profile, StoredSecret } from '../../src/lib/config-schemas.js';
import { OAUTH_CREDENTIALS_SHAPE, PROFILE_SHAPE } from '../../src/lib/config-shapes.js';
import { configFrom, secretFrom } from '../../src/lib/config.js';
import { shapeOf } from '../../src/lib/schemas.js';

const oauth = { issuer: 'https://id.example', client_id: 'c', token_endpoint: 'https://id.example/token', access_token: 'a', extra: 1 };
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
const files: unknown[] = [{}, { profiles: {} }, { other: 1 }, { profiles: null }, { profiles: [] }, null, [], 'x', 3, ...profiles.map((profile) => ({ profiles: { default: profile } }))];
const secrets: unknown[] = [{}, { token: 't' }, { token: 1 }, { oauth }, { oauth: { issuer: 'i' } }, { token: 't', more: 'dropped' }, null, [], 'x'];

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

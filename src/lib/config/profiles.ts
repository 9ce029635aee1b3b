// Profiles and their credentials: read with the credential from the keychain when it is kept there,
// and changed atomically (a new file with mode 0600 renamed over the old) under the config lock.
import { rename } from 'node:fs/promises';
import { checkOf, keyedByText } from '../shape.js';
import { STORED_SECRET_SHAPE, type OAuthCredentials, type Profile } from './shapes.js';
import { AuthError } from '../errors.js';
import { writePrivateFile } from './private-files.js';
import { deleteSecret, readSecret, readSecretSync, writeSecret } from '../auth/keychain.js';
import { type BrokenConfigError, type ConfigReading, configPath, readConfig, readConfigAsync } from './file.js';
import { withConfigLock } from './lock.js';

export type { OAuthCredentials, Profile };

/** The credential of a keychain entry (its other fields dropped); {} when it is not one. */
export function secretFrom(json: unknown): Pick<Profile, 'token' | 'oauth'> {
  if (!checkOf(STORED_SECRET_SHAPE)(json)) return {};
  const { token, oauth } = json as Pick<Profile, 'token' | 'oauth'>;
  return { ...(token === undefined ? {} : { token }), ...(oauth === undefined ? {} : { oauth }) };
}

/** A profile, with its credential read from the keychain when it is kept there. */
export function readProfile(env: NodeJS.ProcessEnv, name: string, reading: ConfigReading = {}): Profile {
  const profile = readConfig(env, reading).profiles[name] ?? {};
  if (profile.credential_store !== 'keychain') return profile;
  let secret: string | undefined;
  try {
    secret = readSecretSync(env, keychainAccount(env, name));
  } catch (error) {
    if (reading.keychainUnreadableAsEmpty) return profile;
    throw new KeychainReadError(
      `the credential of profile ${name} is kept in the keychain, which cannot be read: ${(error as Error).message}`,
      {
        details: ['sign in again: `pds auth login` (with --insecure-storage to keep it in the config file instead)'],
      },
    );
  }
  return withSecret(profile, secret);
}

/** A profile's credential is in the keychain, and the keychain cannot be read now. */
export class KeychainReadError extends AuthError {}

/** One keychain entry per config file and profile: two config directories never share one. */
const keychainAccount = (env: NodeJS.ProcessEnv, name: string): string => `${configPath(env)}#${name}`;

function withSecret(profile: Profile, secret: string | undefined): Profile {
  let parsed: Pick<Profile, 'token' | 'oauth'> = {};
  try {
    // Not pds's JSON (edited by hand?): as if nothing were stored; `auth login` replaces it.
    parsed = secretFrom(JSON.parse(secret ?? '{}'));
  } catch {
    // Not JSON at all: the same.
  }
  return { ...profile, ...parsed };
}

const secretOf = ({ token, oauth }: Profile): string | undefined =>
  token === undefined && oauth === undefined
    ? undefined
    : JSON.stringify({ ...(token === undefined ? {} : { token }), ...(oauth === undefined ? {} : { oauth }) });

/**
 * The profile as the file keeps it. With `credential_store: keychain` the credential goes to the
 * keychain and only that reference stays in the file; a keychain that fails (none on a headless
 * runner) leaves the credential in the file (0600), said through `warn`. Without it, an entry
 * left in the keychain by an earlier sign-in is removed: a credential lives in one place.
 */
async function storeCredential(
  env: NodeJS.ProcessEnv,
  name: string,
  before: Profile,
  next: Profile,
  warn?: (line: string) => void,
): Promise<Profile> {
  const account = keychainAccount(env, name);
  const secret = secretOf(next);
  const { token: _token, oauth: _oauth, credential_store: store, ...rest } = next;
  // Its credential could not be read this time (a locked keychain): the reference stays as it is.
  if (store === 'keychain' && secret === undefined) return { ...rest, credential_store: 'keychain' };
  if (store === 'keychain' && secret !== undefined) {
    try {
      // Unchanged and already there: no write. A credential coming from the file is written even
      // when it is the same (it moves to the keychain), or the file would point at nothing.
      if (before.credential_store !== 'keychain' || secret !== secretOf(before))
        await writeSecret(env, account, secret);
      return { ...rest, credential_store: 'keychain' };
    } catch (error) {
      warn?.(
        `no keychain to keep the credential in (${(error as Error).message}): it is kept in ${configPath(env)} (mode 0600)`,
      );
      return {
        ...rest,
        ...(next.token === undefined ? {} : { token: next.token }),
        ...(next.oauth === undefined ? {} : { oauth: next.oauth }),
      };
    }
  }
  if (before.credential_store === 'keychain') {
    await deleteSecret(env, account).catch((error: unknown) =>
      warn?.(`could not remove the credential from the keychain: ${(error as Error).message}`),
    );
  }
  const { credential_store: _store, ...file } = next;
  return file;
}

/**
 * Changes one profile and writes the file atomically with mode 0600. Read, change and write happen
 * under the lock, so `change` receives the freshest profile; it may be async (a token refresh
 * decides inside it whether another process already refreshed). A `change` that throws leaves the
 * file as it was. A broken file is not overwritten (BrokenConfigError), except a corrupt one given
 * `replacing`: it is moved aside (config.json.broken-<time>) once `change` has succeeded, just
 * before the new file is written, so a login that fails leaves it where it was.
 */
export async function updateProfile(
  env: NodeJS.ProcessEnv,
  name: string,
  change: (profile: Profile) => Profile | Promise<Profile>,
  replacing?: { movedAside: (aside: string, problem: BrokenConfigError) => void },
  /** Told when the lock of a process that died was taken over, or the keychain could not be used. */
  warn?: (line: string) => void,
): Promise<Profile> {
  return withConfigLock(
    env,
    async () => {
      const path = configPath(env);
      const read = await readConfigAsync(path);
      if ('broken' in read && (!replacing || read.broken.kind !== 'corrupt')) throw read.broken;
      const profiles = keyedByText('broken' in read ? {} : read.file.profiles);
      const stored = profiles[name] ?? {};
      const before =
        stored.credential_store === 'keychain'
          ? withSecret(stored, await readSecret(env, keychainAccount(env, name)).catch(() => undefined))
          : stored;
      const next = { ...(await change({ ...before })) };
      if ('broken' in read && replacing) {
        const aside = `${path}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await rename(path, aside);
        replacing.movedAside(aside, read.broken);
      }
      for (const key of Object.keys(next) as (keyof Profile)[]) {
        if (next[key] === undefined) delete next[key];
      }
      profiles[name] = await storeCredential(env, name, before, next, warn);
      const kept = 'broken' in read ? {} : read.file;
      await writePrivateFile(path, `${JSON.stringify({ ...kept, profiles }, null, '\t')}\n`, 'config file');
      return next;
    },
    warn,
  );
}

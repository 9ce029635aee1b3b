// The operating system's keychain (macOS Keychain, Windows Credential Manager, the Secret Service
// on Linux) through @napi-rs/keyring, whose native binary comes prebuilt from npm. Loaded only
// when a credential is stored there or moved there: no other command pays for it.
//
// On Linux only the Secret Service is used (not the kernel keyring, which forgets at logout), and
// without a D-Bus session there is none: that is said at once, so a headless runner falls back to
// the file without waiting. Every write is bounded (a keychain that does not answer in 2 s counts
// as none), so `auth login` never hangs on it.
import { createRequire } from 'node:module';
import { ACTION_BUILD } from '../ci/action-build.js';

/** How long a keychain may take to answer before pds falls back to the file. */
export const KEYCHAIN_TIMEOUT_MS = 2_000;
const SERVICE = 'pds';
const OPTIONS = { linux: { store: 'secret-service' as const } };

type Keyring = typeof import('@napi-rs/keyring');

/** No keychain to use, or one that failed: the message says why, for the one line login prints. */
export class KeychainError extends Error {}

function keyring(env: NodeJS.ProcessEnv): Keyring {
  if (ACTION_BUILD) throw new KeychainError("the keychain is not in the GitHub Action's build of pds");
  if (process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) {
    throw new KeychainError('no D-Bus session, so no Secret Service');
  }
  try {
    // require(): the package is CommonJS with a native addon, and stays outside the bundle.
    return createRequire(import.meta.url)('@napi-rs/keyring') as Keyring;
  } catch (error) {
    throw new KeychainError(
      `the keychain library did not load (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

const reason = (error: unknown): KeychainError =>
  error instanceof KeychainError
    ? error
    : new KeychainError(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));

/** Runs a keychain call, failing with KeychainError when it fails or takes longer than 2 s. */
async function bounded<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(KEYCHAIN_TIMEOUT_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KeychainError(`the keychain did not answer within ${KEYCHAIN_TIMEOUT_MS / 1000} s`)),
      KEYCHAIN_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([call(signal), late]);
  } catch (error) {
    throw reason(error);
  } finally {
    clearTimeout(timer);
  }
}

/** The secret stored under `account`, or undefined when there is none. */
export function readSecret(env: NodeJS.ProcessEnv, account: string): Promise<string | undefined> {
  return bounded(async (signal) => {
    const { AsyncEntry } = keyring(env);
    return (await new AsyncEntry(SERVICE, account, OPTIONS).getPassword(signal)) ?? undefined;
  });
}

/** The same, synchronously: settings are resolved before any command runs, without a promise. */
export function readSecretSync(env: NodeJS.ProcessEnv, account: string): string | undefined {
  try {
    const { Entry } = keyring(env);
    return new Entry(SERVICE, account, OPTIONS).getPassword() ?? undefined;
  } catch (error) {
    throw reason(error);
  }
}

export function writeSecret(env: NodeJS.ProcessEnv, account: string, secret: string): Promise<void> {
  return bounded(async (signal) => {
    const { AsyncEntry } = keyring(env);
    await new AsyncEntry(SERVICE, account, OPTIONS).setPassword(secret, signal);
  });
}

export function deleteSecret(env: NodeJS.ProcessEnv, account: string): Promise<void> {
  return bounded(async (signal) => {
    const { AsyncEntry } = keyring(env);
    await new AsyncEntry(SERVICE, account, OPTIONS).deletePassword(signal);
  });
}

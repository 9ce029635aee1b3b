// Profiles on disk (api url, token, default project), and the settings a run resolves from
// flag > environment > profile > default (DESIGN.md, "Configuration precedence").
//
// Writes are atomic (a new file with mode 0600 renamed over the old) and one at a time: read, change
// and write happen under a lock (proper-lockfile), so concurrent `pds config set` / `use` / `auth
// login` lose nothing. A config file that cannot be used (a directory, unreadable, not JSON) stops
// every command with a BrokenConfigError that names the file and a command that works; one another
// user could have written stops it with an UnsafeFileError (src/lib/private-files.ts).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { formatBytes } from './text.js';
import { checkPrivate, writePrivateFile } from './private-files.js';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { checkOf, isPlainObject } from './shape.js';
import {
  PROFILES_SHAPE,
  STORED_SECRET_SHAPE,
  type ConfigFile,
  type OAuthCredentials,
  type Profile,
} from './config-shapes.js';
import { AuthError, PdsError, UsageError } from './errors.js';
import { deleteSecret, readSecret, readSecretSync, writeSecret } from './auth/keychain.js';
import type { GlobalFlags } from './global-flags.js';
import { parseFormat, type Format } from './output-formats.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:4010';
export const DEFAULT_PROFILE = 'default';
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** --timeout: below 0.1 s nothing answers; above an hour a request is stuck, not slow. */
export const TIMEOUT_RANGE_SECONDS = { min: 0.1, max: 3600 } as const;
export const DEFAULT_RETRY_BUDGET_SECONDS = 60;
export const MAX_RETRY_BUDGET_SECONDS = 3600;

export type { OAuthCredentials, Profile };

/**
 * The config file as JSON.parse gives it, checked by the shapes of config-shapes.ts (without zod:
 * every command reads the file): its profiles ({} when it has none), or undefined when it does not
 * hold pds profiles.
 */
export function configFrom(json: unknown): ConfigFile | undefined {
  if (!isPlainObject(json)) return undefined;
  if (json.profiles === undefined) return { ...json, profiles: {} };
  return checkOf(PROFILES_SHAPE)(json.profiles) ? (json as ConfigFile) : undefined;
}

/** The credential of a keychain entry (its other fields dropped); {} when it is not one. */
export function secretFrom(json: unknown): Pick<Profile, 'token' | 'oauth'> {
  if (!checkOf(STORED_SECRET_SHAPE)(json)) return {};
  const { token, oauth } = json as Pick<Profile, 'token' | 'oauth'>;
  return { ...(token === undefined ? {} : { token }), ...(oauth === undefined ? {} : { oauth }) };
}

export { CONFIG_KEYS, type ConfigKey } from './config-keys.js';

export function configDir(env: NodeJS.ProcessEnv): string {
  return env.PDS_CONFIG_DIR || defaultConfigDir(env);
}

function defaultConfigDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'pds');
}

export const configPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'config.json');

/** A directory, a FIFO or device, a file far too large: none can be read as a config, only moved away. */
export type BrokenConfigKind = 'directory' | 'not a file' | 'too large' | 'unreadable' | 'corrupt';

/** The config file exists but cannot be used; the message names it, the details a way out. */
export class BrokenConfigError extends UsageError {
  constructor(
    readonly path: string,
    readonly kind: BrokenConfigKind,
    problem: string,
  ) {
    super(`the config file ${path} ${problem}`, { details: brokenConfigHelp(path, kind) });
  }
}

function brokenConfigHelp(path: string, kind: BrokenConfigKind): string[] {
  const aside = `mv '${path}' '${path}.old'`;
  if (kind === 'corrupt')
    return ['`pds auth login` replaces it (the broken file is kept beside it)', `or move it away: \`${aside}\``];
  if (kind === 'directory' || kind === 'not a file' || kind === 'too large')
    return [`move it away: \`${aside}\`, then \`pds auth login\``];
  return [`make it readable: \`chmod u+rw '${path}'\`, or move it away: \`${aside}\``];
}

type ConfigRead = { file: ConfigFile } | { broken: BrokenConfigError };

function parseConfig(path: string, text: string): ConfigRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { broken: new BrokenConfigError(path, 'corrupt', 'is not valid JSON') };
  }
  const file = configFrom(json);
  if (!file) return { broken: new BrokenConfigError(path, 'corrupt', 'does not hold pds profiles (unexpected shape)') };
  return { file };
}

/** A config file is a few hundred bytes; one over this is no config file, and is not read into memory. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** What a file that is not a regular file is, for the message. */
function fileKind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The config file's text, from the file opened once and checked open: a FIFO (which would hold every
 * command until something wrote to it), a device (which may never end), a directory or a file over
 * MAX_CONFIG_BYTES is refused at once. Opened without blocking, so a FIFO does not wait for a writer,
 * and never as a controlling terminal.
 */
function readConfigText(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new BrokenConfigError(path, 'directory', 'is a directory, not a file');
    if (!info.isFile()) throw new BrokenConfigError(path, 'not a file', `is ${fileKind(info)}, not a regular file`);
    const tooLarge = (size: string) =>
      new BrokenConfigError(
        path,
        'too large',
        `is ${size}, far more than a config file holds (pds reads at most ${formatBytes(MAX_CONFIG_BYTES)})`,
      );
    if (info.size > MAX_CONFIG_BYTES) throw tooLarge(formatBytes(info.size));
    // Read to the end, not to the size fstat gave: the file may grow meanwhile, within the bound.
    const buffer = Buffer.allocUnsafe(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, length);
    if (length > MAX_CONFIG_BYTES) throw tooLarge(`over ${formatBytes(MAX_CONFIG_BYTES)}`);
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

function readError(path: string, error: unknown): ConfigRead {
  if (error instanceof BrokenConfigError) return { broken: error };
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { file: { profiles: {} } };
  if (code === 'EISDIR') return { broken: new BrokenConfigError(path, 'directory', 'is a directory, not a file') };
  if (code === 'EACCES' || code === 'EPERM')
    return { broken: new BrokenConfigError(path, 'unreadable', 'cannot be read: permission denied') };
  return { broken: new BrokenConfigError(path, 'unreadable', `cannot be read: ${(error as Error).message}`) };
}

export interface ConfigReading {
  /**
   * A file that is not JSON reads as no profiles (`pds auth login`, which replaces it when it
   * writes its new profile) instead of throwing.
   */
  corruptAsEmpty?: boolean;
  /** A keychain that cannot be read gives the profile without its credential (`auth logout`). */
  keychainUnreadableAsEmpty?: boolean;
}

/** The profiles on disk; no file is no profiles; a file that cannot be used throws BrokenConfigError. */
export function readConfig(env: NodeJS.ProcessEnv, reading: ConfigReading = {}): ConfigFile {
  const path = configPath(env);
  checkConfigPrivate(env);
  let read: ConfigRead;
  try {
    read = parseConfig(path, readConfigText(path));
  } catch (error) {
    read = readError(path, error);
  }
  if ('broken' in read) {
    if (reading.corruptAsEmpty && read.broken.kind === 'corrupt') return { profiles: {} };
    throw read.broken;
  }
  return read.file;
}

/** The config directory and file are ours alone, or refused (UnsafeFileError). */
function checkConfigPrivate(env: NodeJS.ProcessEnv): void {
  checkPrivate(configDir(env), 'config directory');
  checkPrivate(configPath(env), 'config file');
}

async function readConfigAsync(path: string): Promise<ConfigRead> {
  try {
    return parseConfig(path, readConfigText(path));
  } catch (error) {
    return readError(path, error);
  }
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
 * The directory that holds the token: created 0700. An existing default directory (…/pds, ours by
 * name) is tightened to 0700; a PDS_CONFIG_DIR that already exists is the user's choice and is left
 * as it is.
 */
async function prepareConfigDir(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = configDir(env);
  const created = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (created === undefined && !env.PDS_CONFIG_DIR) await chmod(dir, 0o700);
  checkConfigPrivate(env);
  return dir;
}

/** A lock not refreshed for this long belongs to a process that died: it is taken over. */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for a live holder before it gives up (a little over STALE_LOCK_MS). */
const LOCK_WAIT_MS = STALE_LOCK_MS + 1_000;

/**
 * Runs `work` holding the config file's lock: one writer at a time, across processes. The lock is
 * a directory beside the file (config.json.lock), so the file need not exist yet; the holder's pid
 * and host are kept beside it (config.json.lock-pid; the lock itself must stay empty to be
 * removed), to be named to whoever waits, and to tell a holder that is gone from one at work.
 */
async function withConfigLock<T>(
  env: NodeJS.ProcessEnv,
  work: () => Promise<T>,
  warn?: (line: string) => void,
): Promise<T> {
  await prepareConfigDir(env);
  const lockDir = `${configPath(env)}.lock`;
  const pidFile = `${lockDir}-pid`;
  checkPrivate(lockDir, 'config lock');
  const release = await acquireConfigLock(configPath(env), lockDir, warn);
  try {
    await writePrivateFile(pidFile, `${process.pid}\n${hostname()}\n`, 'config lock');
    return await work();
  } finally {
    await rm(pidFile, { force: true });
    await release();
  }
}

/**
 * Takes the lock, waiting for a live holder (said at once, with its pid when known) up to
 * LOCK_WAIT_MS. A holder on this host whose pid is no longer alive is gone: its lock is taken over
 * at once. A holder that left no pid (or is on another host) is waited for until its lock goes
 * stale (not refreshed for STALE_LOCK_MS), when proper-lockfile takes it over.
 */
async function acquireConfigLock(
  path: string,
  lockDir: string,
  warn?: (line: string) => void,
): Promise<() => Promise<void>> {
  // CommonJS: its functions hang off the default export once bundled.
  const { default: lockfile } = await import('proper-lockfile');
  const deadline = Date.now() + LOCK_WAIT_MS;
  let waiting: LockHolder | undefined;
  let pause = 10;
  for (;;) {
    const seen = await lockHolder(lockDir);
    if (
      seen?.pid !== undefined &&
      seen.host === hostname() &&
      !processAlive(seen.pid) &&
      (await takeOverLock(lockDir, seen.pid))
    ) {
      warn?.(`took over the config lock of pid ${seen.pid}, which stopped without releasing it`);
    }
    try {
      return await lockfile.lock(path, { realpath: false, stale: STALE_LOCK_MS, retries: 0 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const holder = (await lockHolder(lockDir)) ?? seen;
    if (waiting === undefined || (holder?.pid !== undefined && holder.pid !== waiting.pid)) {
      warn?.(`waiting for the config lock, held by ${describeHolder(holder)}`);
      waiting = holder ?? {};
    }
    if (Date.now() >= deadline) {
      throw new PdsError(
        `another pds is writing the config${holder?.pid ? ` (pid ${holder.pid})` : ''}; waited ${LOCK_WAIT_MS / 1000} s`,
        {
          details: [`if no pds is running, remove the lock: \`rm -r '${lockDir}'\``],
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(250, Math.ceil(pause * 1.3));
  }
}

interface LockHolder {
  pid?: string;
  host?: string;
}

function describeHolder(holder: LockHolder | undefined): string {
  if (holder?.pid === undefined)
    return `a process that did not say its pid (taken over if it does not refresh it within ${STALE_LOCK_MS / 1000} s)`;
  return `pid ${holder.pid}${holder.host !== undefined && holder.host !== hostname() ? ` on ${holder.host}` : ''}`;
}

/** Who holds the lock (its pid and host, when it said: the first two lines of the pid file); undefined when nobody does. */
async function lockHolder(lockDir: string): Promise<LockHolder | undefined> {
  try {
    await stat(lockDir);
  } catch {
    return undefined;
  }
  const [pid, host] = await readFile(`${lockDir}-pid`, 'utf8').then(
    (text) => text.split('\n').map((line) => line.trim()),
    () => [],
  );
  // A pid file without a host was written by an earlier pds, on this host.
  return pid !== undefined && /^\d+$/.test(pid) ? { pid, host: host || hostname() } : {};
}

function processAlive(pid: string): boolean {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    // EPERM: it is alive, and another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the lock of `pid`, which is gone. Of several processes that find it so at once, one takes
 * it over: the one that moves its pid file aside (a rename succeeds once); the others wait as for
 * any holder, and find the lock free or held by the winner.
 */
async function takeOverLock(lockDir: string, pid: string): Promise<boolean> {
  const claim = `${lockDir}-pid.${process.pid}`;
  try {
    await rename(`${lockDir}-pid`, claim);
  } catch {
    return false;
  }
  const [claimed] = (await readFile(claim, 'utf8').catch(() => '')).split('\n');
  try {
    // Another process's pid moved aside by mistake (it took the lock between the look and the
    // rename) goes back: only the dead pid's lock is removed.
    if (claimed?.trim() !== pid) {
      await rename(claim, `${lockDir}-pid`);
      return false;
    }
    // The lock is an empty directory (proper-lockfile's): rmdir, as proper-lockfile removes a stale one.
    await rmdir(lockDir).catch(() => undefined);
    return true;
  } finally {
    await rm(claim, { force: true });
  }
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
      const profiles = 'broken' in read ? {} : { ...read.file.profiles };
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

export type { GlobalFlags };

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Settings {
  profile: string;
  apiUrl: string;
  apiUrlSource: Source;
  token?: string;
  tokenSource?: Exclude<Source, 'flag' | 'default'>;
  /** The profile's credential is in a keychain that could not be read: why, for "not logged in". */
  keychainProblem?: AuthError;
  /** Where the profile's credential in use is kept: `keychain`, or the config file's path. */
  storedIn?: string;
  /** Set when the token in use is the access token of a browser sign-in (refreshed as needed). */
  oauth?: OAuthCredentials;
  project?: string;
  projectSource?: Exclude<Source, 'default'>;
  timeoutMs: number;
  /** Total waiting between retries for the whole command; 0: no retries. */
  retryBudgetMs: number;
  /** The token may go over plain http to a host that is not loopback. */
  allowHttp: boolean;
  /** `--format` or PDS_FORMAT; unset: a table on a terminal, TSV piped (`--json` and `--jq` set json). */
  format?: Format;
  /** The format is JSON (`--json`, `--format json`, or `--jq` without another format). */
  json: boolean;
  csvBom: boolean;
  csvRaw: boolean;
  quiet: boolean;
  verbose: boolean;
  noColor: boolean;
  /** --dry-run: a command that writes checks and reads, then says what it would do instead. */
  dryRun: boolean;
  /** Set when a value came from the official CLI's variables rather than PDS_*: their names. */
  royaltyportEnv?: { token?: 'ROYALTYPORT_TOKEN'; apiUrl?: 'ROYALTYPORT_API_URL' };
}

/**
 * --format, then --json or --jq (JSON), then PDS_FORMAT. `--jq` filters in any format named with
 * --format (its results are rendered in it); `--json --format csv` contradicts itself.
 */
function resolveFormat(flags: GlobalFlags, env: NodeJS.ProcessEnv): Format | undefined {
  const named = flags.format === undefined ? undefined : parseFormat(flags.format, '--format');
  if (named && flags.json === true && named !== 'json')
    throw new UsageError(`--json and --format ${named} contradict each other: use one`);
  if (named) return named;
  if (flags.json === true || flags.jq !== undefined) return 'json';
  return env.PDS_FORMAT ? parseFormat(env.PDS_FORMAT, 'PDS_FORMAT') : undefined;
}

/** flag > environment > profile > default. */
export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, reading: ConfigReading = {}): Settings {
  const profileName = flags.profile || env.PDS_PROFILE || DEFAULT_PROFILE;
  // A keychain that cannot be read leaves the profile without its credential: commands that need
  // one say why (keychainProblem), and `auth login` / `logout` can still run to repair it.
  let keychainProblem: AuthError | undefined;
  let profile: Profile;
  try {
    profile = readProfile(env, profileName, reading);
  } catch (error) {
    if (!(error instanceof KeychainReadError)) throw error;
    keychainProblem = error;
    profile = readProfile(env, profileName, { ...reading, keychainUnreadableAsEmpty: true });
  }

  const pick = <T extends string>(flag: T | undefined, envValue: string | undefined, stored: string | undefined) =>
    flag
      ? { value: flag, source: 'flag' as const }
      : envValue
        ? { value: envValue, source: 'env' as const }
        : stored
          ? { value: stored, source: 'profile' as const }
          : undefined;

  // The official CLI's variables come after pds's own, so a script written for it works unchanged.
  const apiUrl = pick(flags.apiUrl, env.PDS_API_URL || env.ROYALTYPORT_API_URL, profile['api-url']);
  const project = pick(flags.project, env.PDS_PROJECT, profile.project);
  // PDS_TOKEN (then ROYALTYPORT_TOKEN) wins over a stored credential of either kind; a profile holds one kind at a time.
  const token = pick(undefined, env.PDS_TOKEN || env.ROYALTYPORT_TOKEN, profile.token ?? profile.oauth?.access_token);
  // Name where a bad value came from: a stale profile value would otherwise look like a bad flag.
  const timeout = flags.timeout ?? profile.timeout ?? String(DEFAULT_TIMEOUT_SECONDS);
  const seconds = parseTimeout(
    timeout,
    flags.timeout === undefined ? `timeout of profile ${profileName}` : '--timeout',
  );
  const budget = pick(flags.retryBudget, env.PDS_RETRY_BUDGET, profile['retry-budget']);
  const budgetSeconds = budget
    ? parseRetryBudget(
        budget.value,
        budget.source === 'flag'
          ? '--retry-budget'
          : budget.source === 'env'
            ? 'PDS_RETRY_BUDGET'
            : `retry-budget of profile ${profileName}`,
      )
    : DEFAULT_RETRY_BUDGET_SECONDS;
  const allowHttp =
    flags.allowHttp === true ||
    (env.PDS_ALLOW_HTTP !== undefined && env.PDS_ALLOW_HTTP !== ''
      ? parseSwitch(env.PDS_ALLOW_HTTP, 'PDS_ALLOW_HTTP')
      : profile['allow-http'] !== undefined &&
        parseSwitch(profile['allow-http'], `allow-http of profile ${profileName}`));
  const url = apiUrl?.value ?? DEFAULT_API_URL;
  checkApiUrl(url);

  const format = resolveFormat(flags, env);
  const settings: Settings = {
    profile: profileName,
    apiUrl: url.replace(/\/+$/, ''),
    apiUrlSource: apiUrl?.source ?? 'default',
    timeoutMs: Math.round(seconds * 1000),
    retryBudgetMs: Math.round(budgetSeconds * 1000),
    allowHttp,
    json: format === 'json',
    csvBom: flags.csvBom === true,
    csvRaw: flags.csvRaw === true,
    quiet: flags.quiet === true,
    verbose: flags.verbose === true,
    noColor: flags.color === false,
    dryRun: flags.dryRun === true,
  };
  const royaltyport = {
    ...(apiUrl?.source === 'env' && !env.PDS_API_URL ? { apiUrl: 'ROYALTYPORT_API_URL' as const } : {}),
    ...(token?.source === 'env' && !env.PDS_TOKEN ? { token: 'ROYALTYPORT_TOKEN' as const } : {}),
  };
  if (royaltyport.apiUrl || royaltyport.token) settings.royaltyportEnv = royaltyport;
  if (keychainProblem) settings.keychainProblem = keychainProblem;
  if (token) {
    settings.token = token.value;
    settings.tokenSource = token.source === 'env' ? 'env' : 'profile';
    if (token.source !== 'env' && profile.token === undefined && profile.oauth) settings.oauth = profile.oauth;
    if (token.source !== 'env')
      settings.storedIn = profile.credential_store === 'keychain' ? 'keychain' : configPath(env);
  }
  if (format) settings.format = format;
  if (project) {
    settings.project = project.value;
    settings.projectSource = project.source;
  }
  return settings;
}

/** A `--profile` must name a saved profile ("default" always exists), unless the verb creates it. */
export function checkProfileExists(name: string, env: NodeJS.ProcessEnv): void {
  if (name === DEFAULT_PROFILE) return;
  const profiles = Object.keys(readConfig(env).profiles);
  if (profiles.includes(name)) return;
  throw new UsageError(`unknown profile '${name}'`, {
    details: [
      profiles.length > 0 ? `profiles: ${profiles.join(', ')}` : 'no profile is saved yet',
      `\`pds --profile ${name} auth login\` creates it`,
    ],
  });
}

/** A token for display: enough to recognise it, never the whole of it (short ones not at all). */
export function maskToken(token: string): string {
  return token.length > 8 ? `${token.slice(0, 4)}…` : '…';
}

export function checkApiUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`invalid API URL '${value}': expected something like https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`invalid API URL '${value}': only http and https are supported`);
  }
  if (/\/v1\/?$/.test(url.pathname)) {
    throw new UsageError(`invalid API URL '${value}': give the base URL without /v1`);
  }
}

/** Seconds of --timeout (or the timeout key), within TIMEOUT_RANGE_SECONDS. */
export function parseTimeout(value: string, where: string): number {
  const seconds = value.trim() === '' ? NaN : Number(value);
  const { min, max } = TIMEOUT_RANGE_SECONDS;
  if (!Number.isFinite(seconds) || seconds < min || seconds > max) {
    throw new UsageError(`invalid ${where} '${value}': expected a number of seconds from ${min} to ${max}`);
  }
  return seconds;
}

/** Seconds of --retry-budget (or PDS_RETRY_BUDGET, or the retry-budget key); 0 turns retries off. */
export function parseRetryBudget(value: string, where: string): number {
  const seconds = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_RETRY_BUDGET_SECONDS) {
    throw new UsageError(
      `invalid ${where} '${value}': expected a number of seconds from 0 (no retries) to ${MAX_RETRY_BUDGET_SECONDS}`,
    );
  }
  return seconds;
}

/** A yes/no setting: 1/true/yes or 0/false/no. */
export function parseSwitch(value: string, where: string): boolean {
  const normalised = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalised)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalised)) return false;
  throw new UsageError(`invalid ${where} '${value}': expected true or false (1 or 0)`);
}

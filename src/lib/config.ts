// Profiles on disk (api url, token, default project), and the settings a run resolves from
// flag > environment > profile > default (DESIGN.md, "Configuration precedence").
//
// Writes go through `conf` (atomic, mode 0600), one at a time: read, change and write happen under
// a lock (proper-lockfile), so concurrent `pds config set` / `use` / `auth login` lose nothing. Reads
// parse the same JSON file directly: loading conf and its schema validator costs ~70 ms, and every
// command reads the config. A config file that cannot be used (a directory, unreadable, not JSON)
// stops every command with a BrokenConfigError that names the file and a command that works.
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rename } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { UsageError } from './errors.js';
import type { GlobalFlags } from './global-flags.js';
import type { ConfigKey } from './config-keys.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:4010';
export const DEFAULT_PROFILE = 'default';
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** --timeout: below 0.1 s nothing answers; above an hour a request is stuck, not slow. */
export const TIMEOUT_RANGE_SECONDS = { min: 0.1, max: 3600 } as const;
export const DEFAULT_RETRY_BUDGET_SECONDS = 60;
export const MAX_RETRY_BUDGET_SECONDS = 3600;

/** A browser sign-in (OAuth 2.1): the grant's tokens and what refreshing and revoking them needs. */
const OAuthCredentials = z.looseObject({
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

const Profile = z.looseObject({
  'api-url': z.optional(z.string()),
  token: z.optional(z.string()),
  oauth: z.optional(OAuthCredentials),
  /** The client `auth login --web` registered at that issuer, used again by the next sign-in. */
  oauth_client: z.optional(z.looseObject({ issuer: z.string(), client_id: z.string() })),
  project: z.optional(z.string()),
  timeout: z.optional(z.string()),
  'retry-budget': z.optional(z.string()),
  'allow-http': z.optional(z.string()),
});
export type Profile = z.infer<typeof Profile>;

const ConfigFile = z.looseObject({
  profiles: z._default(z.record(z.string(), Profile), {}),
});
type ConfigFile = z.infer<typeof ConfigFile>;

export { CONFIG_KEYS, type ConfigKey } from './config-keys.js';

export function configDir(env: NodeJS.ProcessEnv): string {
  return env.PDS_CONFIG_DIR || defaultConfigDir(env);
}

function defaultConfigDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'pds');
}

export const configPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'config.json');

export type BrokenConfigKind = 'directory' | 'unreadable' | 'corrupt';

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
  if (kind === 'corrupt') return ['`pds auth login` replaces it (the broken file is kept beside it)', `or move it away: \`${aside}\``];
  if (kind === 'directory') return [`move it away: \`${aside}\`, then \`pds auth login\``];
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
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) return { broken: new BrokenConfigError(path, 'corrupt', 'does not hold pds profiles (unexpected shape)') };
  return { file: parsed.data };
}

function readError(path: string, error: unknown): ConfigRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { file: { profiles: {} } };
  if (code === 'EISDIR') return { broken: new BrokenConfigError(path, 'directory', 'is a directory, not a file') };
  if (code === 'EACCES' || code === 'EPERM') return { broken: new BrokenConfigError(path, 'unreadable', 'cannot be read: permission denied') };
  return { broken: new BrokenConfigError(path, 'unreadable', `cannot be read: ${(error as Error).message}`) };
}

export interface ConfigReading {
  /**
   * A file that is not JSON reads as no profiles (`pds auth login`, which replaces it when it
   * writes its new profile) instead of throwing.
   */
  corruptAsEmpty?: boolean;
}

/** The profiles on disk; no file is no profiles; a file that cannot be used throws BrokenConfigError. */
export function readConfig(env: NodeJS.ProcessEnv, reading: ConfigReading = {}): ConfigFile {
  const path = configPath(env);
  let read: ConfigRead;
  try {
    read = parseConfig(path, readFileSync(path, 'utf8'));
  } catch (error) {
    read = readError(path, error);
  }
  if ('broken' in read) {
    if (reading.corruptAsEmpty && read.broken.kind === 'corrupt') return { profiles: {} };
    throw read.broken;
  }
  return read.file;
}

async function readConfigAsync(path: string): Promise<ConfigRead> {
  try {
    return parseConfig(path, await readFile(path, 'utf8'));
  } catch (error) {
    return readError(path, error);
  }
}

export function readProfile(env: NodeJS.ProcessEnv, name: string, reading: ConfigReading = {}): Profile {
  return readConfig(env, reading).profiles[name] ?? {};
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
  return dir;
}

/** Runs `work` holding the config file's lock: one writer at a time, across processes. */
async function withConfigLock<T>(env: NodeJS.ProcessEnv, work: () => Promise<T>): Promise<T> {
  await prepareConfigDir(env);
  // CommonJS: its functions hang off the default export once bundled.
  const { default: lockfile } = await import('proper-lockfile');
  // The lock is a directory beside the file (config.json.lock), so the file need not exist yet.
  // A lock left by a killed process is taken over after 10 s (a live holder keeps it fresh).
  const release = await lockfile.lock(configPath(env), {
    realpath: false,
    stale: 10_000,
    // A token refresh holds the lock for one request; others wait for it rather than fail.
    retries: { retries: 200, factor: 1.3, minTimeout: 10, maxTimeout: 250 },
  });
  try {
    return await work();
  } finally {
    await release();
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
): Promise<Profile> {
  return withConfigLock(env, async () => {
    const path = configPath(env);
    const read = await readConfigAsync(path);
    if ('broken' in read && (!replacing || read.broken.kind !== 'corrupt')) throw read.broken;
    const profiles = 'broken' in read ? {} : { ...read.file.profiles };
    const next = { ...(await change({ ...profiles[name] })) };
    if ('broken' in read && replacing) {
      const aside = `${path}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(path, aside);
      replacing.movedAside(aside, read.broken);
    }
    for (const key of Object.keys(next) as (keyof Profile)[]) {
      if (next[key] === undefined) delete next[key];
    }
    profiles[name] = next;
    const { default: Conf } = await import('conf');
    const store = new Conf<ConfigFile>({
      projectName: 'pds',
      cwd: configDir(env),
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
    });
    store.set('profiles', profiles);
    // conf creates the file with the mode; an older file keeps its own, so tighten it explicitly.
    await chmod(store.path, 0o600);
    return next;
  });
}

export type { GlobalFlags };

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Settings {
  profile: string;
  apiUrl: string;
  apiUrlSource: Source;
  token?: string;
  tokenSource?: Exclude<Source, 'flag' | 'default'>;
  /** Set when the token in use is the access token of a browser sign-in (refreshed as needed). */
  oauth?: OAuthCredentials;
  project?: string;
  projectSource?: Exclude<Source, 'default'>;
  timeoutMs: number;
  /** Total waiting between retries for the whole command; 0: no retries. */
  retryBudgetMs: number;
  /** The token may go over plain http to a host that is not loopback. */
  allowHttp: boolean;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  noColor: boolean;
  /** Set when a value came from the official CLI's variables rather than PDS_*: their names. */
  royaltyportEnv?: { token?: 'ROYALTYPORT_TOKEN'; apiUrl?: 'ROYALTYPORT_API_URL' };
}

/** flag > environment > profile > default. */
export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, reading: ConfigReading = {}): Settings {
  const profileName = flags.profile || env.PDS_PROFILE || DEFAULT_PROFILE;
  const profile = readProfile(env, profileName, reading);

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
  const seconds = parseTimeout(timeout, flags.timeout === undefined ? `timeout of profile ${profileName}` : '--timeout');
  const budget = pick(flags.retryBudget, env.PDS_RETRY_BUDGET, profile['retry-budget']);
  const budgetSeconds = budget
    ? parseRetryBudget(budget.value, budget.source === 'flag' ? '--retry-budget' : budget.source === 'env' ? 'PDS_RETRY_BUDGET' : `retry-budget of profile ${profileName}`)
    : DEFAULT_RETRY_BUDGET_SECONDS;
  const allowHttp =
    flags.allowHttp === true ||
    (env.PDS_ALLOW_HTTP !== undefined && env.PDS_ALLOW_HTTP !== ''
      ? parseSwitch(env.PDS_ALLOW_HTTP, 'PDS_ALLOW_HTTP')
      : profile['allow-http'] !== undefined && parseSwitch(profile['allow-http'], `allow-http of profile ${profileName}`));
  const url = apiUrl?.value ?? DEFAULT_API_URL;
  checkApiUrl(url);

  const settings: Settings = {
    profile: profileName,
    apiUrl: url.replace(/\/+$/, ''),
    apiUrlSource: apiUrl?.source ?? 'default',
    timeoutMs: Math.round(seconds * 1000),
    retryBudgetMs: Math.round(budgetSeconds * 1000),
    allowHttp,
    json: flags.json === true || flags.jq !== undefined,
    quiet: flags.quiet === true,
    verbose: flags.verbose === true,
    noColor: flags.color === false,
  };
  const royaltyport = {
    ...(apiUrl?.source === 'env' && !env.PDS_API_URL ? { apiUrl: 'ROYALTYPORT_API_URL' as const } : {}),
    ...(token?.source === 'env' && !env.PDS_TOKEN ? { token: 'ROYALTYPORT_TOKEN' as const } : {}),
  };
  if (royaltyport.apiUrl || royaltyport.token) settings.royaltyportEnv = royaltyport;
  if (token) {
    settings.token = token.value;
    settings.tokenSource = token.source === 'env' ? 'env' : 'profile';
    if (token.source !== 'env' && profile.token === undefined && profile.oauth) settings.oauth = profile.oauth;
  }
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
    throw new UsageError(`invalid ${where} '${value}': expected a number of seconds from 0 (no retries) to ${MAX_RETRY_BUDGET_SECONDS}`);
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

/**
 * Loopback as the URL writes it: 127.0.0.0/8, [::1], and the one name every system maps without
 * asking DNS (`localhost`, from the hosts file). Never what a name resolves to: `localhost.` and
 * `x.localhost` are looked up like any other name (getaddrinfo may ask a DNS server), so they count
 * as names that are not loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

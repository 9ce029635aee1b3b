// The settings a run resolves from flag > environment > profile > default (docs/service.md,
// "Settings"), and the checks of their values. The file, its lock and the profiles'
// credentials are config-file.ts, config-lock.ts and config-profiles.ts.
import { UsageError, type AuthError } from '../errors.js';
import { DURATION_FORMS, parseDuration } from '../clock.js';
import type { GlobalFlags } from '../verbs/global-flags.js';
import { parseFormat, type Format } from '../output/formats.js';
import type { OAuthCredentials } from './shapes.js';
import { type ConfigReading, configPath, readConfig } from './file.js';
import { KeychainReadError, readProfile, type Profile } from './profiles.js';
import { DEFAULT_RETRY_BUDGET_SECONDS } from '../http/retry.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:4010';
export const DEFAULT_PROFILE = 'default';
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** --timeout: below 0.1 s nothing answers; above an hour a request is stuck, not slow. */
export const TIMEOUT_RANGE_SECONDS = { min: 0.1, max: 3600 } as const;
export const MAX_RETRY_BUDGET_SECONDS = 3600;

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
  const seconds = parseDuration(value);
  const { min, max } = TIMEOUT_RANGE_SECONDS;
  if (seconds === undefined || seconds < min || seconds > max) {
    throw new UsageError(`invalid ${where} '${value}': expected seconds from ${min} to ${max} (${DURATION_FORMS})`);
  }
  return seconds;
}

/** Seconds of --retry-budget (or PDS_RETRY_BUDGET, or the retry-budget key); 0 turns retries off. */
export function parseRetryBudget(value: string, where: string): number {
  const seconds = parseDuration(value);
  if (seconds === undefined || seconds > MAX_RETRY_BUDGET_SECONDS) {
    throw new UsageError(
      `invalid ${where} '${value}': expected seconds from 0 (no retries) to ${MAX_RETRY_BUDGET_SECONDS} (${DURATION_FORMS})`,
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

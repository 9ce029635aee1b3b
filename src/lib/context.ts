// The Context handed to every command: streams, resolved settings, the output layer, the API
// client (created on first use), the clock and the Ctrl-C signal.
import { type IO, viewOnStdout } from './io.js';
import {
  DEFAULT_API_URL,
  DEFAULT_PROFILE,
  resolveSettings,
  type GlobalFlags,
  type Settings,
} from './config/settings.js';
import { readConfig } from './config/file.js';
import { Output } from './output/renderer.js';
import type { PageSeen } from './output/list-writers.js';
import { HttpClient } from './http/client.js';
import { RetryBudget } from './http/retry.js';
import { RatePacer } from './http/pace.js';
import { checkTransportSafety } from './http/safety.js';
import { AuthError, SIGN_IN_HINT, UsageError } from './errors.js';
import { UUID_PATTERN } from './vocabulary.js';
import { createApi, type Api } from './api/index.js';
import { VERSION } from './version.js';
import type { Clock } from './clock.js';
import { OAuthSession } from './auth/session.js';
import { OAuthRequests } from './auth/requests.js';

const USER_AGENT = `pds/${VERSION} node/${process.versions.node}`;

export interface Dependencies {
  io: IO;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** Retries of idempotent requests (default 3). */
  maxRetries?: number;
  /** `pds auth login`: a config file that is not JSON reads as no profiles (login replaces it). */
  corruptConfigAsEmpty?: boolean;
  /**
   * Where --verbose traces HTTP (default: stderr). A verb an agent's tool runs keeps its stderr for
   * the agent; its trace belongs in the server's log.
   */
  traceTo?: { write(text: string): unknown };
  /** Told of each page of a list the command prints (an agent's tool says where it lies in the whole list). */
  pageSeen?: (page: PageSeen) => void;
}

export class Context {
  readonly settings: Settings;
  readonly output: Output;
  private client: HttpClient | undefined;
  private apiInstance: Api | undefined;
  private session: OAuthSession | undefined;
  /** One budget of retry waits for the whole command, shared by every client it makes. */
  private retryBudget: RetryBudget | undefined;
  /** One pace for the whole command: its requests share the service's rate-limit window. */
  private pacer: RatePacer | undefined;

  constructor(
    readonly deps: Dependencies,
    private readonly flags: GlobalFlags,
  ) {
    this.settings = resolveSettings(flags, deps.env, { corruptAsEmpty: deps.corruptConfigAsEmpty === true });
    this.output = new Output(deps.io, this.settings, deps.env, deps.pageSeen);
    // A table is a view for people, guarded under GitHub Actions; everything else on stdout (TSV,
    // ids, JSON, CSV…) is data and leaves pds as it is, under GitHub Actions too (io.ts).
    if (this.output.mode === 'table') viewOnStdout(deps.io);
  }

  /**
   * The same flags over other streams or another signal (`pds mcp`: stdout belongs to the
   * protocol), some flags changed (a tool runs a verb in JSON, in the call's project).
   */
  derive(overrides: Partial<Dependencies>, flags: GlobalFlags = {}): Context {
    return new Context({ ...this.deps, ...overrides }, { ...this.flags, ...flags });
  }

  /** pds's version (`pds mcp` tells its clients). */
  get version(): string {
    return VERSION;
  }

  get io(): IO {
    return this.deps.io;
  }

  get env(): NodeJS.ProcessEnv {
    return this.deps.env;
  }

  get signal(): AbortSignal {
    return this.deps.signal;
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  /** The typed API over the configured URL and token; fails with exit 3 when there is no token. */
  get api(): Api {
    if (!this.apiInstance) {
      this.requireToken();
      this.apiInstance = createApi(this.http());
    }
    return this.apiInstance;
  }

  /** Fails with exit 3 when there is no token: for a command that should stop before its other work. */
  requireToken(): void {
    if (!this.settings.token)
      throw this.settings.keychainProblem ?? new AuthError('not logged in', { details: [SIGN_IN_HINT] });
  }

  /** The browser sign-in in use (not when PDS_TOKEN or a stored API token applies). */
  get oauthSession(): OAuthSession | undefined {
    if (this.settings.oauth && !this.session) {
      this.session = new OAuthSession(this.settings.oauth, {
        env: this.deps.env,
        profile: this.settings.profile,
        now: () => this.deps.clock.now(),
        requests: () => this.oauthRequests(),
      });
    }
    return this.session;
  }

  /** Requests to an authorization server, under the same timeout, Ctrl-C and --verbose as the API's. */
  oauthRequests(): OAuthRequests {
    return new OAuthRequests({
      env: this.deps.env,
      signal: this.deps.signal,
      timeoutMs: this.settings.timeoutMs,
      userAgent: USER_AGENT,
      allowHttp: this.settings.allowHttp,
      ...(this.settings.verbose ? { trace: (line: string) => this.deps.io.stderr.write(`${line}\n`) } : {}),
    });
  }

  /** An HTTP client; `overrides` lets `auth login` try a token before it is saved. */
  http(overrides: { token?: string; apiUrl?: string } = {}): HttpClient {
    this.retryBudget ??= new RetryBudget(this.settings.retryBudgetMs);
    this.pacer ??= new RatePacer({
      now: this.deps.clock.now,
      sleep: this.deps.clock.sleep,
      // A window further off than the budget (or a minute) is left to the retry rules to judge.
      maxWaitMs: Math.max(this.settings.retryBudgetMs, 60_000),
      notice: (line) => this.output.warn(line),
    });
    const make = () => {
      const baseUrl = overrides.apiUrl ?? this.settings.apiUrl;
      const token = overrides.token ?? this.settings.token;
      const tokenSource =
        overrides.token !== undefined ? 'the token given' : tokenSourceName(this.settings, this.deps.env);
      // Refused here, before any connection: a bad token or a token bound for plain http sends nothing.
      checkTransportSafety({
        baseUrl,
        token,
        tokenSource,
        allowHttp: this.settings.allowHttp,
      });
      return new HttpClient({
        baseUrl,
        token,
        ...(overrides.token === undefined && this.oauthSession ? { credentials: this.oauthSession } : {}),
        timeoutMs: this.settings.timeoutMs,
        userAgent: USER_AGENT,
        maxRetries: this.deps.maxRetries ?? 3,
        signal: this.deps.signal,
        sleep: this.deps.clock.sleep,
        env: this.deps.env,
        ...(this.settings.verbose
          ? { trace: (line: string) => (this.deps.traceTo ?? this.deps.io.stderr).write(`${line}\n`) }
          : {}),
        notice: (line: string) => this.output.warn(line),
        whileSlow: (work) => this.output.whileSlow('waiting for the service', work),
        ...(token ? { tokenSource } : {}),
        ...(token && overrides.token === undefined
          ? { refusedHint: () => refusedTokenHint(this.settings, this.deps.env) }
          : {}),
        unreachableHint: unreachableHint(this.settings, baseUrl),
        retryBudget: this.retryBudget as RetryBudget,
        pacer: this.pacer as RatePacer,
      });
    };
    if (overrides.token !== undefined || overrides.apiUrl !== undefined) return make();
    this.client ??= make();
    return this.client;
  }

  /**
   * `-p`/PDS_PROJECT given as a project's exact name, as `pds use` takes it: looked up once, before
   * the command runs (one request; none when it is a UUID or not given).
   */
  async resolveProjectName(): Promise<void> {
    const given = this.settings.project?.trim();
    // A profile's project is stored by `pds use` as an id: only -p and PDS_PROJECT may hold a name.
    if (given === undefined || given === '' || UUID_PATTERN.test(given) || this.settings.projectSource === 'profile')
      return;
    // Without a token, or without an answer, the name stays as given: the command then says what
    // it would have said (not logged in, invalid project id), and a local one is not held up.
    if (!this.settings.token) return;
    const { projectByName } = await import('./project-name.js');
    try {
      this.settings.project = (await projectByName(given, this.api)).id;
    } catch (error) {
      if (error instanceof UsageError) throw error;
    }
  }

  /** The project to act on (flag, PDS_PROJECT or the profile's), checked to be a UUID. */
  project(explicit?: string): string {
    const project = explicit ?? this.settings.project;
    // Signing in comes first: a newcomer told "no project" would pick one, then hear "not logged in".
    if (!project) this.requireToken();
    if (!project) {
      throw new UsageError('no project selected', {
        details: ['pass -p <project-id>, set PDS_PROJECT, or run `pds use <project>`'],
      });
    }
    checkUuid(project, 'project id');
    // UUIDs are case-insensitive, but the service looks ids up as sent: send the canonical form.
    return project.toLowerCase();
  }
}

export function checkUuid(value: string, what: string): void {
  if (!UUID_PATTERN.test(value)) {
    throw new UsageError(`invalid ${what} '${value}': expected a UUID like 5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7`);
  }
}

/**
 * What to do about a token the service refused, for where it came from: a variable that hides a
 * stored sign-in is unset (the sign-in may well work); a variable alone is replaced or dropped for
 * a sign-in; a profile's token is renewed by signing in again.
 */
function refusedTokenHint(settings: Settings, env: NodeJS.ProcessEnv): string {
  const again = `\`pds auth login${settings.profile === DEFAULT_PROFILE ? '' : ` --profile ${settings.profile}`}\``;
  if (settings.tokenSource !== 'env') return `sign in again: ${again}`;
  const variable = env.PDS_TOKEN ? 'PDS_TOKEN' : 'ROYALTYPORT_TOKEN';
  let stored: { token?: unknown; oauth?: unknown; credential_store?: unknown } | undefined;
  try {
    stored = readConfig(env).profiles[settings.profile];
  } catch {
    stored = undefined;
  }
  if (stored && (stored.token !== undefined || stored.oauth !== undefined || stored.credential_store !== undefined)) {
    return `${variable} overrides the sign-in stored in profile ${settings.profile}: unset it to use that (\`unset ${variable}\`)`;
  }
  return `set ${variable} to a valid API token, or unset it and sign in: ${again}`;
}

function tokenSourceName(settings: Settings, env: NodeJS.ProcessEnv): string {
  if (settings.tokenSource === 'env') return env.PDS_TOKEN ? 'PDS_TOKEN' : 'ROYALTYPORT_TOKEN';
  return `the token of profile ${settings.profile}`;
}

/**
 * What to do when nothing answers. On this machine (the built-in address is the emulator's) that is
 * most likely an emulator not started yet: the command that starts one there.
 */
function unreachableHint(settings: Settings, baseUrl: string): string[] {
  const source = {
    flag: '--api-url',
    env: 'PDS_API_URL',
    profile: `profile ${settings.profile} (\`pds config list\`)`,
    default: 'the built-in default',
  }[settings.apiUrlSource];
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    const port = url.port || '80';
    const start = `pds emulator start${port === new URL(DEFAULT_API_URL).port ? '' : ` --port ${port}`}${url.hostname === '[::1]' ? ' --host ::1' : ''}`;
    return [
      `nothing listens at ${baseUrl} (from ${source}): for the local emulator, run \`${start}\` in another terminal`,
      'for the service, set its URL: `pds config set api-url <url>` (or PDS_API_URL, --api-url)',
    ];
  }
  return [`the URL is from ${source}: check it, and that the service is up`];
}

// The emulator's HTTP server: one route table, bearer auth, the error envelope of docs/service.md, "Two forms",
// rate limiting (docs/service.md, "Two forms"), fault injection and latency for reliability tests, persistence, and a
// record of every request so tests can assert what was sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  HttpError,
  type EmulatorOptions,
  type RecordedRequest,
  type Reply,
  type Route,
  type RouteContext,
} from './http.js';
import type { EmulatorState } from './store.js';
import { Rng } from './seed.js';
import { openState } from './persist.js';
import { projectRoutes } from './routes/projects.js';
import { catalogRoutes } from './routes/catalog.js';
import { documentRoutes, advanceUploads } from './routes/documents.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { downloadRoutes } from './routes/downloads.js';
import { signedUploadRoutes } from './routes/signed-uploads.js';
import { serviceNowRoutes } from './routes/service-now.js';
import { startStorage, type Storage } from './storage.js';
import { AuthorizationServer } from './oauth.js';
import { bearerChallenge, handleOAuth } from './routes/oauth.js';
import { SandboxRunner } from './sandbox/runner.js';

export interface Emulator {
  url: string;
  port: number;
  state: EmulatorState;
  options: EmulatorOptions;
  /** The requests received, in order: the most recent `requestLogSize` (default 1000) of them. */
  requests: RecordedRequest[];
  /** Whether the state was seeded in memory, seeded into the data file, or loaded from it. */
  origin: 'memory' | 'seeded' | 'loaded';
  /** The storage host behind the download endpoints (a second port). */
  storage: Storage;
  /** The OAuth authorization server (browser sign-in). */
  oauth: AuthorizationServer;
  /** Misbehaviour on demand, for tests of the client. */
  faults: EmulatorFaults;
  close(): Promise<void>;
}

export interface EmulatorFaults {
  /**
   * Requests (`METHOD /path`) whose answer is lost: the request is handled in full, then the
   * connection is cut instead of answering, as when a network drops a reply. Each entry is used once.
   */
  dropAnswers: string[];
  /**
   * Requests (`METHOD /path`) refused with 429 and `Retry-After: 1` before any handler runs (a
   * rate limit that lasts a second: nothing is made). Each entry is used once.
   */
  rateLimitOnce: string[];
}

export const defaultOptions: EmulatorOptions = {
  port: 4010,
  host: '127.0.0.1',
  scale: 1,
  latencyMs: 0,
  failRate: 0,
  seed: 1,
  rateLimit: 0,
  processingMs: 1000,
  quiet: false,
  sandboxTimeoutMs: 10_000,
  drift: false,
  flavor: 'deployed',
  urlTtlSeconds: 300,
  tokenTtlSeconds: 3600,
};

interface CompiledRoute extends Route {
  segments: string[];
}

function compile(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => ({ ...route, segments: route.pattern.split('/').filter(Boolean) }));
}

/** The path's segments, percent-decoded; 400 for a malformed escape such as `%zz`. */
function pathSegments(pathname: string): string[] {
  try {
    return pathname
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  } catch {
    throw new HttpError(400, 'malformed percent-encoding in the request path');
  }
}

function match(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (route.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const want = route.segments[i] as string;
    const got = parts[i] as string;
    if (want.startsWith(':')) params[want.slice(1)] = got;
    else if (want !== got) return undefined;
  }
  return params;
}

const DEFAULT_REQUEST_LOG_SIZE = 1000;

const WINDOW_MS = 60_000;
/** What the headers announce when no limit is set: clients that pace themselves never need to. */
const UNLIMITED = 1_000_000;

interface RateDecision {
  headers: Record<string, string>;
  /** Seconds until the window resets, when this request is over the limit. */
  retryAfter?: number;
}

/** A fixed 60-second window per key (the token, or the client address when there is none). */
class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limit: number) {}

  hit(key: string, now: number): RateDecision {
    let window = this.windows.get(key);
    if (!window || now >= window.start + WINDOW_MS) {
      if (this.windows.size > 10_000) this.prune(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    const limit = this.limit > 0 ? this.limit : UNLIMITED;
    const resetMs = window.start + WINDOW_MS;
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - window.count)),
      'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)),
    };
    if (this.limit > 0 && window.count > this.limit) {
      return { headers, retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)) };
    }
    return { headers };
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now >= window.start + WINDOW_MS) this.windows.delete(key);
  }
}

/** The options seeding does not check itself (it checks `scale`). */
function checkOptions(options: EmulatorOptions): void {
  const fail = (message: string) => {
    throw new RangeError(message);
  };
  if (!(options.failRate >= 0 && options.failRate <= 1))
    fail(`fail rate must be between 0 and 1, got ${options.failRate}`);
  if (!(options.latencyMs >= 0)) fail(`latency must be ≥ 0 ms, got ${options.latencyMs}`);
  if (!Number.isSafeInteger(options.rateLimit) || options.rateLimit < 0) {
    fail(`rate limit must be an integer ≥ 0, got ${options.rateLimit}`);
  }
}

const bearer = (req: IncomingMessage): string =>
  /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long an early answer waits for the rest of a body: in all, and since the last bytes came. */
const DRAIN_MS = 2_000;
const DRAIN_IDLE_MS = 100;

/**
 * Reads and discards what is left of a request body until it ends, the client pauses or the time
 * is up. A client still sending an upload when the answer comes may otherwise get a reset instead
 * of the answer; one that waits for the answer before sending more gets it after a short pause.
 */
function drain(req: IncomingMessage): Promise<void> {
  if (req.complete) return Promise.resolve();
  return new Promise((resolve) => {
    let idle = setTimeout(() => done(), DRAIN_IDLE_MS);
    const overall = setTimeout(() => done(), DRAIN_MS);
    const onData = () => {
      clearTimeout(idle);
      idle = setTimeout(() => done(), DRAIN_IDLE_MS);
    };
    const done = () => {
      clearTimeout(idle);
      clearTimeout(overall);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    req.on('data', onData);
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
  });
}

/**
 * An error answer. A body nobody has read is drained first, unless the handler chose to close the
 * connection instead (it refuses to read an oversized body); a body still unread closes it.
 */
async function sendError(req: IncomingMessage, res: ServerResponse, error: HttpError): Promise<void> {
  const closing = error.headers.connection === 'close';
  if (!closing && !req.complete && !req.readableDidRead) await drain(req);
  if (res.headersSent || res.destroyed) {
    res.end();
    return;
  }
  if (!req.complete) res.setHeader('connection', 'close');
  sendJson(res, { status: error.status, body: error.body(), headers: error.headers });
}

/** What a request is routed with: the route table and the state and services its handlers use. */
interface App {
  routes: CompiledRoute[];
  state: EmulatorState;
  options: EmulatorOptions;
  oauth: AuthorizationServer;
  sandbox: SandboxRunner;
  commit: RouteContext['commit'];
  save: RouteContext['save'];
  storage: Storage;
  markBehind: () => void;
  /** Answers to drop (tests of a client that lost an answer). */
  faults: EmulatorFaults;
}

/** The route the method and path name, its token checked, then its handler's answer. */
async function routeRequest(
  app: App,
  req: IncomingMessage,
  res: ServerResponse,
  record: RecordedRequest,
): Promise<void> {
  const { routes, state, options, oauth, sandbox, commit, save, storage } = app;
  const url = new URL(req.url ?? '/', 'http://emulator');
  const parts = pathSegments(url.pathname);
  const method = req.method ?? 'GET';
  let allowed = false;
  for (const candidate of routes) {
    const params = match(candidate, parts);
    if (!params) continue;
    allowed = true;
    if (candidate.method !== method) continue;
    const token = bearer(req);
    const scope = state.tokens[token] ?? oauth.scopeOf(token);
    if (!scope) {
      const challenge = { 'www-authenticate': bearerChallenge(req, token !== '') };
      throw new HttpError(401, token ? 'invalid or expired token' : 'missing bearer token', challenge);
    }
    const ctx: RouteContext = {
      req,
      res,
      method,
      path: url.pathname,
      params,
      query: url.searchParams,
      token,
      principal: state.tokens[token] ? token : `grant:${oauth.grantOf(token) ?? token}`,
      scope,
      state,
      options,
      record,
      sandbox,
      commit,
      save,
      now: () => Date.now(),
      storage,
    };
    const limited = app.faults.rateLimitOnce.indexOf(`${method} ${url.pathname}`);
    if (limited >= 0) {
      app.faults.rateLimitOnce.splice(limited, 1);
      throw new HttpError(429, 'rate limit exceeded (injected)', { 'retry-after': '1' });
    }
    await advanceUploads(ctx, app.markBehind);
    const reply = await candidate.handler(ctx);
    const drop = app.faults.dropAnswers.indexOf(`${method} ${url.pathname}`);
    if (drop >= 0) {
      app.faults.dropAnswers.splice(drop, 1);
      res.destroy();
      return;
    }
    if (reply) sendJson(res, reply);
    return;
  }
  throw new HttpError(allowed ? 405 : 404, allowed ? 'method not allowed' : 'not found');
}

export async function startEmulator(overrides: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  const options: EmulatorOptions = { ...defaultOptions, ...overrides };
  checkOptions(options);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const persistence = openState(options);
  const { state, save, commit, origin } = persistence;
  // The deployed service's routes come first: `POST /v1/contracts/uploads` before `/v1/contracts/:id`.
  const current = options.flavor === 'seed' ? [] : [...signedUploadRoutes, ...serviceNowRoutes];
  const routes = compile([
    ...current,
    ...projectRoutes,
    ...catalogRoutes,
    ...documentRoutes,
    ...sandboxRoutes,
    ...(options.downloads === false ? [] : downloadRoutes),
  ]);
  const faultsOnDemand: EmulatorFaults = { dropAnswers: [], rateLimitOnce: [] };
  const storage = await startStorage(state, {
    host: options.host,
    quiet: options.quiet,
    log,
    ...(options.dataFile === undefined ? {} : { dataFile: options.dataFile }),
  });
  const requests: RecordedRequest[] = [];
  const requestLogSize = options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE;
  const sandbox = new SandboxRunner(options.execLimits);
  const limiter = new RateLimiter(options.rateLimit);
  // One draw per request in arrival order: the same seed and the same requests fail the same way.
  const faults = new Rng(options.seed);
  const oauth = new AuthorizationServer(state, options.tokenTtlSeconds);

  const app: App = {
    routes,
    state,
    options,
    oauth,
    sandbox,
    commit,
    save,
    storage,
    markBehind: persistence.markBehind,
    faults: faultsOnDemand,
  };
  const serve = async (req: IncomingMessage, res: ServerResponse, record: RecordedRequest): Promise<void> => {
    await admit(req, res, options, limiter, faults);
    if (await handleOAuth(req, res, oauth, state)) return;
    await routeRequest(app, req, res, record);
  };
  const server = createServer((req, res) => {
    const record = recordRequest(req, requests, requestLogSize);
    logWhenFinished(req, res, record, options, log);
    serve(req, res, record)
      .catch(async (error: unknown) => {
        const httpError = error instanceof HttpError ? error : new HttpError(500, 'internal error');
        if (!(error instanceof HttpError) && !options.quiet) log(`internal error: ${String(error)}`);
        await sendError(req, res, httpError);
      })
      .catch(() => res.destroy());
  });

  await listen(server, options).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    state,
    options,
    requests,
    origin,
    storage,
    oauth,
    faults: faultsOnDemand,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await storage.close();
      await sandbox.close();
      // Folds the journal into the snapshot, so the next start reads one file.
      await persistence.close();
    },
  };
}

/**
 * What comes before any handler: the host check, the rate limit, the latency asked for and an
 * injected fault. Throws the refusal.
 */
async function admit(
  req: IncomingMessage,
  res: ServerResponse,
  options: EmulatorOptions,
  limiter: RateLimiter,
  faults: Rng,
): Promise<void> {
  if (!ownHost(req.headers.host, options.host)) {
    throw new HttpError(
      421,
      `this emulator answers only to its own address (${options.host}, localhost or an IP address), not to '${req.headers.host ?? ''}'`,
    );
  }
  const token = bearer(req);
  const rate = limiter.hit(token ? `token:${token}` : `address:${req.socket.remoteAddress ?? ''}`, Date.now());
  for (const [name, value] of Object.entries(rate.headers)) res.setHeader(name, value);
  const injectFault = faults.next() < options.failRate;
  if (options.latencyMs > 0) await sleep(options.latencyMs);
  // Both refusals come before any handler, so a refused upload leaves nothing behind.
  if (rate.retryAfter !== undefined) {
    throw new HttpError(429, 'rate limit exceeded', { 'retry-after': String(rate.retryAfter) });
  }
  if (injectFault) throw new HttpError(503, 'service unavailable (injected fault)', { 'retry-after': '1' });
}

/** Once the answer is sent: its status into the record, and a line in the log unless quiet. */
function logWhenFinished(
  req: IncomingMessage,
  res: ServerResponse,
  record: RecordedRequest,
  options: EmulatorOptions,
  log: (line: string) => void,
): void {
  const started = performance.now();
  res.on('finish', () => {
    record.status = res.statusCode;
    if (!options.quiet) {
      log(`${record.method} ${req.url ?? ''} ${res.statusCode} ${Math.round(performance.now() - started)}ms`);
    }
  });
}

/** The request, added to the log of the `size` most recent ones that tests read. */
function recordRequest(req: IncomingMessage, requests: RecordedRequest[], size: number): RecordedRequest {
  const url = new URL(req.url ?? '/', 'http://emulator');
  const record: RecordedRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { ...req.headers },
  };
  requests.push(record);
  // A long-running emulator must not keep them all.
  while (requests.length > size) requests.shift();
  return record;
}

function listen(server: Server, options: EmulatorOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export function sendJson(res: ServerResponse, reply: Reply): void {
  const body = JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, {
    ...reply.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Whether a request's Host names this emulator: an IP address, `localhost`, or the --host it was
 * given. A page of another site whose name was rebound to 127.0.0.1 (DNS rebinding) still sends
 * its own name, and would otherwise drive the emulator, tokens included, from the browser.
 */
export function ownHost(header: string | undefined, listening: string): boolean {
  if (header === undefined) return false;
  const hostname = URL.canParse(`http://${header}`) ? new URL(`http://${header}`).hostname : undefined;
  if (hostname === undefined) return false;
  const bare = hostname.replace(/^\[|\]$/g, '');
  return hostname === 'localhost' || isIP(bare) !== 0 || bare === listening.replace(/^\[|\]$/g, '').toLowerCase();
}

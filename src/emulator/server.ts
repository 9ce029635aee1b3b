// The emulator's HTTP server: one route table, bearer auth, the error envelope of docs/service.md, "Two forms",
// rate limiting (docs/service.md, "Two forms"), fault injection and latency for reliability tests, persistence, and a
// record of every request so tests can assert what was sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, type EmulatorOptions, type RecordedRequest } from './http.js';
import type { EmulatorState } from './store.js';
import { Rng } from './seed.js';
import { openState } from './persist.js';
import { projectRoutes } from './routes/projects.js';
import { catalogRoutes } from './routes/catalog.js';
import { documentRoutes } from './routes/documents.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { downloadRoutes } from './routes/downloads.js';
import { signedUploadRoutes } from './routes/signed-uploads.js';
import { serviceNowRoutes } from './routes/service-now.js';
import { startStorage, type Storage } from './storage.js';
import { AuthorizationServer } from './oauth.js';
import { handleOAuth } from './routes/oauth.js';
import { SandboxRunner } from './sandbox/runner.js';
import { RateLimiter, admit } from './server-admission.js';
import { sendError, logWhenFinished, recordRequest } from './server-io.js';
import { compile, type App, type EmulatorFaults, routeRequest } from './server-routing.js';

export { sendJson } from './server-io.js';
export { ownHost } from './server-admission.js';

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

const DEFAULT_REQUEST_LOG_SIZE = 1000;

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
  if (options.exportBytes !== undefined) storage.faults.exportBytes = options.exportBytes;
  const requests: RecordedRequest[] = [];
  const requestLogSize = options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE;
  const sandbox = new SandboxRunner(options.execLimits);
  const limiter = new RateLimiter(options.rateLimit, options.rateWindowMs);
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
  const serve = async (req: IncomingMessage, res: ServerResponse, url: URL, record: RecordedRequest) => {
    await admit(req, res, options, limiter, faults);
    if (await handleOAuth(req, url, res, oauth, state)) return;
    await routeRequest(app, req, url, res, record);
  };
  const server = createServer((req, res) => {
    // Parsed once: the record, the OAuth endpoints and the route table all read it.
    const url = new URL(req.url ?? '/', 'http://emulator');
    const record = recordRequest(req, url, requests, requestLogSize);
    logWhenFinished(req, res, record, options, log);
    serve(req, res, url, record)
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

function listen(server: Server, options: EmulatorOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

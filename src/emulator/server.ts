// The emulator's HTTP server: one route table, bearer auth, the error envelope of SPEC section 7,
// and a record of every request so tests can assert what was sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  HttpError,
  type EmulatorOptions,
  type Handler,
  type RecordedRequest,
  type Reply,
  type RouteContext,
} from './http.js';
import type { EmulatorState } from './store.js';
import { seedState } from './seed.js';
import { projectRoutes } from './routes/projects.js';
import { catalogRoutes } from './routes/catalog.js';
import { documentRoutes, advanceUploads } from './routes/documents.js';
import { sandboxRoutes } from './routes/sandbox.js';

export interface Route {
  method: string;
  /** Path pattern with `:name` segments, e.g. `/v1/entities/:id`. */
  pattern: string;
  handler: Handler;
}

export interface Emulator {
  url: string;
  port: number;
  state: EmulatorState;
  options: EmulatorOptions;
  /** Every request received, in order. */
  requests: RecordedRequest[];
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
};

interface CompiledRoute extends Route {
  segments: string[];
}

function compile(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => ({ ...route, segments: route.pattern.split('/').filter(Boolean) }));
}

function match(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (route.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const want = route.segments[i] as string;
    const got = parts[i] as string;
    if (want.startsWith(':')) params[want.slice(1)] = decodeURIComponent(got);
    else if (want !== got) return undefined;
  }
  return params;
}

export async function startEmulator(overrides: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  const options: EmulatorOptions = { ...defaultOptions, ...overrides };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const state = seedState(options);
  const routes = compile([...projectRoutes, ...catalogRoutes, ...documentRoutes, ...sandboxRoutes]);
  const requests: RecordedRequest[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse, record: RecordedRequest): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const parts = url.pathname.split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    let allowed = false;
    for (const route of routes) {
      const params = match(route, parts);
      if (!params) continue;
      allowed = true;
      if (route.method !== method) continue;
      const header = req.headers.authorization ?? '';
      const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
      const scope = state.tokens[token];
      if (!scope) throw new HttpError(401, token ? 'invalid or expired token' : 'missing bearer token');
      const ctx: RouteContext = {
        req,
        res,
        method,
        path: url.pathname,
        params,
        query: url.searchParams,
        token,
        scope,
        state,
        options,
        record,
        save: () => undefined,
        now: () => Date.now(),
      };
      advanceUploads(ctx);
      const reply = await route.handler(ctx);
      if (reply) sendJson(res, reply);
      return;
    }
    throw new HttpError(allowed ? 405 : 404, allowed ? 'method not allowed' : 'not found');
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...req.headers },
    };
    requests.push(record);
    res.on('finish', () => {
      record.status = res.statusCode;
      if (!options.quiet) log(`${record.method} ${req.url ?? ''} ${res.statusCode}`);
    });
    handle(req, res, record).catch((error: unknown) => {
      const httpError = error instanceof HttpError ? error : new HttpError(500, 'internal error');
      if (!(error instanceof HttpError) && !options.quiet) log(`internal error: ${String(error)}`);
      if (res.headersSent) {
        res.end();
        return;
      }
      sendJson(res, { status: httpError.status, body: httpError.body(), headers: httpError.headers });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    state,
    options,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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

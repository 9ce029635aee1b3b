// Which route a request names, and its answer: the path matched, the token checked, the handler run.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, type EmulatorOptions, type RecordedRequest, type Route, type RouteContext } from './http.js';
import type { EmulatorState } from './store.js';
import { advanceUploads } from './routes/documents.js';
import type { Storage } from './storage.js';
import type { AuthorizationServer } from './oauth.js';
import { bearerChallenge } from './routes/oauth.js';
import type { SandboxRunner } from './sandbox/runner.js';
import { bearer } from './server-admission.js';
import { sendJson } from './server-io.js';

/** Misbehaviour on demand, for tests of the client: applied here, as requests are routed. */
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

interface CompiledRoute extends Route {
  segments: string[];
}

export function compile(routes: Route[]): CompiledRoute[] {
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

/** What a request is routed with: the route table and the state and services its handlers use. */
export interface App {
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
export async function routeRequest(
  app: App,
  req: IncomingMessage,
  url: URL,
  res: ServerResponse,
  record: RecordedRequest,
): Promise<void> {
  const { routes, state, options, oauth, sandbox, commit, save, storage } = app;
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

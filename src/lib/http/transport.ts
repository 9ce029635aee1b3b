// How bytes reach the service: node:http(s) with a keep-alive agent, directly or through a forward
// proxy (HTTPS_PROXY/HTTP_PROXY/ALL_PROXY, either case, and NO_PROXY, read by proxy-from-env). Behind
// a proxy the agent is https-proxy-agent (CONNECT tunnel, for https targets) or http-proxy-agent
// (absolute-URI requests, for http targets): the same node:http request, only another agent.
//
// Why not undici (or Node's fetch, which is undici): on first use it compiles its wasm HTTP parser.
// Measured on the reference machine, one GET through fetch costs ~250 ms and ~45 MB of RSS over bare
// node, node:http ~30 ms and ~5 MB; the whole `pds projects ls` budget is 2x bare node. Streaming a
// 50 MB upload through fetch also peaked near 150 MB (it copies every chunk), node:http near 60 MB.
// One transport for both cases also means one set of error, size and timeout rules.
import type { ClientRequest, IncomingMessage, Agent as HttpAgent } from 'node:http';

/** The part of an HTTP answer pds reads. */
export interface HttpResponse {
  status: number;
  statusText: string;
  ok: boolean;
  /** `forEach` visits every header (`pds api -i` prints them all). */
  headers: { get(name: string): string | null; forEach(visit: (value: string, name: string) => void): void };
  /** The body, read once and whole; more than `maxBytes` fails with BodyTooLargeError. */
  text(maxBytes?: number): Promise<string>;
  body: AsyncIterable<Uint8Array>;
}

/**
 * What the transport needs of a request's signal. An AbortSignal has it; http-attempt.ts gives each attempt
 * a plainer one (see AttemptAbort there).
 */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  /** Bytes, text, or a stream of chunks (each chunk is written before the next is pulled). */
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  signal: AbortSource;
  /**
   * A new connection rather than a pooled one: a large upload must not start on a keep-alive
   * socket the server is about to close, since a failure after its body started is never retried.
   */
  fresh?: boolean;
}

export type Transport = (url: URL, request: TransportRequest) => Promise<HttpResponse>;

/** What is buffered of an answer by default: far above any page of JSON the service sends. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The answer's body is larger than what pds buffers; reading stopped there. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit / (1024 * 1024)} MiB`);
  }
}

/** The connection closed after the answer started and before its body was complete. */
export class BodyCutError extends Error {
  constructor(cause: unknown) {
    super('the connection closed before the answer was complete', { cause });
  }
}

/** The request failed before an answer, on its way through a proxy (the proxy may be what failed). */
export class ThroughProxyError extends Error {
  constructor(
    /** The proxy URL, masked. */
    readonly proxy: string,
    cause: unknown,
  ) {
    super(`through the proxy ${proxy}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];

export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return PROXY_VARIABLES.some((name) => Boolean(env[name]));
}

/** A URL for display: user and password replaced, so neither a log nor an error shows them. */
export function maskUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return String(url);
  }
  if (!parsed.username && !parsed.password) return parsed.href;
  parsed.username = '***';
  parsed.password = parsed.password ? '***' : '';
  return parsed.href;
}

export interface TransportOptions {
  /** Told once per request that goes through a proxy (for --verbose); the URL is masked. */
  onProxy?(proxy: string): void;
}

type Request = typeof import('node:http')['request'];

export function createTransport(env: NodeJS.ProcessEnv, options: TransportOptions = {}): Transport {
  const agents = new Map<string, Promise<HttpAgent>>();
  // proxy-from-env reads process.env; a proxy set only in an injected env (tests) is ignored on purpose.
  const proxyFor = proxyConfigured(env)
    ? import('proxy-from-env').then(
        ({ getProxyForUrl }) =>
          (url: URL) =>
            getProxyForUrl(url.href),
      )
    : Promise.resolve(() => '');

  const agentFor = (url: URL, proxy: string, fresh: boolean): Promise<HttpAgent> => {
    const key = `${url.protocol} ${proxy} ${fresh}`;
    let agent = agents.get(key);
    if (!agent) {
      agent = makeAgent(url.protocol, proxy, !fresh);
      agents.set(key, agent);
    }
    return agent;
  };

  // node:http(s), imported once per transport: an import per request cost a module look-up and
  // a few promises on every page of an `--all`.
  const requests = new Map<string, Promise<Request>>();
  const requestFor = (protocol: string): Promise<Request> => {
    let request = requests.get(protocol);
    if (!request) {
      request =
        protocol === 'https:'
          ? import('node:https').then((module) => module.request)
          : import('node:http').then((module) => module.request);
      requests.set(protocol, request);
    }
    return request;
  };

  return async (url, init) => {
    const request = await requestFor(url.protocol);
    const proxy = (await proxyFor)(url);
    if (proxy) options.onProxy?.(maskUrl(proxy));
    // A fresh connection directly: no agent at all. Through a proxy: an agent that keeps nothing.
    const agent = init.fresh && !proxy ? false : await agentFor(url, proxy, init.fresh === true);
    return send(request, url, init, agent, proxy);
  };
}

/**
 * One request on its way: the body is written once the connection is up, Ctrl-C or the timeout
 * (init.signal) destroys it, and the answer comes back as an HttpResponse.
 */
function send(
  request: Request,
  url: URL,
  init: TransportRequest,
  agent: HttpAgent | false,
  proxy: string,
): Promise<HttpResponse> {
  const { signal } = init;
  return new Promise<HttpResponse>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const req = request(url, { method: init.method, headers: init.headers, agent });
    let answered = false;
    const onAbort = (): void => {
      req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let response: IncomingMessage | undefined;
    req.on('error', (error) => {
      // After the answer began: bytes the parser could not take (more than the Content-Length, or
      // not HTTP) fail the body still being read, rather than pass for its end.
      if (answered) {
        if (response && !response.readableEnded) response.destroy(error);
        return;
      }
      reject(proxy && !signal.aborted ? new ThroughProxyError(maskUrl(proxy), error) : error);
    });
    req.on('close', () => signal.removeEventListener('abort', onAbort));
    req.on('response', (res) => {
      // An event stream may start while the body is still going out: keep writing. But an answer
      // that ended (a 503 or 413 before the body was read) ends the request too: the rest of the
      // body has nowhere to go, and a half-sent request would keep the process alive.
      res.once('end', () => {
        if (!req.writableFinished) req.destroy();
      });
      answered = true;
      response = res;
      resolve(adaptIncoming(res));
    });
    // The body is written only once the connection is up: a refused connection has sent nothing.
    // (Through a proxy agent the socket is handed over connected, tunnel and TLS included.)
    req.once('socket', (socket) => {
      const write = (): void => {
        writeBody(req, init.body).catch((error: unknown) => {
          req.destroy(error instanceof Error ? error : new Error(String(error)));
        });
      };
      if (!socket.connecting) write();
      else socket.once(url.protocol === 'https:' && !proxy ? 'secureConnect' : 'connect', write);
    });
  });
}

async function makeAgent(protocol: string, proxy: string, keepAlive: boolean): Promise<HttpAgent> {
  const options = { keepAlive, maxSockets: 8 };
  if (!proxy) {
    const module = protocol === 'https:' ? await import('node:https') : await import('node:http');
    return new module.Agent(options);
  }
  if (protocol === 'https:') {
    const { HttpsProxyAgent } = await import('https-proxy-agent');
    return new HttpsProxyAgent(proxy, options);
  }
  const { HttpProxyAgent } = await import('http-proxy-agent');
  return new HttpProxyAgent(proxy, options);
}

function adaptIncoming(res: IncomingMessage): HttpResponse {
  const status = res.statusCode ?? 500;
  return {
    status,
    statusText: res.statusMessage ?? '',
    ok: status >= 200 && status < 300,
    headers: {
      get: (name) => {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      forEach: (visit) => {
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) visit(Array.isArray(value) ? value.join(', ') : value, name);
        }
      },
    },
    text: (maxBytes = MAX_BODY_BYTES) => readAll(res, maxBytes),
    body: res,
  };
}

/**
 * The whole body. Read through its events rather than `for await`: the async iterator costs a few
 * promises and listeners per chunk, which over the thousand pages of an `--all` added up.
 */
function readAll(res: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    return Promise.reject(new BodyTooLargeError(maxBytes));
  }
  // Destroyed before it was read (a timeout, a reset): the events that would say so have gone by.
  if (res.destroyed)
    return Promise.reject(
      res.errored instanceof Error && ['AbortError', 'TimeoutError'].includes(res.errored.name)
        ? res.errored
        : new BodyCutError(res.errored),
    );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      // A timeout or Ctrl-C destroys the request with its own reason: leave that to the caller.
      const own =
        error instanceof BodyTooLargeError ||
        (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));
      reject(own ? error : new BodyCutError(error));
    };
    res.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        fail(new BodyTooLargeError(maxBytes));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    });
    res.once('error', fail);
    // Closed before its end, without an error of its own: cut, as `for await` says it.
    res.once('close', () => {
      // Every answer closes, after its end: the error (and its stack) is made only for one cut short.
      if (!settled) fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

async function writeBody(req: ClientRequest, body: TransportRequest['body']): Promise<void> {
  if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
    req.end(body);
    return;
  }
  for await (const chunk of body) {
    if (req.destroyed) return;
    // The body may reuse its buffer for the next chunk, so this one must reach the socket first;
    // that is also the back-pressure: a slow link slows the reads.
    await new Promise<void>((resume, fail) => {
      const onClose = (): void => fail(new Error('the connection closed while the body was being sent'));
      req.once('close', onClose);
      req.write(chunk, (error) => {
        req.off('close', onClose);
        if (error) fail(error);
        else resume();
      });
    });
  }
  if (!req.destroyed) req.end();
}

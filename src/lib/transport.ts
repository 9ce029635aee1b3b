// How bytes reach the service. Directly: node:http(s) with a keep-alive agent. Behind a proxy
// (HTTPS_PROXY/HTTP_PROXY/NO_PROXY): undici's EnvHttpProxyAgent and fetch.
//
// Why not undici (or Node's fetch, which is undici) for everything: on first use it compiles its
// wasm HTTP parser. Measured on the reference machine, one GET through fetch costs ~250 ms and
// ~45 MB of RSS over bare node, node:http ~30 ms and ~5 MB; the whole `pds projects ls` budget is
// 2x bare node. Streaming a 50 MB upload through fetch also peaked near 150 MB (it copies every
// chunk), node:http near 60 MB. So undici is loaded only where only it can do the job.
import type { ClientRequest, IncomingMessage, Agent as HttpAgent } from 'node:http';

/** The part of an HTTP answer pds reads; both transports produce it. */
export interface HttpResponse {
  status: number;
  statusText: string;
  ok: boolean;
  /** `forEach` visits every header (`pds api -i` prints them all). */
  headers: { get(name: string): string | null; forEach(visit: (value: string, name: string) => void): void };
  /** The body, read once: as text, or as a stream of chunks. */
  text(): Promise<string>;
  body: AsyncIterable<Uint8Array>;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  /** Bytes, text, or a stream of chunks (each chunk is written before the next is pulled). */
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  signal: AbortSignal;
  /**
   * A new connection rather than a pooled one: a large upload must not start on a keep-alive
   * socket the server is about to close, since a failure after its body started is never retried.
   */
  fresh?: boolean;
}

export type Transport = (url: URL, request: TransportRequest) => Promise<HttpResponse>;

export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => Boolean(env[name]));
}

export function createTransport(env: NodeJS.ProcessEnv): Transport {
  return proxyConfigured(env) ? proxyTransport() : nodeTransport();
}

function nodeTransport(): Transport {
  const agents = new Map<string, Promise<HttpAgent>>();
  const agentFor = (protocol: string): Promise<HttpAgent> => {
    let agent = agents.get(protocol);
    if (!agent) {
      agent = (protocol === 'https:' ? import('node:https') : import('node:http')).then(
        (module) => new module.Agent({ keepAlive: true, maxSockets: 8 }),
      );
      agents.set(protocol, agent);
    }
    return agent;
  };

  return async (url, init) => {
    const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
    const agent = init.fresh ? false : await agentFor(url.protocol);
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
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      req.on('close', () => signal.removeEventListener('abort', onAbort));
      req.on('response', (res) => {
        // An event stream may start while the body is still going out: keep writing.
        answered = true;
        resolve(adaptIncoming(res));
      });
      // The body is written only once the connection is up: a refused connection has sent nothing.
      req.once('socket', (socket) => {
        const write = (): void => {
          writeBody(req, init.body).catch((error: unknown) => {
            req.destroy(error instanceof Error ? error : new Error(String(error)));
          });
        };
        if (!socket.connecting) write();
        else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', write);
      });
    });
  };
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
    text: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    body: res,
  };
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

function proxyTransport(): Transport {
  const loaded = import('undici').then(({ fetch, EnvHttpProxyAgent }) => ({ fetch, dispatcher: new EnvHttpProxyAgent() }));
  return async (url, init) => {
    const { fetch, dispatcher } = await loaded;
    let body = init.body;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      // undici pulls a stream without waiting for the socket; copy each chunk, since the source
      // may reuse its buffer.
      const source = body;
      body = (async function* () {
        for await (const chunk of source) yield Uint8Array.from(chunk);
      })();
    }
    const response = await fetch(url, {
      method: init.method,
      headers: init.headers,
      body,
      signal: init.signal,
      dispatcher,
      ...(body !== undefined && typeof body === 'object' && Symbol.asyncIterator in body ? { duplex: 'half' as const } : {}),
    });
    return {
      status: response.status,
      statusText: response.statusText,
      ok: response.ok,
      headers: response.headers,
      text: () => response.text(),
      body: response.body ?? (async function* () {})(),
    };
  };
}

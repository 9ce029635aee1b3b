// A small HTTP(S) server that misbehaves the way gateways, flaky networks and buggy services do:
// it hangs, answers before reading a body, sends endless or cut bodies, pages that never end, event
// streams of keep-alive comments only, HTML error pages, 503 with Retry-After. It records what it
// received, so a test can assert what pds sent (or that it sent nothing). Loopback only.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  /** As on the request line: a path, or an absolute URI when the client took this for a proxy. */
  url: string;
  headers: IncomingMessage['headers'];
}

export type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

export interface RogueServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export interface RogueOptions {
  /** Serve https with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  host?: '127.0.0.1' | '::1';
}

/**
 * A service of the seed's time around a behaviour: `POST …/uploads` (the deployed service's
 * signed-URL flow) is a 404, so pds falls back to the multipart upload that `behaviour` answers.
 */
export function seedService(behaviour: Behaviour): Behaviour {
  return (req, res) => {
    if (req.method === 'POST' && /\/uploads(\?|$)/.test(req.url ?? '')) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    behaviour(req, res);
  };
}

/** Starts the server; `behaviour` answers every request (see `sequence` for a series of answers). */
export async function startRogueServer(behaviour: Behaviour, options: RogueOptions = {}): Promise<RogueServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    behaviour(req, res);
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = host === '::1' ? '[::1]' : host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${hostInUrl}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Each request gets the next behaviour; the last one answers every request after that. */
export function sequence(...behaviours: Behaviour[]): Behaviour {
  let index = 0;
  return (req, res) => {
    const behaviour = behaviours[Math.min(index, behaviours.length - 1)]!;
    index++;
    behaviour(req, res);
  };
}

/** Reads the request body in full (what a well-behaved server does before answering). */
export function drain(req: IncomingMessage): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => resolve(bytes));
    req.on('error', () => resolve(bytes));
  });
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Behaviour =>
  (req, res) => {
    void drain(req).then(() => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  };

export const DEMO_PROJECT = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';

/** A valid `GET /v1/projects` answer with one project. */
export const projects = json(200, {
  data: [{ id: DEMO_PROJECT, name: 'Rogue Records', created_at: '2024-01-02T03:04:05Z', organization_id: 'org_1' }],
});

/** Never answers (the socket stays open until the client gives up). */
export const hang: Behaviour = () => undefined;

/**
 * Answers at once, before reading the request body, and swallows whatever body still comes, as a
 * gateway does. The answer is complete (Content-Length) but the response is ended only once the
 * request body ended: Node's server would otherwise close the connection under a client still
 * sending, and whether the client saw the answer before the reset would be a race.
 */
export const answerBeforeBody =
  (status: number, message = 'unavailable'): Behaviour =>
  (req, res) => {
    const body = JSON.stringify({ error: { message } });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.write(body);
    req.on('end', () => res.end());
    req.on('close', () => res.end());
    req.resume();
  };

/** A gateway's HTML page. */
export const htmlError =
  (status: number): Behaviour =>
  (req, res) => {
    void drain(req).then(() => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(
        `<html><head><title>${status}</title></head><body><h1>${status} Bad Gateway</h1><hr>nginx</body></html>\n`,
      );
    });
  };

/** 200 with a JSON body that never ends (written as fast as the client reads). */
export const endlessBody: Behaviour = (req, res) => {
  void drain(req).then(() => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('{"data": [');
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
};

/** Announces a body of `length` bytes, sends part of it, and closes the connection. */
export const cutBody: Behaviour = (req, res) => {
  void drain(req).then(() => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"data": [{"id": "5f1c7e0a');
    setTimeout(() => res.socket?.destroy(), 20);
  });
};

/** The same first page whatever `page` asks: a list that never ends, as plain arrays. */
export const pageIgnored =
  (count = 100): Behaviour =>
  (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const perPage = Number(url.searchParams.get('perPage') ?? count);
    const items = Array.from({ length: Math.min(count, perPage) }, (_, i) => artist(i + 1));
    json(200, { data: items })(req, res);
  };

/** Honest pages of `total` artists in the paged envelope, but with `per_page` as given (e.g. 0). */
export const envelopePages =
  (total: number, perPageField: number): Behaviour =>
  (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('perPage') ?? 20);
    const start = (page - 1) * perPage;
    const items = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) =>
      artist(start + i + 1),
    );
    json(200, { data: { items, total_count: total, page, per_page: perPageField } })(req, res);
  };

function artist(n: number) {
  return { id: `art_${String(n).padStart(5, '0')}`, name: `Artist ${n}`, project_id: DEMO_PROJECT };
}

/** An upload answered as an event stream that sends only keep-alive comments, forever. */
export const keepAliveOnlyStream =
  (intervalMs = 100): Behaviour =>
  (req, res) => {
    void drain(req).then(() => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': keep-alive\n\n');
      const timer = setInterval(() => res.write(': keep-alive\n\n'), intervalMs);
      res.on('close', () => clearInterval(timer));
    });
  };

export interface Certificate {
  key: string;
  cert: string;
  /** The certificate's file, for the child's NODE_EXTRA_CA_CERTS. */
  certFile: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made now with the openssl CLI. */
export async function makeCertificate(): Promise<Certificate> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'pds-cert-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/** An upload answered as an event stream whose one event never ends (a data line with no line feed). */
export const endlessEvent: Behaviour = (req, res) => {
  void drain(req).then(() => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: progress\ndata: ');
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
};

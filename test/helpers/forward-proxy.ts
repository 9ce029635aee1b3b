// A real forward proxy on loopback (the `proxy` package): forwards absolute-URI requests for http
// targets and opens CONNECT tunnels for https ones, and records what it saw, so a test can assert
// that pds went through it (or, with NO_PROXY, that it did not).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';

export interface ProxySaw {
  method: string;
  /** An absolute URI for a forwarded request, `host:port` for CONNECT. */
  target: string;
  proxyAuthorization: string | undefined;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:port`, or with the credentials it asks for. */
  url: string;
  port: number;
  saw: ProxySaw[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Require these credentials (Basic); a request without them gets 407. */
  credentials?: { user: string; password: string };
}

export async function startForwardProxy(options: ProxyOptions = {}): Promise<ForwardProxy> {
  const saw: ProxySaw[] = [];
  const sockets = new Set<Socket>();
  const server = createServer();
  // Recorded before the proxy handles it (prepend: the proxy's own listeners are added below).
  const record = (req: IncomingMessage) => {
    saw.push({
      method: req.method ?? '',
      target: req.url ?? '',
      proxyAuthorization: req.headers['proxy-authorization'],
    });
  };
  server.on('request', record);
  server.on('connect', record);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const proxy = createProxy(server);
  if (options.credentials) {
    const expected = `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}`;
    proxy.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    saw,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

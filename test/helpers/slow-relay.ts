// A TCP relay on loopback that passes what a client sends on slowly (a chunk, then a pause), so a
// test can act while an upload's body is still on its way. Answers pass at full speed.
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SlowRelay {
  url: string;
  close(): Promise<void>;
}

export async function startSlowRelay(target: string, pauseMs = 50): Promise<SlowRelay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    track(client);
    track(upstream);
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      client.pause();
      upstream.write(chunk);
      setTimeout(() => client.resume(), pauseMs);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

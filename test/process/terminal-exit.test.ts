// Prompt exits: a pds process ends within a second of its last output, also when a service answers
// an upload before reading its body, or when the upload is interrupted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPds, startPds, signedInEnv } from '../helpers/process.js';

// Larger than the socket buffers, so the body is still going out when the answer comes.
const dir = mkdtempSync(join(tmpdir(), 'pds-exit-'));
const BIG_PDF = join(dir, 'big.pdf');
writeFileSync(BIG_PDF, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * 1024 * 1024, 32)]));

const REASONS: Record<number, string> = { 503: 'Service Unavailable', 413: 'Payload Too Large', 401: 'Unauthorized' };

/**
 * A gateway that answers `status` as soon as it has the request head, then reads nothing more and
 * keeps the connection open (as a proxy in front of a busy service does); or, with status 0, never
 * answers and reads slowly.
 */
function gateway(status: number): { start(): Promise<string>; stop(): Promise<void> } {
  const sockets = new Set<Socket>();
  let server: Server;
  return {
    start: () =>
      new Promise((resolve) => {
        server = createServer((socket) => {
          sockets.add(socket);
          socket.on('error', () => undefined);
          socket.once('data', () => {
            if (status === 0) {
              socket.on('data', () => {
                socket.pause();
                setTimeout(() => socket.resume(), 200);
              });
              return;
            }
            const body = JSON.stringify({ message: `${REASONS[status]} from the gateway` });
            socket.write(
              `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
            );
            socket.pause();
          });
        });
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      }),
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const env = (url: string) => signedInEnv(url);

describe.each([
  [503, 1, /failed with HTTP 503/],
  [413, 2, /failed with HTTP 413/],
  [401, 3, /failed with HTTP 401/],
])('an upload answered %i before its body was read', (status, code, message) => {
  const server = gateway(status);
  let url: string;
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());

  it(`prints the error and exits ${code} within a second of it`, async () => {
    const run = await runPds(['upload', 'contract', BIG_PDF], { env: env(url) });
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(code);
    expect(run.afterLastOutputMs).toBeLessThan(1000);
  });
});

describe('an interrupted upload', () => {
  const server = gateway(0);
  let url: string;
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());

  it('exits 130 within a second of SIGINT, having said the file may have arrived', async () => {
    const pds = startPds(['upload', 'contract', BIG_PDF], { env: env(url) });
    await new Promise((resolve) => setTimeout(resolve, 700));
    const sent = Date.now();
    pds.child.kill('SIGINT');
    const exit = await pds.exited;
    expect(exit.code).toBe(130);
    expect(Date.now() - sent).toBeLessThan(1000);
    expect(exit.afterLastOutputMs).toBeLessThan(1000);
    expect(exit.stderr).toMatch(
      /the upload of .*big\.pdf was interrupted; check with `pds contracts ls` before retrying/,
    );
  });
});

describe('an upload from a stdin that has not ended', () => {
  it('exits 130 within a second of SIGINT, not when the producer finishes', async () => {
    const { spawn } = await import('node:child_process');
    const { PDS_BIN, childEnv } = await import('../helpers/process.js');
    const child = spawn(process.execPath, [PDS_BIN, 'upload', 'statement', '-', '--file-name', 'piped.pdf'], {
      env: childEnv(env('http://127.0.0.1:9')),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Half a PDF, and the pipe stays open: the producer is still working.
    child.stdin.write('%PDF-1.4\n');
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.destroy();
    expect(code).toBe(130);
    expect(Date.now() - sent).toBeLessThan(1000);
    expect(stderr).toBe('');
  });
});

// Issue 20, data from the service: downloads are bounded (Content-Length, --max-size) and the names
// the service gives them are safe on every file system. The built pds as a child process; a rogue
// API and storage host (loopback) send what a compromised service could.
import { mkdtempSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';
import { startRogueServer, type RogueServer } from '../helpers/rogue-server.js';

const emulator = sharedEmulator({ flavor: 'current' });
const freshDir = () => mkdtempSync(join(tmpdir(), 'pds-trust-'));
let rogue: RogueServer | undefined;
afterEach(async () => {
  await rogue?.close();
  rogue = undefined;
});

/** An API whose one contract downloads from `/file`, answered by `file`. */
async function storageSending(file: (req: IncomingMessage, res: ServerResponse) => void): Promise<RogueServer> {
  let base = '';
  const server = await startRogueServer((req, res) => {
    if (req.url?.startsWith('/file')) return file(req, res);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ data: { url: `${base}/file`, fileName: 'c.pdf' } }));
  });
  base = server.url;
  return server;
}

describe('6. downloads are bounded', () => {
  it('a body without Content-Length that goes on past --max-size: cut, no file, exit 1 naming the limit', async () => {
    rogue = await storageSending((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF-1.7\n');
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        if (!res.destroyed && res.write(chunk)) setImmediate(more);
        else res.once('drain', more);
      };
      more();
    });
    const dir = freshDir();
    const result = await runPds(['contracts', 'download', 'c1', '-o', `${dir}/`, '--max-size', '1M'], {
      env: signedInEnv(rogue.url),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: the download is larger than the --max-size limit of 1.0 MiB (more arrived); pds stopped reading it\n' +
        '  raise the limit with --max-size <size> (e.g. 2G), if the file is expected to be that large\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a Content-Length over --max-size is refused before a byte is written', async () => {
    rogue = await storageSending((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(5 * 1024 * 1024) });
      res.write('%PDF-1.7\n');
    });
    const dir = freshDir();
    const result = await runPds(['contracts', 'download', 'c1', '-o', join(dir, 'c.pdf'), '--max-size', '2M'], {
      env: signedInEnv(rogue.url),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: the download is larger than the --max-size limit of 2\.0 MiB \(it is 5\.0 MiB\); pds stopped reading it\n/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('more bytes than the Content-Length announced: cut, no file, exit 1', async () => {
    rogue = await storageSending((_req, res) => {
      res.socket?.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 100\r\n\r\n%PDF-1.7\n${'x'.repeat(91)}${'y'.repeat(20_000)}`,
      );
    });
    const dir = freshDir();
    const result = await runPds(['contracts', 'download', 'c1', '-o', join(dir, 'c.pdf')], {
      env: signedInEnv(rogue.url),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: the storage host sent more than its answer announced, or not HTTP \(HPE_[A-Z_]+\); pds stopped reading\n$/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([['0'], ['-5'], ['lots'], ['1X']])('--max-size %j: exit 2, nothing sent', async (size) => {
    const result = await runPds(['contracts', 'download', 'c1', '--max-size', size], {
      env: signedInEnv(emulator.url),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`invalid --max-size '${size}': expected a size such as 500M or 2G`);
    expect(emulator.requests).toEqual([]);
  });
});

describe('9. names from the service are safe file names everywhere', () => {
  const cases: [string, string][] = [
    ['CON', '_CON.pdf'],
    ['nul.txt', '_nul.txt'],
    ['Com1.pdf', '_Com1.pdf'],
    ['LPT9', '_LPT9.pdf'],
    ['aux.tar.gz', '_aux.tar.gz'],
    ['report. . .', 'report.pdf'],
    ['report.pdf. ', 'report.pdf'],
    ['CONSOLE.pdf', 'CONSOLE.pdf'],
    [`${'é'.repeat(150)}.pdf`, `${'é'.repeat(58)}.pdf`],
  ];
  it.each(cases)('%j is saved as %j', async (given, expected) => {
    const statement = emulator.state.data[DEMO_PROJECT_ID]?.statements[3];
    if (!statement) throw new Error('no statement');
    const original = statement.file_name;
    statement.file_name = given;
    try {
      const dir = freshDir();
      const result = await runPds(['statements', 'download', String(statement.id), '-o', `${dir}/`, '-q'], {
        env: signedInEnv(emulator.url),
      });
      expect(result).toMatchObject({ code: 0, stdout: `${join(dir, expected)}\n` });
      expect(readdirSync(dir)).toEqual([expected]);
      expect(Buffer.byteLength(expected)).toBeLessThanOrEqual(200);
    } finally {
      statement.file_name = original;
    }
  });
});

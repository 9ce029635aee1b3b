// Issue 38, items 2 and 5, through the built pds: what `-o` names when it is not a plain new file.
// A FIFO, a character device or a descriptor is written into as it is (never replaced by a regular
// file, --force or not); a symbolic link is refused; an existing file is "up to date" only when it
// holds the same bytes. Only a FIFO made here and /dev/null (written into, nothing else) are used.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import {
  createReadStream,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PDS_BIN, runPds, signedInEnv } from '../helpers/process.js';
import { startRogueServer, type RogueServer } from '../helpers/rogue-server.js';

const DETAILED = JSON.parse(
  readFileSync(new URL('../fixtures/deployed/statements.get.detailed.json', import.meta.url), 'utf8'),
) as { data: Record<string, unknown> & { detailed: Record<string, unknown> } };
const csv = 'isrc,territory,amount\nGBQAV2600011,GB,12.00\n';
const PDF = '%PDF-1.7\n% the contract\n%%EOF\n';

const execFileAsync = promisify(execFile);
let server: RogueServer;
const dirs: string[] = [];
const freshDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-targets-'));
  dirs.push(dir);
  return dir;
};

/** Statement 72001's lines at /lines.csv; any other record downloads /file.pdf. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', server.url).pathname;
  req.resume();
  const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (path === '/v1/statements/72001')
    json({ data: { ...DETAILED.data, detailed: { ...DETAILED.data.detailed, csv_url: `${server.url}/lines.csv` } } });
  else if (path === '/lines.csv')
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(csv)) }).end(csv);
  else if (path === '/file.pdf')
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) }).end(PDF);
  else json({ data: { url: `${server.url}/file.pdf`, fileName: 'c.pdf' } });
}

beforeAll(async () => {
  server = await startRogueServer(answer);
});
afterAll(async () => {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const lines = (target: string, ...more: string[]) =>
  runPds(['statements', 'lines', '72001', '-o', target, ...more], { env: signedInEnv(server.url) });
const download = (target: string, ...more: string[]) =>
  runPds(['contracts', 'download', 'c1', '-o', target, ...more], { env: signedInEnv(server.url) });

/** Reads all a FIFO receives until its writer closes it. */
function readFifo(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    createReadStream(path)
      .on('data', (chunk) => (text += chunk.toString()))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
}

describe('2. -o onto what is not a regular file', () => {
  it.each([
    ['statements lines', lines, () => csv],
    ['contracts download', download, () => PDF],
  ])('%s -o FIFO --force: written into, still a FIFO, no temporary file', async (_name, run, expected) => {
    const dir = freshDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const received = readFifo(fifo);
    const result = await run(fifo, '--force');
    expect(result.code, result.stderr).toBe(0);
    expect(await received).toBe(expected());
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  it.each([
    ['statements lines', lines],
    ['contracts download', download],
  ])('%s -o /dev/null --force: written into; /dev/null stays a character device', async (_name, run) => {
    const result = await run('/dev/null', '--force');
    expect(result.code, result.stderr).toBe(0);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it.each([['/dev/stdout'], ['/dev/fd/1'], ['/dev/fd/3']])(
    'statements lines -o %s --force, stdout a pipe: the CSV arrives through it',
    async (target) => {
      // Through bash, so pds's stdout (and fd 3) is a pipe as in a shell, not the socket a spawn makes.
      const command = `"${process.execPath}" "${PDS_BIN}" statements lines 72001 -o ${target} --force 3>&1 | cat`;
      const { stdout, stderr } = await execFileAsync('bash', ['-c', command], {
        env: childEnv(signedInEnv(server.url)),
        timeout: 20_000,
      });
      expect(stdout, stderr).toBe(csv);
      expect(stderr).toBe(`saved the lines of statement 72001 to ${target} (${csv.length} B)\n`);
    },
  );

  it.each([
    ['statements lines', lines],
    ['contracts download', download],
  ])('%s -o a symbolic link, --force or not: refused, exit 2, what it points to untouched', async (_name, run) => {
    const dir = freshDir();
    const aimed = join(dir, 'precious.txt');
    writeFileSync(aimed, 'keep me\n');
    const link = join(dir, 'out');
    symlinkSync(aimed, link);
    for (const force of [[], ['--force']]) {
      const result = await run(link, ...force);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: refusing to write ${link}: it is a symbolic link, and pds does not write through one\n`,
      );
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readFileSync(aimed, 'utf8')).toBe('keep me\n');
    }
  });
});

describe('5. "up to date" means the same bytes', () => {
  it('statements lines: a file of the same length with other amounts is not up to date; --force replaces it', async () => {
    const dir = freshDir();
    const target = join(dir, 'q.csv');
    const stale = csv.replace('12.00', '99.00');
    expect(stale.length).toBe(csv.length);
    writeFileSync(target, stale);
    const refused = await lines(target);
    expect(refused.code).toBe(2);
    const size = `${csv.length} B`;
    expect(refused.stderr).toBe(
      `error: ${target} exists (${size}; the download is as long, ${size}, with other content)\n  --force replaces it\n`,
    );
    expect(readFileSync(target, 'utf8')).toBe(stale);
    expect(readdirSync(dir)).toEqual(['q.csv']);

    const replaced = await lines(target, '--force');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(csv);

    const again = await lines(target);
    expect(again).toMatchObject({ code: 0, stderr: `${target} is up to date (${size})\n` });
  });

  it('contracts download: the same size with other bytes is not up to date', async () => {
    const dir = freshDir();
    const target = join(dir, 'c.pdf');
    const other = PDF.replace('the contract', 'a forgery!!!');
    expect(other.length).toBe(PDF.length);
    writeFileSync(target, other);
    const refused = await download(target);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('with other content');
    expect(readFileSync(target, 'utf8')).toBe(other);
    writeFileSync(target, PDF);
    const same = await download(target);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('up to date');
  });
});

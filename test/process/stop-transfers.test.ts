// Issue 38, items 3 and 4, through the built pds: SIGINT, SIGTERM and SIGHUP end every transfer in
// flight at once (an API request, a signed-URL upload whose bytes are sent and whose storage never
// answers, a download and a statement's lines that stall mid-body), with the signal's exit code and
// no temporary file left. The service and its storage are a server of this file's own, on loopback.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInEnv, startPds } from '../helpers/process.js';
import { drain, startRogueServer, type RogueServer } from '../helpers/rogue-server.js';

const DETAILED = JSON.parse(
  readFileSync(new URL('../fixtures/deployed/statements.get.detailed.json', import.meta.url), 'utf8'),
) as { data: Record<string, unknown> & { detailed: Record<string, unknown> } };
const MINT = JSON.parse(readFileSync(new URL('../fixtures/deployed/uploads.mint.json', import.meta.url), 'utf8')) as {
  data: Record<string, unknown>;
};

let server: RogueServer;
const dirs: string[] = [];
/** Paths the server has taken in full (for a PUT: its whole body), each with its waiters. */
const reached = new Map<string, (() => void)[]>();
const seen = new Set<string>();

function mark(path: string): void {
  seen.add(path);
  for (const wake of reached.get(path) ?? []) wake();
  reached.delete(path);
}

function reachedPath(path: string): Promise<void> {
  if (seen.has(path)) return Promise.resolve();
  return new Promise((resolve) => reached.set(path, [...(reached.get(path) ?? []), resolve]));
}

/** Whatever pds asks, the transfer it starts never ends: nothing answers, or a body stops midway. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', server.url).pathname;
  const json = (status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (req.method === 'PUT') {
    // Takes every byte of the upload, then never answers.
    void drain(req).then(() => mark(path));
    return;
  }
  req.resume();
  if (path === '/v1/projects') mark(path);
  else if (path === '/v1/statements/uploads')
    json(201, { data: { ...MINT.data, upload_url: `${server.url}/storage/put` } });
  else if (path === '/v1/statements/72001')
    json(200, {
      data: { ...DETAILED.data, detailed: { ...DETAILED.data.detailed, csv_url: `${server.url}/storage/lines.csv` } },
    });
  else if (path === '/v1/contracts/c1/download')
    json(200, { data: { url: `${server.url}/storage/c1.pdf`, fileName: 'c1.pdf' } });
  else if (path === '/storage/lines.csv') {
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '100000' });
    res.write('isrc,territory,amount\n', () => mark(path));
  } else if (path === '/storage/c1.pdf') {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100000' });
    res.write('%PDF-1.7\n% the first bytes\n', () => mark(path));
  } else json(404, { error: { message: 'not found' } });
}

beforeAll(async () => {
  server = await startRogueServer(answer);
});
afterAll(async () => {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pds-stop-'));
  dirs.push(dir);
  return dir;
}

interface Transfer {
  /** The command, given a directory of its own. */
  args(dir: string): string[];
  /** The path whose arrival at the server means the transfer is in flight. */
  inFlight: string;
}

const TRANSFERS: Record<string, Transfer> = {
  'an API request': { args: () => ['projects', 'ls'], inFlight: '/v1/projects' },
  'a signed-URL upload, its bytes sent, storage silent': {
    args: (dir) => {
      const file = join(dir, 'q1.csv');
      writeFileSync(file, `period,amount\n${'2026Q1,1\n'.repeat(2000)}`);
      return ['upload', 'statement', file];
    },
    inFlight: '/storage/put',
  },
  'a download stalled mid-body': {
    args: (dir) => ['contracts', 'download', 'c1', '-o', join(dir, 'c1.pdf')],
    inFlight: '/storage/c1.pdf',
  },
  "a statement's lines stalled mid-body": {
    args: (dir) => ['statements', 'lines', '72001', '-o', join(dir, 'q1-lines.csv')],
    inFlight: '/storage/lines.csv',
  },
};

describe('every signal ends every transfer at once, leaving no temporary file', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    for (const [name, transfer] of Object.entries(TRANSFERS)) {
      it(`${signal} during ${name}: exit ${code}, nothing left behind`, { timeout: 30_000 }, async () => {
        seen.delete(transfer.inFlight);
        const dir = freshDir();
        const before = readdirSync(dir);
        // A --timeout far beyond the test: only the signal can end the transfer in time.
        const pds = startPds([...transfer.args(dir), '--timeout', '120'], {
          env: signedInEnv(server.url),
          killAfterMs: 25_000,
        });
        await reachedPath(transfer.inFlight);
        // Let pds take in what the server sent (a download's first bytes go to its temporary file).
        await new Promise((resolve) => setTimeout(resolve, 300));
        const sent = Date.now();
        pds.child.kill(signal);
        const run = await pds.exited;
        expect(run.signal, run.stderr).toBeNull();
        expect(run.code, run.stderr).toBe(code);
        // At once: the grace pds allows itself is 5 s, and the --timeout 120 s.
        expect(Date.now() - sent).toBeLessThan(4_000);
        expect(readdirSync(dir).filter((entry) => !before.includes(entry) && entry !== 'q1.csv')).toEqual([]);
      });
    }
  }
});

// `pds statements lines` and the plain-http refusal of signed URLs, through the built bin/pds.js
// (the verb's own chunk in dist/, exit codes, Ctrl-C) against a loopback server answering as the
// deployed service's examples do. Nothing is ever sent to a host that is not loopback: the refused
// URLs name hosts where nothing listens, and the test asserts that pds never went on.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPds, signedInEnv, startPds, until } from '../helpers/process.js';
import { startRogueServer, type RogueServer } from '../helpers/rogue-server.js';

const DETAILED = JSON.parse(
  readFileSync(new URL('../fixtures/deployed/statements.get.detailed.json', import.meta.url), 'utf8'),
) as { data: Record<string, any> };
const MINT = JSON.parse(readFileSync(new URL('../fixtures/deployed/uploads.mint.json', import.meta.url), 'utf8')) as {
  data: Record<string, any>;
};
const CSV = 'isrc,territory,streams\nGBQAV2600011,GB,1200\n';

const dir = mkdtempSync(join(tmpdir(), 'pds-lines-'));
let server: RogueServer;
const paths: string[] = [];

/** The detailed get names a CSV on this server; /slow.csv sends its first line and then nothing. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', server.url).pathname;
  paths.push(`${req.method} ${path}`);
  const json = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  req.resume();
  if (path === '/v1/statements/72001')
    json(200, {
      data: {
        ...DETAILED.data,
        detailed: { ...DETAILED.data.detailed, csv_url: `${server.url}/exports/72001.csv?token=sig` },
      },
    });
  else if (path === '/v1/statements/72003')
    json(200, {
      data: {
        ...DETAILED.data,
        id: 72003,
        detailed: { ...DETAILED.data.detailed, csv_url: `${server.url}/slow.csv?token=sig` },
      },
    });
  else if (path === '/exports/72001.csv')
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(CSV.length) }).end(CSV);
  else if (path === '/slow.csv') {
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '100000' });
    res.write('isrc,territory,streams\n');
  } else if (path === '/v1/statements/uploads')
    json(201, { data: { ...MINT.data, upload_url: 'http://10.0.0.1/object/upload/sign/q2.csv?token=sig' } });
  else json(404, { error: { message: 'not found' } });
}

beforeAll(async () => {
  server = await startRogueServer(answer);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pds statements lines (the built CLI)', () => {
  it('prints the CSV piped, and saves it with -o', async () => {
    const printed = await runPds(['statements', 'lines', '72001'], { env: signedInEnv(server.url) });
    expect(printed).toMatchObject({ code: 0, stdout: CSV, stderr: '' });
    const target = join(dir, 'q1.csv');
    const saved = await runPds(['statements', 'lines', '72001', '-o', target], { env: signedInEnv(server.url) });
    expect(saved.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(CSV);
  });

  it('Ctrl-C while the CSV arrives: exit 130, no file and no temporary file left', async () => {
    const sub = mkdtempSync(join(dir, 'ctrl-c-'));
    const running = startPds(['statements', 'lines', '72003', '-o', join(sub, 'slow.csv')], {
      env: signedInEnv(server.url),
    });
    await until(() => paths.includes('GET /slow.csv'), 'the CSV request');
    running.child.kill('SIGINT');
    const exit = await running.exited;
    expect(exit.code).toBe(130);
    expect(readdirSync(sub)).toEqual([]);
  });
});

describe('a signed upload URL over plain http to a host that is not loopback (the built CLI)', () => {
  it('is refused with exit 2 before any connection; nothing after the mint is sent', async () => {
    const csv = join(dir, 'q2.csv');
    writeFileSync(csv, 'a\n');
    paths.length = 0;
    const result = await runPds(['upload', 'statement', csv], { env: signedInEnv(server.url) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'refusing to send q2.csv and its signed upload URL over plain http to 10.0.0.1: anyone on the way could read it',
    );
    expect(paths).toEqual(['POST /v1/statements/uploads']);
  });
});

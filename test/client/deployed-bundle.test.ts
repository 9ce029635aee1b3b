// The built CLI (bin/pds.js → dist/) against the replay of the deployed service's examples: what an
// acceptance run of the bundle meets first. deployed-reads.test.ts holds the answers in depth,
// in-process; this holds that the bundle carries the same reader (its chunks, the storage client,
// YAML) over real pipes. Uses the bundle: `npm run build` first.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { runPds } from '../helpers/process.js';
import { example, startReplayServer, STATEMENT_LINES_CSV, type ReplayServer } from '../helpers/replay-server.js';

const PROJECT: string = example('projects.get').data.id;
let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(() => replay.close());

const pds = (args: string[]) =>
  runPds(args, {
    env: { PDS_API_URL: replay.url, PDS_TOKEN: 'replay-token', PDS_PROJECT: PROJECT, PDS_CONFIG_DIR: freshConfigDir() },
  });

describe('the built pds against the deployed forms', () => {
  it('lists and gets print what the service sent (--json) and name things (TSV)', async () => {
    const [projects, contracts, recordings, contract, yaml] = await Promise.all([
      pds(['projects', 'ls', '--json']),
      pds(['contracts', 'ls']),
      pds(['recordings', 'ls']),
      pds([
        'contracts',
        'get',
        '61001',
        '--include',
        'royalties,accounting-periods,splits,languages,commitments,recordings',
        '--score',
        '--extractor-ids',
        '12',
        '--json',
      ]),
      pds(['writers', 'get', '3501', '--format', 'yaml']),
    ]);
    expect(projects).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(projects.stdout)).toEqual(example('projects.list').data);
    expect(contracts.code).toBe(0);
    expect(contracts.stdout).toMatch(/^61001\t.*quill-recording-agreement-2026\.pdf/m);
    expect(recordings.stdout).toMatch(/^7701\tGlass Harbour\tGBQAV2600011 \(?\+1\)?\tMara Quill, The Lowlights\t/m);
    expect(recordings.stdout).not.toContain('[object Object]');
    expect(JSON.parse(contract.stdout)).toEqual(example('contracts.get.all-includes.score').data);
    expect(yaml).toMatchObject({
      code: 0,
      stdout: 'id: 3501\nname: Ode Balin\ncreated_at: 2026-03-02T11:20:00.000Z\n',
    });
  });

  it('statements lines streams the CSV from the signed URL, and an upload goes through mint, PUT and complete', async () => {
    const lines = await pds(['statements', 'lines', '72001']);
    expect(lines).toMatchObject({ code: 0, stdout: STATEMENT_LINES_CSV });
    const csv = join(mkdtempSync(join(tmpdir(), 'pds-bundle-')), 'q2.csv');
    writeFileSync(csv, 'isrc,streams\nGBQAV2600011,12\n');
    const upload = await pds(['upload', 'statement', csv, '--json']);
    expect(upload.code).toBe(0);
    expect(JSON.parse(upload.stdout)[0].upload).toMatchObject(example('uploads.complete.plain').data);
    expect(
      replay.storage.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? 'no credential'}`),
    ).toEqual([
      'GET /exports/72001.csv no credential',
      `PUT /storage/v1/object/upload/sign/statements/${example('uploads.complete.plain').data.file_path} no credential`,
    ]);
  });
});

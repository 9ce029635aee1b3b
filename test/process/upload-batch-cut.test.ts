// --batch-timeout cuts an upload already in flight: a storage PUT that stalls (the emulator takes
// its body and never answers) ends at the batch's deadline, not at the idle --timeout, and is
// failed as a batch timeout; the counts, outputs and JSON report add up. Run as a workflow's
// `run:` step runs it (test/helpers/runner.ts), through the built bin/pds.js.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { PDS_BIN, signedInEnv } from '../helpers/process.js';
import { job } from '../helpers/runner.js';

const emulator = sharedEmulator({ flavor: 'current' });

it('a 1 s batch timeout with a stalled PUT: the upload is cut at the deadline and failed as batch timeout', async () => {
  const runner = job();
  const dir = join(runner.workspace, 'statements');
  mkdirSync(dir);
  const names = ['cut-a.csv', 'cut-b.csv', 'cut-c.csv'];
  for (const [i, name] of names.entries()) writeFileSync(join(dir, name), `period,amount\n2026Q1,${i + 1}\n`);
  const report = join(runner.workspace, 'pds.json');
  // The first PUT to arrive is taken in and never answered.
  emulator.storage.faults.stallUploads = 1;
  const before = Math.max(0, ...emulator.state.uploads.map((u) => u.staging_id));
  // An idle limit of 300 s: only the batch's deadline can end the stalled PUT in time.
  const end = await runner.run(
    `exec node ${JSON.stringify(PDS_BIN)} upload statement statements --concurrency 3 --batch-timeout 1 --timeout 300 --report json=pds.json\n`,
    signedInEnv(emulator.url) as Record<string, string>,
  );
  emulator.storage.faults.stallUploads = 0;
  // Well before --timeout (300 s) and the runner's own kill (50 s): the cut came at the deadline.
  expect(end.ms, end.stderr).toBeLessThan(40_000);
  expect(end.code, end.stderr).toBe(1);

  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    uploaded: number;
    skipped: number;
    failed: number;
    files: { file: string; error?: { message: string } }[];
  };
  const cut = json.files.filter((f) => f.error?.message.includes('was still under way at --batch-timeout 1 s'));
  expect(cut).toHaveLength(1);
  expect(cut[0]?.error?.message).toBe(
    'batch timeout: its upload was still under way at --batch-timeout 1 s, and was cut',
  );
  // Every file is one of uploaded and failed; each failure is the batch timeout's.
  expect(json.uploaded + json.failed).toBe(3);
  expect(json.skipped).toBe(0);
  expect(json.files.filter((f) => f.error).every((f) => f.error?.message.startsWith('batch timeout: '))).toBe(true);
  // What the emulator made: an upload completed for each file counted uploaded; the cut one was
  // minted (its staging id) and never completed.
  const made = emulator.state.uploads.filter((u) => u.staging_id > before);
  const completed = made.filter((u) => u.minted !== true).map((u) => u.file_name);
  expect(completed.sort()).toEqual(json.files.filter((f) => !f.error).map((f) => f.file.replace(/^statements\//, '')));
  const cutName = cut[0]?.file.replace(/^statements\//, '');
  expect(made.filter((u) => u.file_name === cutName).map((u) => u.minted)).toEqual([true]);
  expect(runner.outputs()).toMatchObject({
    uploaded: String(json.uploaded),
    skipped: '0',
    failed: String(json.failed),
    'exit-code': '1',
  });
  expect(end.stderr).toMatch(new RegExp(`^${json.uploaded} uploaded, 0 skipped, ${json.failed} failed \\(`, 'm'));
}, 60_000);

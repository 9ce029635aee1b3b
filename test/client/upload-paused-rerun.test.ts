// Re-runs during a quota: `pds upload --skip-existing` finds a file the service holds paused (the
// same name, size and context) and retries that upload instead of sending the file again, so no
// paused records pile up and, once the quota lifts, nothing is processed twice.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

let emulator: Emulator;
let dir: string;
let reports: string;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'deployed', processingMs: 20, pauseUploads: true });
  dir = mkdtempSync(join(tmpdir(), 'pds-paused-rerun-'));
  reports = mkdtempSync(join(tmpdir(), 'pds-paused-reports-'));
  writeFileSync(join(dir, 'north.csv'), 'period,amount\n2026Q1,10\n');
  writeFileSync(join(dir, 'south.csv'), 'period,amount\n2026Q1,20\n');
});
afterAll(() => emulator.close());

const NAMES = ['north.csv', 'south.csv'];
const uploadsOf = () => emulator.state.uploads.filter((u) => NAMES.includes(u.file_name));
/** What pds sent to the upload and retry endpoints, in order. */
const writes = () =>
  emulator.requests
    .filter((r) => r.method === 'POST' && /\/v1\/statements\/(uploads|staging\/\d+\/retry)/.test(r.path))
    .map((r) => r.path.replace(/\?.*$/, ''));

function rerun(json: string) {
  return runCli(emulator, [
    'upload',
    'statement',
    dir,
    '--accounting-period',
    '2026Q1',
    '--skip-existing',
    '--report',
    `json=${json}`,
  ]);
}

describe('a re-run while the service pauses uploads', () => {
  it('retries each paused upload (never a second upload); once the quota lifts the retry queues it, and no file is processed twice', async () => {
    const first = await rerun(join(reports, 'first.json'));
    expect(first.code).toBe(0);
    const paused = uploadsOf();
    expect(paused.map((u) => u.file_name).sort()).toEqual(NAMES);
    expect(paused.every((u) => u.pause_reason !== undefined)).toBe(true);
    const ids = new Map(paused.map((u) => [u.file_name, u.staging_id]));

    // The quota still holds: the same paused uploads are retried and stay paused; nothing is sent.
    emulator.requests.length = 0;
    const second = await rerun(join(reports, 'second.json'));
    expect(second.code).toBe(0);
    expect(uploadsOf()).toHaveLength(2);
    expect(writes().sort()).toEqual([...ids.values()].map((id) => `/v1/statements/staging/${id}/retry`).sort());
    for (const name of NAMES) {
      const id = ids.get(name) as number;
      expect(second.stderr).toContain(
        `retried paused upload ${id} of ${join(dir, name)} (24 B): staging id ${id}, paused; resume it with \`pds statements retry ${id}\``,
      );
    }
    expect(second.stderr).toMatch(/^2 uploaded, 0 skipped, 0 failed \(/m);

    // The quota lifts: the retry queues each upload; processing makes one statement per file.
    emulator.options.pauseUploads = false;
    emulator.requests.length = 0;
    const json = join(reports, 'third.json');
    const third = await rerun(json);
    expect(third.code).toBe(0);
    expect(writes().sort()).toEqual([...ids.values()].map((id) => `/v1/statements/staging/${id}/retry`).sort());
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      uploaded: number;
      skipped: number;
      failed: number;
      files: Record<string, unknown>[];
    };
    expect(report).toMatchObject({ uploaded: 2, skipped: 0, failed: 0 });
    expect(report.files.map((f) => [f.file, f.decision, f.retried])).toEqual(
      NAMES.map((name) => [join(dir, name), `retried paused upload ${ids.get(name)}`, ids.get(name)]),
    );
    expect(report.files.map((f) => (f.upload as { status: string }).status)).toEqual(['queued', 'queued']);

    // Waited out, each file is one statement; a fourth run skips them.
    const done = await runCli(emulator, [
      'upload',
      'statement',
      dir,
      '--accounting-period',
      '2026Q1',
      '--skip-existing',
      '--json',
    ]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout).map((f: Record<string, unknown>) => f.skipped)).toEqual([true, true]);
    expect(uploadsOf()).toHaveLength(2);
    const statements = emulator.state.data[uploadsOf()[0]?.project_id as string]?.statements.filter((s) =>
      NAMES.includes(s.file_name as string),
    );
    expect(statements?.map((s) => s.staging_id).sort()).toEqual([...ids.values()].sort());
  });

  it('--dry-run says which paused upload it would retry; nothing is sent', async () => {
    emulator.options.pauseUploads = true;
    writeFileSync(join(dir, 'west.csv'), 'period,amount\n2026Q1,30\n');
    const single = await runCli(emulator, [
      'upload',
      'statement',
      join(dir, 'west.csv'),
      '--accounting-period',
      '2026Q1',
    ]);
    expect(single.code).toBe(0);
    const west = emulator.state.uploads.find((u) => u.file_name === 'west.csv');
    emulator.requests.length = 0;
    const plan = await runCli(emulator, [
      'upload',
      'statement',
      join(dir, 'west.csv'),
      '--accounting-period',
      '2026Q1',
      '--skip-existing',
      '--dry-run',
    ]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toBe(
      `would retry the paused upload of ${join(dir, 'west.csv')} (staging id ${west?.staging_id})\n`,
    );
    expect(writes()).toEqual([]);
  });
});

// --batch-timeout ends a batch cleanly: the files not started by then, or still uploading, are failed ("batch timeout"),
// the waits end, and the counts, outputs and reports are written and agree.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { type TestEmulatorOptions, testEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { realClock } from '../../src/lib/clock.js';

const started: Emulator[] = [];
async function emulatorWith(options: TestEmulatorOptions): Promise<Emulator> {
  const emulator = await testEmulator(options);
  started.push(emulator);
  return emulator;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});

describe('--batch-timeout', () => {
  it('a batch slowed by the rate limit ends at its deadline: started files uploaded, the rest failed as batch timeout', async () => {
    // Two requests a second, two a file: one file a second, at most.
    const emulator = await emulatorWith({ flavor: 'current', rateLimit: 2, rateWindowMs: 1000 });
    const root = mkdtempSync(join(tmpdir(), 'pds-deadline-'));
    const dir = join(root, 'statements');
    mkdirSync(dir);
    for (let i = 0; i < 12; i++)
      writeFileSync(join(dir, `late-${String(i).padStart(2, '0')}.csv`), `period,amount\n2026Q1,${i}\n`);
    const output = join(root, 'output');
    writeFileSync(output, '');
    const json = join(root, 'pds.json');
    const run = await runCli(
      emulator,
      ['upload', 'statement', dir, '--concurrency', '1', '--batch-timeout', '2s', '--report', `json=${json}`],
      { clock: realClock, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: root, GITHUB_OUTPUT: output } },
    );
    expect(run.code).toBe(1);
    // Completed uploads: one still under way at the deadline was cut (minted, never completed).
    const made = emulator.state.uploads.filter((u) => u.file_name.startsWith('late-') && u.minted !== true).length;
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(12);
    const outputs = Object.fromEntries(
      readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(outputs).toMatchObject({
      uploaded: String(made),
      skipped: '0',
      failed: String(12 - made),
      'exit-code': '1',
    });
    expect(outputs.error).toMatch(
      /^statements\/late-\d\d\.csv: batch timeout: (not started within|its upload was still under way at) --batch-timeout 2 s(, and was cut)? \(and \d+ more failed\)$/,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      uploaded: number;
      failed: number;
      files: { error?: { message: string } }[];
    };
    expect(report.uploaded + report.failed).toBe(12);
    expect(report.files.filter((f) => f.error?.message.startsWith('batch timeout')).length).toBe(12 - made);
    expect(run.stderr).toMatch(new RegExp(`^${made} uploaded, 0 skipped, ${12 - made} failed \\(`, 'm'));
  }, 30_000);

  it('takes durations; a bad one is exit 2, nothing sent', async () => {
    const emulator = await emulatorWith({ flavor: 'current' });
    const file = join(mkdtempSync(join(tmpdir(), 'pds-deadline-')), 'x.csv');
    writeFileSync(file, 'period,amount\n2026Q1,1\n');
    expect((await runCli(emulator, ['upload', 'statement', file, '--batch-timeout', '20m'])).code).toBe(0);
    const before = emulator.requests.length;
    expect(await runCli(emulator, ['upload', 'statement', file, '--batch-timeout', 'soon'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: invalid --batch-timeout 'soon': expected seconds from 1 to 604800 (90, 90s, 5m, 1h or 1m30s)\n",
    });
    expect(emulator.requests.length).toBe(before);
  });
});

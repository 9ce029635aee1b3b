// The outputs add up: every file is one of uploaded, skipped or failed; a file whose processing
// failed, that the service paused, or that was still running at --wait-timeout is failed (with its
// own reason), not uploaded; the `error` output names the first failed file; JUnit and JSON agree.
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

function job(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'pds-outputs-'));
  const dir = join(root, 'statements');
  mkdirSync(dir);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  const output = join(root, 'output');
  writeFileSync(output, '');
  writeFileSync(join(root, 'summary.md'), '');
  return {
    dir,
    junit: join(root, 'pds.xml'),
    json: join(root, 'pds.json'),
    env: {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: root,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: join(root, 'summary.md'),
    },
    outputs: (): Record<string, string> =>
      Object.fromEntries(
        readFileSync(output, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ),
  };
}

const GOOD = 'period,amount\n2026Q1,1\n';
const DAMAGED = '%PDF-1.4\n1 0 obj << >> endobj\n';

describe('outputs that add up', () => {
  it('a damaged file is failed only: uploaded=1 failed=1 for two files; error names it; JUnit and JSON agree', async () => {
    const emulator = await emulatorWith({ flavor: 'current', processingMs: 5 });
    const step = job({ 'good.csv': GOOD, 'broken.pdf': DAMAGED });
    const run = await runCli(
      emulator,
      ['upload', 'statement', step.dir, '--wait', '--report', `junit=${step.junit}`, '--report', `json=${step.json}`],
      { env: step.env },
    );
    expect(run.code).toBe(7);
    expect(step.outputs()).toMatchObject({
      uploaded: '1',
      skipped: '0',
      failed: '1',
      processed: '1',
      'processing-failed': '1',
      'exit-code': '7',
      error: expect.stringMatching(/^statements\/broken\.pdf: processing failed \(staging id \d+\)$/),
    });
    expect(run.stderr).toMatch(/^1 uploaded, 0 skipped, 1 failed; 1 processed, 1 failed processing \(/m);
    const report = JSON.parse(readFileSync(step.json, 'utf8')) as Record<string, number>;
    expect(report).toMatchObject({ uploaded: 1, skipped: 0, failed: 1, processed: 1, processing_failed: 1 });
    expect(readFileSync(step.junit, 'utf8')).toContain('tests="2" failures="1" errors="0" skipped="0"');
  });

  it('--wait-timeout: the files still running are failed with their own reason, exit 1', async () => {
    const emulator = await emulatorWith({ flavor: 'current', processingMs: 120_000 });
    const step = job({ 'a.csv': GOOD, 'b.csv': `${GOOD}2026Q1,2\n` });
    const run = await runCli(
      emulator,
      [
        'upload',
        'statement',
        step.dir,
        '--wait',
        '--wait-timeout',
        '1s',
        '--interval',
        '200ms',
        '--report',
        `junit=${step.junit}`,
      ],
      { env: step.env, clock: realClock },
    );
    expect(run.code).toBe(1);
    expect(step.outputs()).toMatchObject({
      uploaded: '0',
      failed: '2',
      processed: '0',
      'processing-failed': '0',
      error: expect.stringMatching(
        /^statements\/a\.csv: still processing after 1 s \(staging id \d+\) \(and 1 more failed\)$/,
      ),
    });
    expect(readFileSync(step.junit, 'utf8')).toContain('tests="2" failures="2"');
    expect(emulator.state.uploads.filter((u) => ['a.csv', 'b.csv'].includes(u.file_name))).toHaveLength(2);
  });

  it('a paused upload (a quota) is failed with the pause as its reason, exit 7', async () => {
    const emulator = await emulatorWith({ flavor: 'current', pauseUploads: true });
    const step = job({ 'quota.csv': GOOD });
    const run = await runCli(emulator, ['upload', 'statement', step.dir, '--wait'], { env: step.env });
    expect(run.code).toBe(7);
    expect(step.outputs()).toMatchObject({
      uploaded: '0',
      failed: '1',
      error: expect.stringMatching(/^statements\/quota\.csv: the service paused the upload \(staging id \d+\)$/),
    });
    // stdout carries the TSV (data): pds's own annotations are on stderr.
    expect(run.stderr).toMatch(/^::error file=statements\/quota\.csv,title=pds upload::the service paused the upload/m);
    expect(run.stderr).toContain('processing quota');
  });
});

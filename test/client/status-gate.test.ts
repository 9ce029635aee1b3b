// `pds statements status --fail-pending`: a gate a CI step can rely on right after an upload without
// --wait: not processed yet is exit 1, paused exit 7, processed exit 0; without the flag the
// status is only read (exit 0 while running).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { type TestEmulatorOptions, testEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const started: Emulator[] = [];
async function emulatorWith(options: TestEmulatorOptions): Promise<Emulator> {
  const emulator = await testEmulator(options);
  started.push(emulator);
  return emulator;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});

async function uploaded(emulator: Emulator, name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pds-gate-'));
  const file = join(dir, name);
  writeFileSync(file, 'period,amount\n2026Q1,1\n');
  const run = await runCli(emulator, ['upload', 'statement', file, '-q']);
  expect(run.code).toBe(0);
  return run.stdout.trim();
}

describe('statements status --fail-pending', () => {
  it('exit 1 while the upload is still processing, naming the --watch that waits; the plain read exits 0', async () => {
    const emulator = await emulatorWith({ flavor: 'current', processingMs: 120_000 });
    const id = await uploaded(emulator, 'pending.csv');
    expect((await runCli(emulator, ['statements', 'status', id])).code).toBe(0);
    const gate = await runCli(emulator, ['statements', 'status', id, '--fail-pending']);
    expect(gate.code).toBe(1);
    expect(gate.stderr).toMatch(
      new RegExp(
        `^error: statement upload ${id} is not processed yet: running \\(--fail-pending\\)\\n  wait for it with \`pds statements status ${id} --watch\`\\n$`,
      ),
    );
    // Several ids: the worst of them.
    const two = await runCli(emulator, ['statements', 'status', id, id, '--fail-pending']);
    expect(two.code).toBe(1);
  });

  it('exit 0 once processed', async () => {
    const emulator = await emulatorWith({ flavor: 'current', processingMs: 5 });
    const id = await uploaded(emulator, 'done.csv');
    const watched = await runCli(emulator, ['statements', 'status', id, '--watch']);
    expect(watched.code).toBe(0);
    const gate = await runCli(emulator, ['statements', 'status', id, '--fail-pending']);
    expect(gate).toMatchObject({ code: 0 });
    expect(gate.stdout).toMatch(/^state\tcompleted$/m);
  });

  it('exit 7 for a paused upload (a quota), not "running"', async () => {
    const emulator = await emulatorWith({ flavor: 'current', pauseUploads: true });
    const id = await uploaded(emulator, 'paused.csv');
    expect((await runCli(emulator, ['statements', 'status', id])).code).toBe(0);
    const gate = await runCli(emulator, ['statements', 'status', id, '--fail-pending']);
    expect(gate.code).toBe(7);
    expect(gate.stderr).toContain(`error: statement upload ${id} is paused (--fail-pending)`);
    expect(gate.stderr).toContain('processing quota');
  });
});

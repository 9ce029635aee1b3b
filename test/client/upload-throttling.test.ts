// Throttling on the defaults: a batch keeps to the service's rate limit (its X-RateLimit-* headers)
// and completes; waits after a 429 draw on the retry budget by wall time; a budget spent is exit 6
// with a hint that names --retry-budget (under GitHub Actions, the step's `args:`).
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

/** A folder of `count` statements, and a runner's output file to read the step's outputs from. */
function batch(
  count: number,
  prefix: string,
): { dir: string; env: Record<string, string>; outputs: () => Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'pds-throttle-'));
  const dir = join(root, 'statements');
  mkdirSync(dir);
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, `${prefix}-${String(i).padStart(2, '0')}.csv`), `period,amount\n2026Q1,${i}\n`);
  const output = join(root, 'output');
  writeFileSync(output, '');
  writeFileSync(join(root, 'summary.md'), '');
  return {
    dir,
    env: {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: root,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: join(root, 'summary.md'),
    },
    outputs: () =>
      Object.fromEntries(
        readFileSync(output, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ),
  };
}

const MINT = 'POST /v1/statements/uploads';
const COMPLETE = 'POST /v1/statements/uploads/complete';

describe('a batch against a service that limits requests', () => {
  it('20 files at 10 requests a second (each file two requests): all uploaded, each once, on the default budget', async () => {
    const emulator = await emulatorWith({ flavor: 'current', rateLimit: 10, rateWindowMs: 1000 });
    const job = batch(20, 'paced');
    const run = await runCli(emulator, ['upload', 'statement', job.dir, '--concurrency', '4'], {
      env: job.env,
      clock: realClock,
    });
    expect(run.stderr).toMatch(/^20 uploaded, 0 skipped, 0 failed \(/m);
    expect(run.code).toBe(0);
    expect(job.outputs()).toMatchObject({ uploaded: '20', skipped: '0', failed: '0' });
    const uploads = emulator.state.uploads.filter((u) => u.file_name.startsWith('paced-'));
    expect(new Set(uploads.map((u) => u.file_name)).size).toBe(20);
    expect(uploads).toHaveLength(20);
    const mints = emulator.requests.filter((r) => `${r.method} ${r.path}` === MINT);
    const completes = emulator.requests.filter((r) => `${r.method} ${r.path}` === COMPLETE);
    // Every file made once and completed once: what a 429 refused was sent again, nothing else was.
    expect(mints.filter((r) => (r.status ?? 0) < 300)).toHaveLength(20);
    expect(completes.filter((r) => (r.status ?? 0) < 300)).toHaveLength(20);
    expect([...mints, ...completes].every((r) => (r.status ?? 0) < 300 || r.status === 429)).toBe(true);
    // The batch kept to the limit: it waited for the window rather than be refused at every turn.
    const refused = [...mints, ...completes].filter((r) => r.status === 429).length;
    expect(refused).toBeLessThan(10);
    expect(run.stderr).toMatch(/rate limit reached \(10 a window\): waiting \d s for the service's next window/);
  }, 60_000);
});

describe('a rate limit past the retry budget', () => {
  it('exit 6, every file failed for the rate limit, the hint names args: --retry-budget under Actions', async () => {
    const emulator = await emulatorWith({ flavor: 'current' });
    const job = batch(3, 'spent');
    emulator.faults.rateLimitOnce.push(MINT, MINT, MINT);
    const run = await runCli(emulator, ['upload', 'statement', job.dir, '--retry-budget', '0.5s'], { env: job.env });
    expect(run.code).toBe(6);
    expect(job.outputs()).toMatchObject({ uploaded: '0', failed: '3', 'exit-code': '6' });
    expect(run.stderr).toContain(
      'allow a longer wait: `args: --retry-budget <duration>` in the step (e.g. `args: --retry-budget 5m`), or lower the concurrency',
    );
    expect(emulator.state.uploads.filter((u) => u.file_name.startsWith('spent-'))).toHaveLength(0);
  });

  it('without Actions the hint names --retry-budget', async () => {
    const emulator = await emulatorWith({ flavor: 'current' });
    const job = batch(1, 'plain');
    emulator.faults.rateLimitOnce.push(MINT);
    const run = await runCli(emulator, ['upload', 'statement', job.dir, '--retry-budget', '500ms']);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain(
      'allow a longer wait with --retry-budget <duration> (e.g. --retry-budget 5m), or try again later',
    );
  });
});

describe("a 429 on the upload's complete step", () => {
  it('is waited out and confirms the upload: no "not confirmed" failure', async () => {
    const emulator = await emulatorWith({ flavor: 'current' });
    const job = batch(1, 'confirm');
    emulator.faults.rateLimitOnce.push(COMPLETE);
    const run = await runCli(emulator, ['upload', 'statement', job.dir], { env: job.env });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('not confirm');
    expect(job.outputs()).toMatchObject({ uploaded: '1', failed: '0' });
    const completes = emulator.requests.filter((r) => `${r.method} ${r.path}` === COMPLETE).map((r) => r.status);
    expect(completes).toEqual([429, 200]);
  });

  it('past the budget it is a rate limit (exit 6) that names the stored bytes, not a failed upload', async () => {
    const emulator = await emulatorWith({ flavor: 'current' });
    const job = batch(1, 'unconfirmed');
    emulator.faults.rateLimitOnce.push(COMPLETE);
    const run = await runCli(emulator, ['upload', 'statement', job.dir, '--retry-budget', '0.5'], { env: job.env });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(
      /bytes of unconfirmed-00\.csv are stored under staging id \d+, but the service did not confirm/,
    );
  });
});

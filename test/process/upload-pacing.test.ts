// Pacing at scale: a 200-file batch against the emulator's rate limit completes on the defaults,
// every file uploaded once (as the emulator saw it), never exit 6. The limit's window is scaled
// (30 requests per 500 ms for 30 a minute) so the same pacing runs in seconds. A window further
// off than pds waits for ends in exit 6 with the hint. Each run as a workflow's `run:` step
// (test/helpers/runner.ts), through the built bin/pds.js.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { PDS_BIN, signedInEnv, startPds } from '../helpers/process.js';
import { job, type Job } from '../helpers/runner.js';

const started: Emulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});

const MINT = 'POST /v1/statements/uploads';
const COMPLETE = 'POST /v1/statements/uploads/complete';

function folder(runner: Job, prefix: string, count: number): void {
  const dir = join(runner.workspace, 'statements');
  mkdirSync(dir);
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, `${prefix}-${String(i).padStart(3, '0')}.csv`), `period,amount\n2026Q1,${i}\n`);
}

const upload = (flags = '') => `exec node ${JSON.stringify(PDS_BIN)} upload statement statements ${flags}\n`;

describe('a batch against a rate limit', () => {
  it('200 files at 30 requests a window (500 ms): all uploaded, each once, no exit 6', async () => {
    const emulator = await testEmulator({
      flavor: 'current',
      rateLimit: 30,
      rateWindowMs: 500,
      requestLogSize: 5000,
    });
    started.push(emulator);
    const runner = job();
    folder(runner, 'paced', 200);
    const end = await runner.run(upload('--concurrency 8'), signedInEnv(emulator.url) as Record<string, string>);
    expect(end.code, end.stderr.slice(-2000)).toBe(0);
    expect(end.stderr).toMatch(/^200 uploaded, 0 skipped, 0 failed \(/m);
    expect(runner.outputs()).toMatchObject({ uploaded: '200', skipped: '0', failed: '0' });
    // What the emulator received: each file made once and completed once.
    const uploads = emulator.state.uploads.filter((u) => u.file_name.startsWith('paced-'));
    expect(uploads).toHaveLength(200);
    expect(new Set(uploads.map((u) => u.file_name)).size).toBe(200);
    expect(uploads.filter((u) => u.minted === true)).toEqual([]);
    const of = (what: string) => emulator.requests.filter((r) => `${r.method} ${r.path}` === what);
    expect(of(MINT).filter((r) => (r.status ?? 0) < 300)).toHaveLength(200);
    expect(of(COMPLETE).filter((r) => (r.status ?? 0) < 300)).toHaveLength(200);
    // Anything else was a refusal before anything was made (and then sent again), nothing more.
    expect([...of(MINT), ...of(COMPLETE)].every((r) => (r.status ?? 0) < 300 || r.status === 429)).toBe(true);
    // It kept to the pace: the windows were waited for, far fewer refusals than requests.
    const refused = [...of(MINT), ...of(COMPLETE)].filter((r) => r.status === 429).length;
    expect(refused).toBeLessThan(40);
  }, 60_000);

  it('a window further off than pds waits for: exit 6, the files failed for the rate limit, the hint names --retry-budget', async () => {
    // Two requests, then a window two minutes off: past the minute pds waits for, past a 2 s budget.
    const emulator = await testEmulator({ flavor: 'current', rateLimit: 2, rateWindowMs: 120_000 });
    started.push(emulator);
    const runner = job();
    folder(runner, 'far', 3);
    const end = await runner.run(
      upload('--concurrency 1 --retry-budget 2s'),
      signedInEnv(emulator.url) as Record<string, string>,
    );
    expect(end.code, end.stderr).toBe(6);
    // Well before the window's two minutes: pds did not wait it out.
    expect(end.ms).toBeLessThan(60_000);
    const outputs = runner.outputs();
    expect(outputs).toMatchObject({ 'exit-code': '6' });
    expect(Number(outputs.uploaded) + Number(outputs.failed)).toBe(3);
    expect(Number(outputs.failed)).toBeGreaterThan(0);
    // The two requests the window allowed made one file; what was refused made nothing.
    const made = emulator.state.uploads.filter((u) => u.file_name.startsWith('far-') && u.minted !== true);
    expect(made).toHaveLength(Number(outputs.uploaded));
    expect(end.stdout + end.stderr).toContain('`args: --retry-budget <duration>`');
  }, 60_000);
});

describe('pds emulator start --rate-limit --rate-window', () => {
  it('30 requests per 500 ms: the 31st is refused, the reset said in milliseconds, the next window open', async () => {
    const emulator = startPds(
      ['emulator', 'start', '--port', '0', '--quiet', '--rate-limit', '30', '--rate-window', '500ms'],
      { killAfterMs: 60_000 },
    );
    try {
      await emulator.waitFor(/listening on http:\/\/\S+\n/);
      const url = /listening on (http:\/\/\S+)/.exec(emulator.stdout())?.[1] as string;
      const get = () => fetch(`${url}/v1/projects`, { headers: { authorization: 'Bearer demo-org-token' } });
      const answers: Response[] = [];
      for (let i = 0; i < 31; i++) answers.push(await get());
      const first = answers[0] as Response;
      const last = answers[30] as Response;
      expect(first.headers.get('x-ratelimit-limit')).toBe('30');
      // The window's end, in milliseconds since the epoch: within the half second.
      const reset = Number(first.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(1e12);
      expect(reset - Date.now()).toBeLessThanOrEqual(500);
      // Either all 31 fell in one window (the last refused) or a window turned between them.
      if (last.headers.get('x-ratelimit-reset') === String(reset)) {
        expect(last.status).toBe(429);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, reset - Date.now()) + 20));
        expect((await get()).status).toBe(200);
      } else expect(last.status).toBe(200);
    } finally {
      emulator.child.kill('SIGTERM');
      await emulator.exited;
    }
  }, 60_000);
});

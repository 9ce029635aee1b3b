// SIGTERM (a CI runner cancelling a job, a service manager) and SIGHUP (a closed terminal) stop pds
// as Ctrl-C does, through the built bin/pds.js: the batch stops, says what was uploaded, writes its
// reports, and pds exits 128 + the signal's number, well within the 7.5 s a runner gives before
// SIGKILL.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv, startPds } from '../helpers/process.js';

// Every answer takes a while, and processing longer: a batch of one file at a time, or a watch, is
// still running when the signal comes.
const emulator = sharedEmulator({ flavor: 'current', latencyMs: 300, processingMs: 60_000 });
const lastStagingId = () => Math.max(0, ...emulator.state.uploads.map((u) => u.staging_id));

function statements(count: number): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'pds-stop-'));
  const files = Array.from({ length: count }, (_, i) => {
    const path = join(dir, `s${String(i).padStart(2, '0')}.csv`);
    writeFileSync(path, `period,amount\n2026Q1,${i + 1}\n`);
    return path;
  });
  return { dir, files };
}

describe('a batch stopped by a signal', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal}: stops, says what was uploaded, writes the JUnit report, the summary and the outputs, exits ${code}`, {
      timeout: 40_000,
    }, async () => {
      const { dir } = statements(8);
      const before = lastStagingId();
      const runner = mkdtempSync(join(tmpdir(), 'pds-runner-'));
      const junit = join(runner, 'pds.xml');
      const summaryFile = join(runner, 'summary.md');
      const outputFile = join(runner, 'output.txt');
      writeFileSync(summaryFile, '');
      writeFileSync(outputFile, '');
      const pds = startPds(['upload', 'statement', dir, '--concurrency', '1', '--report', `junit=${junit}`], {
        env: signedInEnv(emulator.url, {
          GITHUB_ACTIONS: 'true',
          CI: 'true',
          GITHUB_WORKSPACE: dir,
          GITHUB_STEP_SUMMARY: summaryFile,
          GITHUB_OUTPUT: outputFile,
        }),
        killAfterMs: 30_000,
      });
      await pds.waitFor(/^uploaded \S*s00\.csv/m, 20_000);
      const sent = Date.now();
      pds.child.kill(signal);
      const run = await pds.exited;
      expect(run.signal).toBeNull();
      expect(run.code).toBe(code);
      // Far within the runner's 7.5 s (generous for a shared machine; it takes a fraction of a second).
      expect(Date.now() - sent).toBeLessThan(5000);

      const uploaded = emulator.state.uploads.filter((u) => u.staging_id > before);
      const said = signal === 'SIGINT' ? 'interrupted' : `stopped by ${signal}`;
      // The last line for people (pds's own annotation, beside the TSV data, follows it on stderr).
      const last =
        run.stderr
          .trimEnd()
          .split('\n')
          .filter((line) => !line.startsWith('::'))
          .at(-1) ?? '';
      // Every file is one of uploaded, skipped, failed: the files not reached are failed as not started.
      const counted = new RegExp(`^${said}: (\\d+) uploaded, 0 skipped, (\\d+) failed \\((\\d+) not started\\) \\(`);
      expect(last).toMatch(counted);
      const [, up, failed, notStarted] = counted.exec(last) as RegExpExecArray;
      expect(Number(up)).toBe(uploaded.length);
      expect(Number(up) + Number(failed)).toBe(8);
      expect(Number(notStarted)).toBeGreaterThan(0);
      expect(Number(notStarted)).toBeLessThanOrEqual(Number(failed));

      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain(`tests="8" failures="${failed}" errors="0" skipped="0"`);
      const why = `not started: the batch was stopped (${signal})`;
      expect(xml.split(`<failure message="${why}">`).length - 1).toBe(Number(notStarted));
      const outputs = readFileSync(outputFile, 'utf8');
      expect(outputs).toContain(`uploaded=${up}\nskipped=0\nfailed=${failed}\n`);
      expect(readFileSync(summaryFile, 'utf8')).toContain(
        `${up} uploaded, 0 skipped, ${failed} failed (${notStarted} not started)`,
      );
      expect(readFileSync(summaryFile, 'utf8')).toContain(`### pds upload statement failed (exit ${code})`);
      expect(outputs).toContain(`exit-code=${code}\n`);
      // stdout carries the TSV (data): pds's own annotation is on stderr.
      expect(run.stderr).toContain(
        `::error title=pds upload statement failed (exit ${code})::in CI: the job was cancelled`,
      );
    });
  }

  it('SIGTERM while a status is watched: exit 143 at once', async () => {
    const { files } = statements(1);
    const upload = await runPds(['upload', 'statement', files[0] as string, '-q'], { env: signedInEnv(emulator.url) });
    expect(upload.code).toBe(0);
    const pds = startPds(['statements', 'status', upload.stdout.trim(), '--watch', '--interval', '1'], {
      env: signedInEnv(emulator.url),
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    pds.child.kill('SIGTERM');
    const run = await pds.exited;
    expect(run.signal).toBeNull();
    expect(run.code).toBe(143);
  });
});

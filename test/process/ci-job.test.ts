// A CI job a team can gate on (issue 36), through the built bin/pds.js in a simulated GitHub Actions
// runner: GITHUB_ACTIONS, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE and RUNNER_* set,
// both streams read through pipes, against the emulator.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator();

interface Runner {
  workspace: string;
  env: Record<string, string | undefined>;
  outputs(): Record<string, string>;
  summary(): string;
}

/** A runner's step: a workspace, the files the runner gives the step, and its variables. */
function runner(extra: Record<string, string | undefined> = {}): Runner {
  const workspace = mkdtempSync(join(tmpdir(), 'pds-workspace-'));
  const temp = mkdtempSync(join(tmpdir(), 'pds-runner-'));
  const output = join(temp, 'output');
  const summary = join(temp, 'summary.md');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  return {
    workspace,
    env: signedInEnv(emulator.url, {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: temp,
      RUNNER_OS: 'Linux',
      ...extra,
    }),
    outputs: () => {
      // The last value of each name wins, as the runner reads the file.
      const pairs = readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
      return Object.fromEntries(pairs);
    },
    summary: () => readFileSync(summary, 'utf8'),
  };
}

/** A statement folder: `good.csv` and a PDF cut short (no %%EOF), which fails its staging check. */
function damagedBatch(workspace: string): string {
  const dir = join(workspace, 'statements');
  mkdirSync(dir);
  writeFileSync(join(dir, 'good.csv'), 'period,amount\n2026Q1,1\n');
  writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.4\n1 0 obj << >> endobj\n');
  return dir;
}

describe('a job with one damaged statement', () => {
  it('fails, and fails again on a re-run; outputs, JSON, JUnit and summary count the processing failure', async () => {
    const job = runner();
    const dir = damagedBatch(job.workspace);
    const junit = join(job.workspace, 'pds.xml');
    const json = join(job.workspace, 'pds.json');
    const args = ['upload', 'statement', dir, '--wait', '--skip-existing', '--report', `junit=${junit}`];
    const first = await runPds([...args, '--report', `json=${json}`], { env: job.env });
    expect(first.code).toBe(7);
    const outputs = job.outputs();
    const good = emulator.state.uploads.findLast((u) => u.file_name === 'good.csv');
    expect(outputs).toEqual({
      uploaded: '2',
      skipped: '0',
      failed: '1',
      processed: '1',
      'processing-failed': '1',
      'staging-ids': expect.stringMatching(/^\d+,\d+$/),
      'statement-ids': String(good?.result_id),
    });
    const report = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown> & { files: { file: string }[] };
    expect(report).toMatchObject({ uploaded: 2, skipped: 0, failed: 1, processed: 1, processing_failed: 1 });
    // Named as the job page names them: relative to the workspace.
    expect(report.files.map((f) => f.file)).toEqual(['statements/broken.pdf', 'statements/good.csv']);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="pds upload statement" tests="2" failures="1" errors="0" skipped="0"');
    expect(xml).toContain('<testcase classname="pds upload statement" name="statements/broken.pdf"');
    expect(job.summary()).toContain('| statements/broken.pdf | processing failed | staging id ');
    expect(first.stdout).toContain('::error file=statements/broken.pdf,title=pds upload::processing failed');

    // The re-run: the good file is there already; the damaged one is not "already uploaded".
    const again = await runPds(args, { env: job.env });
    expect(again.code).toBe(7);
    expect(again.stderr).toMatch(/^skipped \S*good\.csv: already uploaded \(statement \d+\)$/m);
    expect(again.stderr).toMatch(/^uploading \S*broken\.pdf \(\d+ B\)$/m);
    expect(job.outputs()).toMatchObject({ uploaded: '1', skipped: '1', failed: '1', 'processing-failed': '1' });
    expect(emulator.state.uploads.filter((u) => u.file_name === 'broken.pdf' && u.staging_error)).toHaveLength(2);
  });
});

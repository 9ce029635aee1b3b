// The GitHub Action (action.yml): its upload step's script, run as the runner runs it (bash, inputs
// as INPUT_* variables, GITHUB_ACTIONS/GITHUB_OUTPUT/GITHUB_STEP_SUMMARY set to temporary files),
// against the emulator, with the pds built from this checkout.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { childEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function runStep(env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [join(ROOT, 'action/upload.sh')],
      {
        env: childEnv({ PDS_TOKEN: undefined, PDS_PROJECT: undefined, PDS_API_URL: undefined, ...env }),
        timeout: 20_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

it('action.yml declares the inputs and outputs, and runs the scripts the test runs', () => {
  const action = parse(readFileSync(join(ROOT, 'action', 'action.yml'), 'utf8')) as {
    inputs: Record<string, unknown>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: { run: string; env?: Record<string, string> }[] };
  };
  expect(Object.keys(action.inputs)).toEqual([
    'files',
    'kind',
    'project',
    'token',
    'api-url',
    'skip-existing',
    'wait',
    'concurrency',
    'fail-fast',
    'recursive',
    'include',
    'exclude',
    'report-junit',
    'report-json',
    'accounting-period',
    'currency-royalty',
    'currency-transaction',
    'payee',
    'payor',
    'scenario',
    'target-family',
    'tags',
    'folder',
    'batch-timeout',
    'args',
  ]);
  // Processing failures fail the step unless the workflow says otherwise.
  expect((action.inputs.wait as { default: string }).default).toBe('true');
  expect(Object.keys(action.outputs)).toEqual([
    'uploaded',
    'skipped',
    'failed',
    'processed',
    'processing-failed',
    'staging-ids',
    'statement-ids',
    'contract-ids',
    'exit-code',
    'error',
    'pds-path',
  ]);
  for (const [name, output] of Object.entries(action.outputs))
    expect(output.value).toBe(`\${{ steps.${name === 'pds-path' ? 'install' : 'upload'}.outputs.${name} }}`);
  expect(action.runs.using).toBe('composite');
  // exec at each link: a cancel's SIGINT, sent to the step's pid, is pds's (action-runner.test.ts).
  expect(action.runs.steps.map((s) => s.run)).toEqual([
    'exec bash "$GITHUB_ACTION_PATH/install.sh"',
    'exec bash "$GITHUB_ACTION_PATH/upload.sh"',
  ]);
  // Every input reaches the script as a variable, none spliced into its command line.
  expect(Object.keys(action.runs.steps[1]?.env ?? {})).toEqual(
    Object.keys(action.inputs).map((name) => `INPUT_${name.toUpperCase().replace(/-/g, '_')}`),
  );
});

it('uploads, masks the token, sets the outputs and the summary; a re-run skips everything', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-action-'));
  writeFileSync(join(dir, 'action-a.pdf'), '%PDF-1.4\n% a\n%%EOF\n');
  writeFileSync(join(dir, 'action b.pdf'), '%PDF-1.4\n% b\n%%EOF\n');
  const outputs = join(dir, 'outputs');
  const summary = join(dir, 'summary.md');
  const env = {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: outputs,
    GITHUB_STEP_SUMMARY: summary,
    RUNNER_TEMP: dir,
    INPUT_FILES: `${join(dir, 'action-a.pdf')}\r\n${join(dir, 'action b.pdf')}\n`,
    INPUT_KIND: 'statement',
    INPUT_PROJECT: DEMO_PROJECT,
    INPUT_TOKEN: 'demo-org-token',
    INPUT_API_URL: emulator.url,
    INPUT_SKIP_EXISTING: 'name',
    INPUT_WAIT: 'false',
  };
  const first = await runStep(env);
  expect(first.code).toBe(0);
  expect(first.stdout.split('\n')[0]).toBe('::add-mask::demo-org-token');
  const ids = emulator.state.uploads.filter((u) => u.file_name.startsWith('action')).map((u) => u.staging_id);
  expect(ids).toHaveLength(2);
  expect(readFileSync(outputs, 'utf8')).toBe(`uploaded=2\nskipped=0\nfailed=0\nstaging-ids=${ids.join(',')}\n`);
  expect(readFileSync(summary, 'utf8')).toContain('2 uploaded, 0 skipped, 0 failed\n');
  // The token went to the service as a header, never to the log.
  expect(first.stdout.split('\n').slice(1).join('\n')).not.toContain('demo-org-token');
  expect(first.stderr).not.toContain('demo-org-token');

  const again = await runStep(env);
  expect(again.code).toBe(0);
  expect(readFileSync(outputs, 'utf8').split('\n').slice(4).join('\n')).toBe(
    'uploaded=0\nskipped=2\nfailed=0\nstaging-ids=\n',
  );
  expect(emulator.state.uploads.filter((u) => u.file_name.startsWith('action'))).toHaveLength(2);
});

it('refuses an empty token or a bad input before running pds', async () => {
  const empty = await runStep({ GITHUB_ACTION_PATH: ROOT, INPUT_FILES: 'x.pdf', INPUT_TOKEN: '' });
  expect(empty).toEqual({ code: 3, stdout: '::error title=pds upload::the token input is empty\n', stderr: '' });
  const bad = await runStep({
    GITHUB_ACTION_PATH: ROOT,
    INPUT_FILES: 'x.pdf',
    INPUT_TOKEN: 't',
    INPUT_SKIP_EXISTING: 'maybe',
  });
  expect(bad.code).toBe(2);
  expect(bad.stdout).toBe(
    '::add-mask::t\n::error title=pds upload::the skip-existing input takes name, content or false\n',
  );
  expect(emulator.requests).toEqual([]);
});

it('passes every input as its flag: wait by default, reports, concurrency, globs, the context, tags and args', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-action-'));
  mkdirSync(join(dir, 'in', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'in', 'q1 sales.csv'), 'period,amount\n2026Q1,1\n');
  writeFileSync(join(dir, 'in', 'sub', 'q1-more.csv'), 'period,amount\n2026Q1,2\n');
  writeFileSync(join(dir, 'in', 'skip-me.csv'), 'period,amount\n2026Q1,3\n');
  const outputs = join(dir, 'outputs');
  const junit = join(dir, 'pds.xml');
  const env = {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: outputs,
    RUNNER_TEMP: dir,
    INPUT_FILES: join(dir, 'in'),
    INPUT_KIND: 'statement',
    INPUT_PROJECT: DEMO_PROJECT,
    INPUT_TOKEN: 'demo-org-token',
    INPUT_API_URL: emulator.url,
    INPUT_SKIP_EXISTING: 'false',
    INPUT_CONCURRENCY: '2',
    INPUT_RECURSIVE: 'true',
    INPUT_INCLUDE: '*.csv\n',
    INPUT_EXCLUDE: 'skip-*\n',
    INPUT_REPORT_JUNIT: junit,
    INPUT_ACCOUNTING_PERIOD: '2026Q1',
    INPUT_CURRENCY_ROYALTY: 'EUR',
    INPUT_TAGS: 'ci\nq1 batch\n',
    INPUT_ARGS: '--interval 1\n--wait-timeout 60',
  };
  const run = await runStep(env);
  expect(run.code, run.stderr).toBe(0);
  const made = emulator.state.uploads.filter((u) => u.file_name === 'q1 sales.csv' || u.file_name === 'q1-more.csv');
  expect(made).toHaveLength(2);
  for (const upload of made) {
    expect(upload.context).toMatchObject({
      accountingPeriod: { value: '2026Q1' },
      currencyRoyalty: 'EUR',
      tags: ['ci', 'q1 batch'],
    });
  }
  expect(emulator.state.uploads.some((u) => u.file_name === 'skip-me.csv')).toBe(false);
  // Waited for by default: the outputs count processing.
  expect(readFileSync(outputs, 'utf8')).toMatch(/^processed=2$/m);
  expect(readFileSync(outputs, 'utf8')).toMatch(/^statement-ids=\d+,\d+$/m);
  expect(readFileSync(junit, 'utf8')).toContain('tests="2" failures="0"');
});

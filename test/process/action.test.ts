// The GitHub Action (action.yml): its upload step's script, run as the runner runs it (bash, inputs
// as INPUT_* variables, GITHUB_ACTIONS/GITHUB_OUTPUT/GITHUB_STEP_SUMMARY set to temporary files),
// against the emulator, with the pds built from this checkout.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { childEnv } from '../helpers/process.js';

const emulator = sharedEmulator();
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
      [join(ROOT, 'scripts/action/upload.sh')],
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
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, unknown>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: { run: string; env?: Record<string, string> }[] };
  };
  expect(Object.keys(action.inputs)).toEqual(['files', 'kind', 'project', 'token', 'api-url', 'skip-existing', 'wait']);
  expect(Object.keys(action.outputs)).toEqual(['uploaded', 'skipped', 'failed', 'staging-ids']);
  expect(action.runs.using).toBe('composite');
  expect(action.runs.steps.map((s) => s.run)).toEqual([
    'bash "$GITHUB_ACTION_PATH/scripts/action/install.sh"',
    'bash "$GITHUB_ACTION_PATH/scripts/action/upload.sh"',
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
  expect(empty).toEqual({ code: 2, stdout: '::error title=pds upload::the token input is empty\n', stderr: '' });
  const bad = await runStep({
    GITHUB_ACTION_PATH: ROOT,
    INPUT_FILES: 'x.pdf',
    INPUT_TOKEN: 't',
    INPUT_SKIP_EXISTING: 'maybe',
  });
  expect(bad.code).toBe(2);
  expect(bad.stdout).toBe('::add-mask::t\n::error title=pds upload::skip-existing takes name, content or false\n');
  expect(emulator.requests).toEqual([]);
});

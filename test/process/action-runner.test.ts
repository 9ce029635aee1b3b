// The action's own steps run as GitHub's runner runs them (test/helpers/runner.ts): the step's
// `run:` in a file under `bash --noprofile --norc -eo pipefail`, stdin /dev/null, both streams
// through pipes, and a cancel as SIGINT to the step's pid only, SIGTERM 7.5 s later. The light
// action (action/, as its release branch holds it) against the emulator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { PDS_BIN, until } from '../helpers/process.js';
import { actionStepEnv, job, ROOT, readAction, statementFolder } from '../helpers/runner.js';
import { obeyed } from '../helpers/workflow-commands.js';

// Every request waits 150 ms: a batch of 40 files one at a time lasts long enough to be cancelled.
const emulator = sharedEmulator({ flavor: 'current', latencyMs: 150 });
const ACTION = join(ROOT, 'action');

const upload = () => readAction(ACTION).runs.steps.find((s) => s.id === 'upload')?.run ?? '';
const install = () => readAction(ACTION).runs.steps.find((s) => s.id === 'install')?.run ?? '';

const withInputs = (files: string, more: Record<string, string> = {}) => ({
  files,
  project: DEMO_PROJECT,
  token: 'demo-org-token',
  'api-url': emulator.url,
  ...more,
});

it('a cancelled job reaches pds: it stops at once, with reports, summary and outputs, and sends nothing after', async () => {
  const runner = job();
  const dir = statementFolder(runner, 'cancelled', 40);
  const json = join(runner.workspace, 'pds.json');
  const step = runner.start(
    upload(),
    actionStepEnv(
      ACTION,
      'upload',
      withInputs(dir, { wait: 'false', concurrency: '1', 'skip-existing': 'false', 'report-json': json }),
    ),
  );
  const ours = () => emulator.state.uploads.filter((u) => u.file_name.startsWith('cancelled-'));
  await until(() => ours().length >= 3, 'three uploads made');
  step.cancel();
  const end = await step.done;
  const cancelledAt = step.cancelledAt() as number;
  // pds itself took the SIGINT (exit 130): no SIGTERM was needed, no process was killed.
  expect(end.signal).toBeNull();
  expect(end.code, end.stderr).toBe(130);
  const made = ours().length;
  expect(made).toBeLessThan(40);
  // Uploads completed (a minted one the cancel cut short never was).
  const completed = ours().filter((u) => !u.minted).length;
  // Nothing began after the cancel (a request under way may still arrive within its latency).
  const mints = emulator.requests.filter((r) => r.method === 'POST' && r.path === '/v1/statements/uploads');
  expect(mints.filter((r) => r.at > cancelledAt + 100)).toEqual([]);
  const last = Math.max(...emulator.requests.map((r) => r.at));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(emulator.requests.filter((r) => r.at > last)).toEqual([]);
  expect(ours()).toHaveLength(made);

  // Reports, summary and outputs, counting what the emulator holds.
  const outputs = runner.outputs();
  expect(outputs).toMatchObject({ uploaded: String(completed), 'exit-code': '130' });
  expect(Number(outputs.uploaded) + Number(outputs.skipped) + Number(outputs.failed)).toBeLessThanOrEqual(40);
  expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ uploaded: completed });
  expect(runner.summary()).toContain('### pds upload statement failed (exit 130)');
  expect(runner.summary()).toContain('cancelled');
  const errors = obeyed(end.stdout).filter((line) => line.startsWith('::error'));
  // The file the cancel cut short, if one was under way, then the command's own annotation.
  expect(errors.at(-1)).toMatch(
    /^::error title=pds upload statement failed \(exit 130\)::in CI: the job was cancelled/,
  );
  for (const line of errors.slice(0, -1))
    expect(line).toMatch(/^::error file=cancelled\/cancelled-\d+\.csv,title=pds upload::interrupted$/);
});

it('the install step puts pds on the PATH of later steps and gives its path', async () => {
  const runner = job();
  const installed = await runner.run(install(), actionStepEnv(ACTION, 'install', withInputs('x')));
  expect(installed.code, installed.stderr).toBe(0);
  expect(runner.paths()).toEqual([ACTION]);
  expect(runner.outputs()['pds-path']).toBe(join(ACTION, 'pds'));
  // A later step of the job: `pds` alone, found on the PATH.
  const later = await runner.run('exec pds --version\n');
  expect(later).toMatchObject({
    code: 0,
    stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`,
  });
});

it("an empty token: an annotation that names a missing secret or a fork's pull request, a summary and outputs", async () => {
  const runner = job();
  const step = await runner.run(upload(), actionStepEnv(ACTION, 'upload', withInputs('x.csv', { token: '' })));
  expect(step.code).toBe(3);
  expect(obeyed(step.stdout)).toEqual(['::error title=pds upload::the token input is empty']);
  expect(runner.summary()).toContain('### pds upload failed (exit 3)\n\nthe token input is empty\n');
  expect(runner.summary()).toMatch(/\*\*In CI:\*\* .*secret.*not set.*pull request from a fork/);
  expect(runner.outputs()).toEqual({ 'exit-code': '3', error: 'the token input is empty' });
  expect(emulator.requests).toEqual([]);
});

it('an input the step refuses (wait: yes): an annotation, a summary and outputs, nothing sent', async () => {
  const runner = job();
  const step = await runner.run(upload(), actionStepEnv(ACTION, 'upload', withInputs('x.csv', { wait: 'yes' })));
  expect(step.code).toBe(2);
  expect(obeyed(step.stdout)).toEqual([
    '::add-mask::demo-org-token',
    '::error title=pds upload::the wait input takes true or false',
  ]);
  expect(runner.summary()).toContain('### pds upload failed (exit 2)\n\nthe wait input takes true or false\n');
  expect(runner.outputs()).toEqual({ 'exit-code': '2', error: 'the wait input takes true or false' });
  expect(emulator.requests).toEqual([]);
});

it("the guide's plain step (`run: exec pds upload …`): a cancel reaches pds as well", async () => {
  const runner = job();
  const dir = statementFolder(runner, 'plain', 40);
  const step = runner.start(
    `exec node ${JSON.stringify(PDS_BIN)} upload statement ${JSON.stringify(dir)} --concurrency 1\n`,
    {
      PDS_TOKEN: 'demo-org-token',
      PDS_PROJECT: DEMO_PROJECT,
      PDS_API_URL: emulator.url,
      PDS_CONFIG_DIR: runner.temp,
    },
  );
  const ours = () => emulator.state.uploads.filter((u) => u.file_name.startsWith('plain-'));
  await until(() => ours().length >= 2, 'two uploads made');
  step.cancel();
  const end = await step.done;
  expect(end.signal).toBeNull();
  expect(end.code, end.stderr).toBe(130);
  const cancelledAt = step.cancelledAt() as number;
  const mints = emulator.requests.filter((r) => r.method === 'POST' && r.path === '/v1/statements/uploads');
  expect(mints.filter((r) => r.at > cancelledAt + 100)).toEqual([]);
  expect(ours().length).toBeLessThan(40);
  expect(runner.outputs()).toMatchObject({
    'exit-code': '130',
    uploaded: String(ours().filter((u) => !u.minted).length),
  });
});

// A GitHub Actions runner as far as a step sees it: the step's `run:` text in a file run with
// `bash --noprofile --norc -eo pipefail FILE`, stdin /dev/null, stdout and stderr read through
// pipes, the runner's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH) and variables, and a
// cancel (or a step's timeout) as the runner sends it: SIGINT to the step's own pid only, SIGTERM
// 7.5 s later, SIGKILL 2.5 s after that. Tests of the action (action.yml, action/) and of the docs'
// CI recipes run steps through it and read the log with workflow-commands.ts.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { childEnv } from './process.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The runner's delays after a cancel: SIGINT, then SIGTERM after 7.5 s, then a kill after 2.5 s more. */
export const CANCEL_TERM_MS = 7500;
export const CANCEL_KILL_MS = 2500;

export interface StepEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the start to the exit. */
  ms: number;
}

export interface RunningStep {
  pid: number;
  stdout(): string;
  stderr(): string;
  /** The runner's cancel: SIGINT to the step's pid, SIGTERM 7.5 s later, a kill 2.5 s after that. */
  cancel(): void;
  /** When cancel() sent its SIGINT (Date.now()), if it did. */
  cancelledAt(): number | undefined;
  done: Promise<StepEnd>;
}

/** One job's runner: its workspace, temp directory and the files each step appends to. */
export interface Job {
  workspace: string;
  temp: string;
  /** The variables every step gets (GITHUB_*, RUNNER_*, CI), plus PATH as GITHUB_PATH makes it. */
  env(): Record<string, string>;
  /** The step outputs written so far, the last value of each name winning, as the runner reads them. */
  outputs(): Record<string, string>;
  summary(): string;
  /** The directories steps added to the PATH. */
  paths(): string[];
  /** Starts a step whose `run:` is `script`, with `env` beside the job's variables. */
  start(script: string, env?: Record<string, string>): RunningStep;
  run(script: string, env?: Record<string, string>): Promise<StepEnd>;
}

export function job(extra: Record<string, string> = {}): Job {
  const workspace = mkdtempSync(join(tmpdir(), 'pds-workspace-'));
  const temp = mkdtempSync(join(tmpdir(), 'pds-runner-temp-'));
  const files = mkdtempSync(join(tmpdir(), 'pds-runner-files-'));
  const output = join(files, 'output');
  const summary = join(files, 'summary.md');
  const path = join(files, 'path');
  for (const file of [output, summary, path]) writeFileSync(file, '');
  let steps = 0;
  const paths = () => readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const env = (): Record<string, string> => ({
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_PATH: path,
    RUNNER_TEMP: temp,
    RUNNER_OS: 'Linux',
    // Each line of GITHUB_PATH goes before the PATH of the steps after it, the last added first.
    PATH: [...paths().reverse(), process.env.PATH ?? ''].join(':'),
    ...extra,
  });
  const start = (script: string, stepEnv: Record<string, string> = {}): RunningStep => {
    const file = join(files, `step-${++steps}.sh`);
    writeFileSync(file, script);
    return startStep(file, { ...env(), ...stepEnv }, workspace);
  };
  return {
    workspace,
    temp,
    env,
    outputs: () => {
      const pairs = readFileSync(output, 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
      return Object.fromEntries(pairs);
    },
    summary: () => readFileSync(summary, 'utf8'),
    paths,
    start,
    run: (script, stepEnv) => start(script, stepEnv).done,
  };
}

function startStep(file: string, env: Record<string, string>, cwd: string): RunningStep {
  const started = Date.now();
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
    cwd,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const timers: NodeJS.Timeout[] = [];
  // A hung step fails its test with its log rather than holding the test to its deadline.
  timers.push(setTimeout(() => child.kill('SIGKILL'), 50_000));
  let cancelledAt: number | undefined;
  const done = new Promise<StepEnd>((resolve) => {
    child.on('close', (code, signal) => {
      for (const timer of timers) clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Date.now() - started,
      });
    });
  });
  return {
    pid: child.pid as number,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
    cancel() {
      cancelledAt = Date.now();
      // process.kill on the pid alone, as the runner signals it: not the process group.
      process.kill(child.pid as number, 'SIGINT');
      timers.push(
        setTimeout(() => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          timers.push(setTimeout(() => child.kill('SIGKILL'), CANCEL_KILL_MS));
        }, CANCEL_TERM_MS),
      );
    },
    cancelledAt: () => cancelledAt,
    done,
  };
}

interface ActionFile {
  inputs: Record<string, { default?: string | number }>;
  outputs: Record<string, { value: string }>;
  runs: { steps: { id?: string; run: string; env?: Record<string, string> }[] };
}

/** An action.yml read: the repository's, or the light action's (action/action.yml). */
export function readAction(dir: string): ActionFile {
  return parse(readFileSync(join(dir, 'action.yml'), 'utf8')) as ActionFile;
}

/**
 * The environment the runner gives one of the action's steps: its `env:` with each `${{ inputs.x }}`
 * the workflow's `with:` value or the input's default, and GITHUB_ACTION_PATH.
 */
export function actionStepEnv(dir: string, stepId: string, with_: Record<string, string>): Record<string, string> {
  const action = readAction(dir);
  const step = action.runs.steps.find((s) => s.id === stepId);
  if (!step) throw new Error(`action.yml has no step ${stepId}`);
  const env: Record<string, string> = { GITHUB_ACTION_PATH: dir };
  for (const [name, value] of Object.entries(step.env ?? {})) {
    const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value)?.[1];
    if (!input) throw new Error(`${name}: ${value} is not an input`);
    env[name] = with_[input] ?? String(action.inputs[input]?.default ?? '');
  }
  return env;
}

/** Runs the action's steps as a workflow's `uses:` does: each in turn, until one fails. */
export async function useAction(
  runner: Job,
  dir: string,
  with_: Record<string, string>,
): Promise<{ install: StepEnd; upload?: StepEnd }> {
  const steps = readAction(dir).runs.steps;
  const install = await runner.run(steps[0]?.run ?? '', actionStepEnv(dir, 'install', with_));
  if (install.code !== 0) return { install };
  const upload = await runner.run(steps[1]?.run ?? '', actionStepEnv(dir, 'upload', with_));
  return { install, upload };
}

/** A folder of `count` small statements under the workspace. */
export function statementFolder(runner: Job, name: string, count: number, tag = name): string {
  const dir = join(runner.workspace, name);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, `${tag}-${String(i).padStart(3, '0')}.csv`), `period,amount\n2026Q1,${tag}-${i}\n`);
  return dir;
}

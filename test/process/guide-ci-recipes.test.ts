// The guide's CI recipes (docs/guide.md's ```yaml blocks with steps) run as written, step by step, as
// GitHub's runner runs them (test/helpers/runner.ts), against the emulator as the service is deployed
// (its processed statements carry financials a check compares): green on good statement
// files, red on a folder with one damaged file. What a test cannot be is stood in for, and only
// that: `actions/checkout` (the workspace already holds the files), `uses: OWNER/pds@<sha>` (the
// light action as `npm run release:action` commits it, its tree alone, built from this checkout:
// test/helpers/release.ts), `npm install --global pds` (pds of this checkout on the
// PATH), the expressions `secrets.PDS_TOKEN` and `vars.PDS_PROJECT` (the emulator's demo token and
// project), and the service's URL (PDS_API_URL in the job's environment, as a runner's own).
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { PDS_BIN } from '../helpers/process.js';
import { releasedAction } from '../helpers/release.js';
import { actionStepEnv, type Job, job, ROOT, readAction, type StepEnd } from '../helpers/runner.js';

const emulator = sharedEmulator({ flavor: 'deployed' });
const GUIDE = readFileSync(join(ROOT, 'docs', 'guide.md'), 'utf8');
/** The release branch's tree (or action/ where this checkout is no git repository). */
let ACTION = join(ROOT, 'action');
beforeAll(() => {
  const released = releasedAction();
  if (released) ACTION = released.dir;
}, 60_000);

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
  run?: string;
}

/** The guide's ```yaml blocks that hold steps (a workflow's job, or a list of steps), with their line. */
function recipes(): { line: number; steps: Step[] }[] {
  return [...GUIDE.matchAll(/```yaml\n([^]*?)```/g)].flatMap((match) => {
    const doc = parse(match[1] ?? '') as unknown;
    const line = GUIDE.slice(0, match.index).split('\n').length + 1;
    const jobs = (doc as { jobs?: Record<string, { steps?: Step[] }> })?.jobs;
    const steps = jobs
      ? Object.values(jobs).flatMap((j) => j.steps ?? [])
      : Array.isArray(doc)
        ? (doc as Step[])
        : ((doc as { steps?: Step[] })?.steps ?? []);
    return steps.length > 0 ? [{ line, steps }] : [];
  });
}

/** `${{ … }}` as the runner would fill it in for this job. */
function expand(text: string, runner: Job): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    if (expression === 'secrets.PDS_TOKEN') return 'demo-org-token';
    if (expression === 'vars.PDS_PROJECT') return DEMO_PROJECT;
    const output = /^steps\.[\w-]+\.outputs\.([\w-]+)$/.exec(expression)?.[1];
    if (output) return runner.outputs()[output] ?? '';
    throw new Error(`the test cannot fill in \${{ ${expression} }}`);
  });
}

/** A directory with this checkout's pds as `pds`: what `npm install --global pds` gives a runner. */
function npmGlobalPds(): string {
  const bin = mkdtempSync(join(tmpdir(), 'pds-npm-global-'));
  symlinkSync(PDS_BIN, join(bin, 'pds'));
  return bin;
}

/** Runs the steps in order as the runner does: after a failure only `if: always()` steps run. */
async function runRecipe(steps: Step[], runner: Job): Promise<{ step: string; end: StepEnd }[]> {
  const ran: { step: string; end: StepEnd }[] = [];
  let failed = false;
  for (const step of steps) {
    if (failed && step.if !== 'always()') continue;
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), runner)]));
    let end: StepEnd | undefined;
    if (step.uses?.startsWith('actions/checkout@')) continue;
    if (step.uses?.startsWith('OWNER/pds@')) {
      const inputs = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), runner)]),
      );
      const [install, upload] = readAction(ACTION).runs.steps;
      end = await runner.run(install?.run ?? '', actionStepEnv(ACTION, 'install', inputs));
      if (end.code === 0) end = await runner.run(upload?.run ?? '', actionStepEnv(ACTION, 'upload', inputs));
    } else if (step.run?.trim() === 'npm install --global pds') {
      writeFileSync(join(runner.env().GITHUB_PATH as string), `${npmGlobalPds()}\n`, { flag: 'a' });
      continue;
    } else if (step.run !== undefined) {
      end = await runner.run(expand(step.run, runner), env);
    } else throw new Error(`a step the test cannot run: ${JSON.stringify(step)}`);
    ran.push({ step: step.name ?? step.id ?? step.run ?? step.uses ?? '', end });
    if (end.code !== 0) failed = true;
  }
  return ran;
}

/** The statement folders the recipes name, each with good files (and, when asked, one damaged). */
function workspaceFiles(runner: Job, damaged: boolean): void {
  for (const period of ['2026Q1', '2025Q3']) {
    const dir = join(runner.workspace, 'statements', period);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${period}-sales.csv`), `period,amount\n${period},12.50\n`);
    writeFileSync(join(dir, `${period}-more.csv`), `period,amount\n${period},3.25\n`);
    // A PDF cut short (no %%EOF): the service's staging check fails it.
    if (damaged) writeFileSync(join(dir, `${period}-scan.pdf`), '%PDF-1.4\n1 0 obj << >> endobj\n');
  }
}

const all = recipes();

it('the guide has the CI recipes this test runs', () => {
  expect(all.length).toBeGreaterThanOrEqual(3);
  expect(all.some((r) => r.steps.some((s) => s.uses?.startsWith('OWNER/pds@')))).toBe(true);
});

describe.each(all.map((recipe) => [recipe.line, recipe] as const))('the recipe at docs/guide.md:%i', (_, recipe) => {
  it('is green on good files', async () => {
    const runner = job({ PDS_API_URL: emulator.url });
    workspaceFiles(runner, false);
    const ran = await runRecipe(recipe.steps, runner);
    for (const { step, end } of ran) expect(end.code, `${step}\n${end.stdout}\n${end.stderr}`).toBe(0);
    expect(ran.length).toBeGreaterThan(0);
  }, 60_000);

  it('is red on a damaged file, and the job page says which', async () => {
    const runner = job({ PDS_API_URL: emulator.url });
    workspaceFiles(runner, true);
    const ran = await runRecipe(recipe.steps, runner);
    const failed = ran.find(({ end }) => end.code !== 0);
    expect(failed?.end.code).toBe(7);
    expect(`${failed?.end.stdout}${failed?.end.stderr}`).toMatch(
      /^::error file=statements\/\d{4}Q\d\/\d{4}Q\d-scan\.pdf,/m,
    );
  }, 60_000);
});

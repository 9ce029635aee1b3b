// The action's one-file build (action/pds.mjs, scripts/build-action.js): current, never committed on
// main (the release branch carries it: action-release.test.ts), and run as the runner runs the
// action's steps from a checkout of the action alone, with no node_modules.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
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

function run(file: string, args: string[], env: Record<string, string | undefined>, cwd = ROOT): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, env: childEnv({ PDS_TOKEN: undefined, PDS_PROJECT: undefined, ...env }), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The light action as its release branch holds it: the action/ directory alone, at the root. */
function actionCheckout(): string {
  const path = mkdtempSync(join(tmpdir(), 'pds-action-checkout-'));
  cpSync(join(ROOT, 'action'), path, { recursive: true });
  return path;
}

/** Every node_modules folder under `dir`. */
function nodeModules(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) =>
    p.split(/[\\/]/).includes('node_modules'),
  );
}

it('action/pds.mjs is the build of these sources (npm run build rebuilds it)', async () => {
  const check = await run(process.execPath, ['scripts/build-action.js', '--check'], {});
  expect(check.stderr).toBe('');
  expect(check.code).toBe(0);
});

// main keeps the action's sources only: a bundle committed there would churn with every change of src/.
it("in a git checkout, action/pds.mjs is ignored and not committed; the action's sources are", async () => {
  const git = (...args: string[]) => run('git', args, {});
  const inside = await git('rev-parse', '--is-inside-work-tree');
  if (inside.code !== 0) {
    console.log(`not checked: ${ROOT} is not a git checkout (${inside.stderr.trim()})`);
    return;
  }
  expect((await git('ls-files', '--', 'action')).stdout.split('\n').filter(Boolean).sort()).toEqual([
    'action/action.yml',
    'action/install.sh',
    'action/pds',
    'action/upload.sh',
  ]);
  expect((await git('check-ignore', 'action/pds.mjs')).stdout).toBe('action/pds.mjs\n');
  // No action.yml at the root: a commit of main is no action (its bundle is not there).
  expect((await git('ls-files', '--', 'action.yml')).stdout).toBe('');
});

it("runs the action's steps from the action's files alone: no install, no node_modules", async () => {
  const action = actionCheckout();
  const workspace = mkdtempSync(join(tmpdir(), 'pds-workspace-'));
  mkdirSync(join(workspace, 'statements'));
  writeFileSync(join(workspace, 'statements', 'bundle.csv'), 'period,amount\n2026Q1,1\n');
  const outputs = join(workspace, '..', `${workspace.split(/[\\/]/).at(-1)}-outputs`);
  writeFileSync(outputs, '');
  const env = {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_ACTION_PATH: action,
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputs,
    RUNNER_TEMP: workspace,
    INPUT_FILES: 'statements',
    INPUT_KIND: 'statement',
    INPUT_PROJECT: DEMO_PROJECT,
    INPUT_TOKEN: 'demo-org-token',
    INPUT_API_URL: emulator.url,
    INPUT_SKIP_EXISTING: 'name',
    INPUT_WAIT: 'true',
  };
  const install = await run('bash', [join(action, 'install.sh')], env, workspace);
  expect(install).toEqual({
    code: 0,
    stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`,
    stderr: '',
  });
  const upload = await run('bash', [join(action, 'upload.sh')], env, workspace);
  expect(upload.stderr).toMatch(/^processed statements\/bundle\.csv: staging id \d+, statement \d+ completed$/m);
  expect(upload.code).toBe(0);
  expect(readFileSync(outputs, 'utf8')).toMatch(
    new RegExp(`^pds-path=${join(action, 'pds')}\nuploaded=1\nskipped=0\nfailed=0\nprocessed=1\n`),
  );
  // The whole action: what its steps run and nothing else (no sources, no tests).
  expect(readdirSync(action).sort()).toEqual(['action.yml', 'install.sh', 'pds', 'pds.mjs', 'upload.sh']);
  expect(nodeModules(action)).toEqual([]);
  expect(nodeModules(workspace)).toEqual([]);
  expect(existsSync(join(action, 'package.json'))).toBe(false);
});

it('the install step says which Node the runner lacks', async () => {
  const bin = mkdtempSync(join(tmpdir(), 'pds-old-node-'));
  // A Node that reports 20.18.0: the check runs it, and it fails as that version would.
  writeFileSync(join(bin, 'node'), '#!/bin/sh\n[ "$1" = "--version" ] && echo v20.18.0 && exit 0\nexit 1\n');
  chmodSync(join(bin, 'node'), 0o755);
  const install = await run('bash', [join(ROOT, 'action/install.sh')], {
    GITHUB_ACTION_PATH: ROOT,
    PATH: `${bin}:/usr/bin:/bin`,
  });
  expect(install).toEqual({
    code: 2,
    stdout:
      '::error title=pds upload::pds needs Node 20.18.1 or later; this runner has v20.18.0: add actions/setup-node with node-version: 20 (or later) before it\n',
    stderr: '',
  });
});

it('what the action build leaves out says so, exit 2, before any request', async () => {
  const bundle = join(ROOT, 'action/pds.mjs');
  const env = {
    PDS_API_URL: emulator.url,
    PDS_TOKEN: 'demo-org-token',
    PDS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'pds-config-')),
  };
  const jq = await run(process.execPath, [bundle, 'projects', 'ls', '--jq', '.'], env);
  expect(jq).toEqual({
    code: 2,
    stdout: '',
    stderr: "error: --jq is not in the GitHub Action's build of pds: install pds with npm to use it\n",
  });
  const mcp = await run(process.execPath, [bundle, 'mcp'], env);
  expect(mcp).toEqual({
    code: 2,
    stdout: '',
    stderr: "error: pds mcp is not in the GitHub Action's build of pds: install pds with npm to use it\n",
  });
  // The emulator (its sandbox needs just-bash from node_modules) is left out of the file whole.
  const emulatorStart = await run(process.execPath, [bundle, 'emulator', 'start', '--port', '0'], env);
  expect(emulatorStart).toEqual({
    code: 2,
    stdout: '',
    stderr: "error: pds emulator is not in the GitHub Action's build of pds: install pds with npm to use it\n",
  });
  expect(readFileSync(bundle, 'utf8')).not.toContain('sandboxYq');
  expect(emulator.requests).toEqual([]);
});

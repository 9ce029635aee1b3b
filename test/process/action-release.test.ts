// `npm run release:action` (scripts/release-action.js) in a clone of this repository: a commit on
// the `action` branch whose tree is the action alone (its sources and the bundle), its message
// naming the source commit, made without touching the clone's work tree, index or current branch;
// a second release of the same sources makes no new commit. The guide's recipes run from such a
// tree (guide-ci-recipes.test.ts).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { RELEASER } from '../helpers/release.js';
import { ROOT } from '../helpers/runner.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...RELEASER } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it('releases the action as the whole tree of a branch, touching nothing of the checkout', async () => {
  const clone = join(mkdtempSync(join(tmpdir(), 'pds-release-clone-')), 'pds');
  try {
    execFileSync('git', ['clone', '-q', ROOT, clone], { stdio: 'pipe' });
  } catch (error) {
    console.log(`not checked: ${ROOT} cannot be cloned (${String(error)})`);
    return;
  }
  // The build needs the dependencies; the clone borrows this checkout's.
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: clone, encoding: 'utf8' }).trim();
  const head = git('rev-parse', 'HEAD');
  const branch = git('symbolic-ref', 'HEAD');
  const status = git('status', '--porcelain', '--ignored');
  const index = git('ls-files', '--stage');

  const released = await run(process.execPath, ['scripts/release-action.js'], clone);
  expect(released.code, released.stderr).toBe(0);
  const commit = released.stdout.trim();
  expect(commit).toMatch(/^[0-9a-f]{40}$/);
  expect(released.stderr).toContain(`uses: <owner>/pds@${commit}\n`);
  expect(git('rev-parse', 'refs/heads/action')).toBe(commit);
  // Only the action's files, the scripts executable.
  expect(git('ls-tree', '-r', '--format=%(objectmode) %(path)', commit).split('\n')).toEqual([
    '100644 action.yml',
    '100755 install.sh',
    '100755 pds',
    '100644 pds.mjs',
    '100755 upload.sh',
  ]);
  // The sources as committed, the bundle built from them.
  for (const name of ['action.yml', 'install.sh', 'pds', 'upload.sh'])
    expect(git('rev-parse', `${commit}:${name}`)).toBe(git('rev-parse', `HEAD:action/${name}`));
  expect(git('cat-file', '-s', `${commit}:pds.mjs`)).toMatch(/^[1-9]\d{5}$/);
  expect(git('log', '-1', '--format=%s', commit)).toBe(`pds action built from ${head}`);
  // Nothing of the checkout moved: its branch, its commit, its index and its files.
  expect(git('symbolic-ref', 'HEAD')).toBe(branch);
  expect(git('rev-parse', 'HEAD')).toBe(head);
  expect(git('ls-files', '--stage')).toBe(index);
  expect(git('status', '--porcelain', '--ignored')).toBe(status);

  // The same sources again: the release stands, no new commit.
  const again = await run(process.execPath, ['scripts/release-action.js'], clone);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout.trim()).toBe(commit);
  expect(again.stderr).toContain('unchanged since the last release');
}, 120_000);

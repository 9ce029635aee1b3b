// The light action as a workflow pins it: the tree of the commit `npm run release:action`
// (scripts/release-action.js) makes, extracted to a directory. Made from this checkout's work tree
// (its sources as they are, committed or not) into a bare clone of the repository, so the
// checkout's own refs, index and files are never touched.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './runner.js';

/** Who makes a test's release commits (the machine's git may know no one). */
export const RELEASER = {
  GIT_AUTHOR_NAME: 'pds tests',
  GIT_AUTHOR_EMAIL: 'tests@pds.invalid',
  GIT_COMMITTER_NAME: 'pds tests',
  GIT_COMMITTER_EMAIL: 'tests@pds.invalid',
};

export interface ReleasedAction {
  /** The release's tree, extracted. */
  dir: string;
  commit: string;
  /** The bare repository the release branch is in. */
  gitDir: string;
}

/** The released action, or undefined (the reason printed) when this checkout is no git repository. */
export function releasedAction(branch = 'action'): ReleasedAction | undefined {
  const gitDir = join(mkdtempSync(join(tmpdir(), 'pds-release-repo-')), 'repo.git');
  try {
    execFileSync('git', ['clone', '-q', '--bare', ROOT, gitDir], { stdio: 'pipe' });
  } catch (error) {
    console.log(`the released action is not made: ${ROOT} cannot be cloned (${String(error)}); action/ is used`);
    return undefined;
  }
  const env = { ...process.env, ...RELEASER, GIT_DIR: gitDir, GIT_WORK_TREE: ROOT };
  const commit = execFileSync(
    process.execPath,
    [join(ROOT, 'scripts', 'release-action.js'), '--branch', branch, '--allow-dirty'],
    { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  ).trim();
  const dir = mkdtempSync(join(tmpdir(), 'pds-released-action-'));
  execFileSync('sh', ['-c', 'git --git-dir="$1" archive "$2" | tar -x -C "$3"', 'sh', gitDir, commit, dir]);
  return { dir, commit, gitDir };
}

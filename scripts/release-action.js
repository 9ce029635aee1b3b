// `npm run release:action [-- --branch <name>]`: the GitHub Action, published as the whole tree of
// a branch (default `action`): action/'s sources (action.yml, install.sh, upload.sh, the `pds`
// command) and the bundle built from this checkout's sources (action/pds.mjs), nothing else, so a
// workflow that pins it downloads about 0.8 MB rather than the repository. The commit is made with
// git's plumbing alone (blobs, a tree written from a temporary index, commit-tree, update-ref): the
// work tree, the index and the current branch are never touched. Its message names the source
// commit; its parent is the branch's previous release. It prints the commit to pin:
// `uses: <owner>/pds@<commit>`. The sources must be committed (the release names their commit),
// unless --allow-dirty says to release what the work tree holds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The action's files on the branch, from action/ (the bundle is built apart, below). */
const SOURCES = ['action.yml', 'install.sh', 'pds', 'upload.sh'];
/** What the bundle is built from: a change here not committed makes the release name the wrong commit. */
const BUILT_FROM = ['src', 'action', 'package.json', 'package-lock.json', 'scripts/build-action.js'];

const args = process.argv.slice(2);
const branchAt = args.indexOf('--branch');
const branch = branchAt >= 0 ? args[branchAt + 1] : 'action';
const allowDirty = args.includes('--allow-dirty');

function git(gitArgs, options = {}) {
  return execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8', ...options }).trim();
}

function fail(message) {
  process.stderr.write(`release-action: ${message}\n`);
  process.exit(1);
}

if (!branch || branch.startsWith('-')) fail('--branch needs a name');
try {
  git(['check-ref-format', '--branch', branch]);
} catch {
  fail(`'${branch}' is not a branch name git takes`);
}
const source = git(['rev-parse', 'HEAD']);
const dirty = git(['status', '--porcelain', '--untracked-files=no', '--', ...BUILT_FROM]);
if (dirty !== '' && !allowDirty)
  fail(`the action's sources have changes not committed (commit them, or --allow-dirty):\n${dirty}`);

// The bundle, built into a directory of its own: nothing of the work tree is written.
const out = mkdtempSync(join(tmpdir(), 'pds-action-release-'));
const index = join(out, 'index');
try {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-action.js'), '--out', out], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const files = [
    ...SOURCES.map((name) => ({ name, path: join(root, 'action', name) })),
    { name: 'pds.mjs', path: join(out, 'pds.mjs') },
  ];
  // A temporary index holds the branch's tree: the repository's own index is left as it is.
  const env = { ...process.env, GIT_INDEX_FILE: index };
  for (const { name, path } of files) {
    const blob = git(['hash-object', '-w', '--', path]);
    const mode = statSync(path).mode & 0o111 ? '100755' : '100644';
    git(['update-index', '--add', '--cacheinfo', `${mode},${blob},${name}`], { env });
  }
  const tree = git(['write-tree'], { env });
  const ref = `refs/heads/${branch}`;
  let previous;
  try {
    previous = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    previous = undefined;
  }
  // The same tree as the last release: that commit stands.
  if (previous && git(['rev-parse', `${previous}^{tree}`]) === tree) {
    report(previous, 'unchanged since the last release');
  } else {
    const subject = `pds action built from ${source}${dirty === '' ? '' : ' (with changes not committed)'}`;
    const body = `The GitHub Action alone: action/ of ${source} and its bundle (scripts/build-action.js).`;
    const commit = git(['commit-tree', tree, ...(previous ? ['-p', previous] : []), '-m', subject, '-m', body]);
    git(['update-ref', '-m', `release-action: ${subject}`, ref, commit, previous ?? '']);
    report(commit, `${branch} now holds it`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

function report(commit, note) {
  const size = git(['ls-tree', '-r', '-l', commit])
    .split('\n')
    .reduce((sum, line) => sum + Number(line.split(/\s+/)[3] ?? 0), 0);
  process.stderr.write(
    `${note} (${(size / 1024).toFixed(0)} KiB): push it with \`git push origin ${branch}\`, then pin it in a workflow:\n  uses: <owner>/pds@${commit}\n`,
  );
  process.stdout.write(`${commit}\n`);
}

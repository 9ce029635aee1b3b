// The program of an exec worker thread. It loads just-bash and yaml, waits for one ExecRequest
// (./protocol.ts), runs its commands over an in-memory copy of the workspace, posting each result,
// then says it is done; the server then ends the thread.
//
// It is source text, started with `new Worker(source, { eval: true })`, because a worker needs
// runnable JavaScript: a .ts file does not run in a Node 20 worker under vitest, and the CLI's
// bundle has no stable file path for a separate worker script. The text runs as CommonJS and loads
// its modules by the absolute paths it is given (WorkerSetup), so just-bash loads in exec workers
// only, never on the CLI's or the server's start-up path.
//
// The file system is just-bash's InMemoryFs (nothing of the host is reachable), filled on demand:
// a workspace directory's entries are added when a command first touches the directory, and a
// file's text is produced when first read. Filling 100,000 files up front (--scale 100) would cost
// seconds per request; `ls artists` should cost what listing one directory costs. Removing,
// moving or copying a directory fills its whole subtree first, so those behave as on a full tree.
import { yqSource } from './yq.js';

export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData: setup } = require('node:worker_threads');
const { Bash, InMemoryFs, defineCommand, getCommandNames } = require(setup.justBash);
${yqSource()}
// yq as mikefarah's yq reads several files and eval-all (./yq.ts), over just-bash's own.
const CUSTOM_COMMANDS = [defineCommand('yq', (args, ctx) => yq.runYq(args, ctx, yq))];
// sqlite3 needs a worker of its own, which just-bash cannot start from here: it is left out.
const COMMANDS = getCommandNames().filter((name) => name !== 'sqlite3');
const { stringify } = require(setup.yaml);

parentPort.once('message', async (request) => {
  const { workspace } = request;
  const contentOf = (i) => {
    const start = i === 0 ? 0 : workspace.ends[i - 1];
    const text = Buffer.from(workspace.contents, start, workspace.ends[i] - start).toString('utf8');
    return workspace.yaml[i] === 1 ? stringify(JSON.parse(text), request.yamlOptions) : text;
  };

  // Directory path -> its entries: [path, file index] for files, [path, -1] for directories.
  const tree = new Map([['/', []]]);
  workspace.paths.split('\n').forEach((path, index) => {
    let dir = '/';
    const parts = path.slice(1).split('/');
    parts.forEach((part, k) => {
      const child = dir === '/' ? '/' + part : dir + '/' + part;
      if (k === parts.length - 1) tree.get(dir).push([child, index]);
      else if (!tree.has(child)) {
        tree.get(dir).push([child, -1]);
        tree.set(child, []);
      }
      dir = child;
    });
  });

  const filled = new Set();
  let filling = false;
  const raw = InMemoryFs.prototype;
  const fill = (fs, dir) => {
    if (filled.has(dir) || !tree.has(dir)) return;
    filled.add(dir);
    filling = true;
    try {
      for (const [path, index] of tree.get(dir)) {
        if (index < 0) raw.mkdirSync.call(fs, path, { recursive: true });
        else raw.writeFileLazy.call(fs, path, () => contentOf(index));
      }
    } finally {
      filling = false;
    }
  };
  // The directories on the way to a path, and the path itself when it is one.
  const reveal = (fs, path) => {
    if (filling || typeof path !== 'string' || !path.startsWith('/')) return;
    fill(fs, '/');
    let dir = '';
    for (const part of path.split('/')) {
      if (part === '') continue;
      dir += '/' + part;
      if (!tree.has(dir)) return;
      fill(fs, dir);
    }
  };
  const revealTree = (fs, path) => {
    reveal(fs, path);
    if (typeof path !== 'string') return;
    const root = path.replace(/\/+$/, '') || '/';
    for (const dir of tree.keys()) {
      if (root === '/' || dir === root || dir.startsWith(root + '/')) fill(fs, dir);
    }
  };

  class WorkspaceFs extends InMemoryFs {
    getAllPaths() {
      for (const dir of tree.keys()) fill(this, dir);
      return super.getAllPaths();
    }
  }
  const wholeTree = new Set(['rm', 'mv', 'cp', 'symlink', 'link']);
  for (const name of Object.getOwnPropertyNames(raw)) {
    const method = Object.getOwnPropertyDescriptor(raw, name).value;
    if (name === 'constructor' || name === 'getAllPaths' || typeof method !== 'function') continue;
    const before = wholeTree.has(name) ? revealTree : reveal;
    WorkspaceFs.prototype[name] = function (first, second, ...rest) {
      before(this, first);
      reveal(this, second);
      return method.call(this, first, second, ...rest);
    };
  }
  // Only these files exist: just-bash's in-memory file system never reads or writes the host's.
  // The cap counts the workspace's files as they are read, so they come on top of what commands
  // may write (YAML takes more room than the JSON the workspace arrives as).
  const fs = new WorkspaceFs({}, { maxTotalBytes: request.fileSystemBytes + 2 * workspace.contents.byteLength });

  for (const command of request.commands) {
    const budget = request.deadline - Date.now();
    // Out of time: the server reports this command and the later ones as timed out.
    if (budget <= 0) break;
    // A shell per command over the one shared file system: just-bash fixes its deadline when it
    // is built, and each command may use only what is left of the request's time. Shell state
    // (variables, cwd) does not outlive a command in just-bash anyway; files do.
    const bash = new Bash({
      fs,
      cwd: '/',
      commands: COMMANDS,
      customCommands: CUSTOM_COMMANDS,
      executionLimitProfile: 'hardened',
      executionLimits: { maxExecutionTimeMs: budget },
    });
    const { stdout, stderr, exitCode } = await bash.exec(command);
    parentPort.postMessage({ result: { command, stdout, stderr, exitCode } });
  }
  parentPort.postMessage({ done: true });
});
`;

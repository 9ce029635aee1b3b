#!/usr/bin/env node
// CommonJS (bin/package.json), not an ES module like the rest of pds: Node starts a CommonJS
// program without its ES module loader, so `pds --version`, answered here from package.json before
// any of the bundle loads, costs no more than a bare `node -e 0`. Everything else imports the bundle.
const nodeModule = require('node:module');

// Node 22.1+ can keep the compiled code of pds's modules on disk: every run after the first skips
// compiling them. The cache lives in the user's cache directory; a Node without it runs the same.
if (typeof nodeModule.enableCompileCache === 'function') {
  const { homedir } = require('node:os');
  const { join } = require('node:path');
  const env = process.env;
  const base =
    process.platform === 'win32'
      ? env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : env.XDG_CACHE_HOME || join(homedir(), '.cache');
  nodeModule.enableCompileCache(join(base, 'pds', 'compile-cache'));
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/cli.js')
    .then(({ main }) => main(args))
    .then((code) => {
      process.exitCode = code;
    });
}

#!/usr/bin/env node
// CommonJS (bin/package.json) like the bundle it loads (dist/cli.cjs, see scripts/build.js): Node
// runs CommonJS without starting its ES module loader. `pds --version` is answered here, from
// package.json, before any of the bundle loads.
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
  require('../dist/cli.cjs')
    .main(args)
    .then((code) => {
      process.exitCode = code;
    });
}

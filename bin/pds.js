#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ can keep the compiled code of pds's modules on disk: every run after the first skips
// compiling them. The cache lives in the user's cache directory; a Node without it runs the same.
if (typeof module.enableCompileCache === 'function') {
  const { homedir } = await import('node:os');
  const { join } = await import('node:path');
  const env = process.env;
  const base =
    process.platform === 'win32'
      ? env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : env.XDG_CACHE_HOME || join(homedir(), '.cache');
  module.enableCompileCache(join(base, 'pds', 'compile-cache'));
}

// `pds --version` is answered here, before any of the bundle is loaded: the cheapest answer a Node
// program can give (commander answers it the same way when main() is called with it).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${module.createRequire(import.meta.url)('../package.json').version}\n`);
} else {
  const { main } = await import('../dist/cli.js');
  main(args).then((code) => {
    process.exitCode = code;
  });
}

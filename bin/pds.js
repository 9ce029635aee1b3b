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

const { main } = await import('../dist/cli.js');
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

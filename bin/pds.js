#!/usr/bin/env node
// CommonJS (bin/package.json) like the bundle it loads (dist/cli.cjs, see scripts/build.js): Node
// runs CommonJS without starting its ES module loader. `pds --version` is answered here, from
// package.json, before any of the bundle loads.
const nodeModule = require('node:module');
const { dirname, join } = require('node:path');

/** Where compiled code is kept between runs: the user's cache directory; undefined without a home. */
function compileCacheDir() {
  const env = process.env;
  try {
    const home = () => require('node:os').homedir();
    const base =
      process.platform === 'win32'
        ? env.LOCALAPPDATA || join(home(), 'AppData', 'Local')
        : process.platform === 'darwin'
          ? join(home(), 'Library', 'Caches')
          : env.XDG_CACHE_HOME || join(home(), '.cache');
    return join(base, 'pds', 'compile-cache');
  } catch {
    return undefined;
  }
}

/**
 * dist/cli.cjs, compiled with V8's code cache of an earlier run: compiling the bundle is some 11 ms
 * of every run, and the cache skips that, on every Node (20 has no compile cache of its own). The
 * cache is made once the first run is over, so it holds the functions that run used, not only the
 * top level (v8-compile-cache keeps that much, and its scripts cannot import()). Its name carries
 * the bundle's build id (V8 itself only compares the source's length), the V8 version and the CPU;
 * a cache V8 refuses is made again. Any failure to read or write it costs only the speed.
 */
function requireWithCodeCache(file) {
  const fs = require('node:fs');
  const vm = require('node:vm');
  const source = fs.readFileSync(file, 'utf8');
  const buildId = /\/\/ pds build ([\w-]+)\s*$/.exec(source.slice(-64))?.[1];
  const dir = buildId && compileCacheDir();
  if (!dir) return require(file);
  const cacheFile = join(dir, `cli-${buildId}-v8-${process.versions.v8}-${process.arch}.bin`);
  const cachedData = readOwnFile(fs, cacheFile);
  // The wrapper Node puts around every CommonJS file, on the source's first line.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const partial = `${cacheFile}.${process.pid}`;
        fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(partial, cacheFile);
        // Caches of other builds, and what a run killed while writing left.
        for (const old of fs.readdirSync(dir))
          if (/^cli-.*\.bin(\.\d+)?$/.test(old) && join(dir, old) !== cacheFile)
            fs.rmSync(join(dir, old), { force: true });
      } catch {
        // A read-only or full disk: the next run compiles again.
      }
    });
  }
  const cli = new nodeModule(file, module);
  cli.filename = file;
  require.cache[file] = cli;
  script.runInThisContext()(cli.exports, nodeModule.createRequire(file), cli, file, dirname(file));
  cli.loaded = true;
  return cli.exports;
}

/**
 * The file's bytes if this user owns it and no one else may write it (a cache is code pds runs: one
 * that another user could have put there, say under a shared XDG_CACHE_HOME, is not used, and
 * the run writes its own in its place); else undefined. Checked on the open file, not the name.
 */
function readOwnFile(fs, file) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const stat = fs.fstatSync(fd);
    const ours = typeof process.getuid !== 'function' || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
    return ours ? fs.readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function loadCli() {
  const file = join(__dirname, '..', 'dist', 'cli.cjs');
  // A checkout builds dist/ with `npm run build` (npm install no longer does): say so, not ENOENT.
  if (!require('node:fs').existsSync(file)) return undefined;
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return require(file);
  // Node 22.1+ keeps the compiled code of the other files a verb loads (dist/chunks/) too.
  const dir = typeof nodeModule.enableCompileCache === 'function' && compileCacheDir();
  if (dir) nodeModule.enableCompileCache(dir);
  return requireWithCodeCache(file);
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  const cli = loadCli();
  if (cli === undefined) {
    process.stderr.write('error: pds is not built here (no dist/cli.cjs)\n  run `npm run build` in the checkout\n');
    process.exitCode = 1;
  } else {
    cli.main(args).then((code) => {
      process.exitCode = code;
    });
  }
}

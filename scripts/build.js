// Bundles the CLI into dist/ in two passes. esbuild compiles, bundles and minifies with code
// splitting: each verb's code, and every dependency a verb alone needs, in chunks loaded by the
// dynamic imports in src/commands. Its chunks follow which verbs share a module, so the everyday
// command line (`pds projects ls`) would load some thirty small files. rolldown then joins what
// such a run needs into dist/cli.cjs (each file loaded costs Node's module loader about half a
// millisecond) and writes every chunk as CommonJS (.cjs): Node loads CommonJS without starting its
// ES module loader, a few milliseconds of every run. Type-checking is `npm run typecheck` (tsc),
// not part of the bundle.
import { build } from 'esbuild';
import { rolldown } from 'rolldown';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyJustBash } from './just-bash-copy.js';

const dist = fileURLToPath(new URL('../dist', import.meta.url));

const shared = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  logLevel: 'warning',
};

// The MCP SDK (for `pds mcp`) is bundled alone into dist/mcp-sdk.cjs, with its own copy of zod: in
// the split bundle it would share zod's core modules with the commands' schemas, and every command
// would load all of that core at start-up. The server's chunk requires it from dist/chunks/.
const mcpSdkApart = {
  name: 'mcp-sdk-apart',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      args.importer.endsWith('/src/commands/mcp/serve.ts') ? { path: '../mcp-sdk.cjs', external: true } : undefined,
    );
  },
};

// commander requires node:child_process when it loads, for subcommands that are executables (pds
// has none): ~5 ms of every run. It gets the module on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(bundle) {
    bundle.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-child-process' }
        : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

/**
 * What an everyday run loads: the entry, the program (commander and the definitions), the context
 * and option check every verb runs with, and the verbs that list. dist/cli.cjs holds these and all
 * they import; other verbs load it and chunks of their own. (`pds --version` is answered by
 * bin/pds.js and loads none of it.)
 */
const EVERYDAY = [
  'src/cli.ts',
  'src/program.ts',
  'src/lib/context.ts',
  'src/lib/verbs/check.ts',
  'src/commands/projects/ls.ts',
  'src/commands/catalog/ls.ts',
];

/** Pass 1: esbuild, split per dynamic import, into `stage`; returns the chunks of EVERYDAY's modules. */
async function compile(stage) {
  const { metafile } = await build({
    ...shared,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: stage,
    splitting: true,
    metafile: true,
    chunkNames: 'chunks/[name]-[hash]',
    // The sandbox's worker requires just-bash by path, from the copy in dist/just-bash/ (see
    // ./just-bash-copy.js). jq-web loads its jq.wasm from beside its own file.
    external: ['just-bash', 'jq-web'],
    plugins: [mcpSdkApart, lazyChildProcess],
  });
  const chunks = Object.entries(metafile.outputs).filter(([, output]) => EVERYDAY.includes(output.entryPoint));
  if (chunks.length !== EVERYDAY.length)
    throw new Error(`build: each of ${EVERYDAY.join(', ')} must be imported dynamically, to have a chunk`);
  return chunks.map(([file]) => join(process.cwd(), file));
}

// Pass 2 reads esbuild's chunks with their source maps, so dist/'s maps still lead to src/.
const withSourceMaps = {
  name: 'with-source-maps',
  async load(id) {
    if (!id.endsWith('.js')) return null;
    const code = await readFile(id, 'utf8');
    const map = await readFile(`${id}.map`, 'utf8').catch(() => undefined);
    return map === undefined ? code : { code, map };
  },
};

/** Pass 2: rolldown joins the everyday chunks and what they import into dist/cli.cjs, and writes dist/. */
async function joinEveryday(stage, everyday) {
  const bundle = await rolldown({
    input: { cli: join(stage, 'cli.js') },
    platform: 'node',
    // Everything outside the staged chunks stays as esbuild left it (the MCP SDK's bundle too).
    external: (id) => id === '../mcp-sdk.cjs' || (!id.startsWith('.') && !id.startsWith(stage)),
    // The entry chunk may export more than src/cli.ts does: so the group can be dist/cli.cjs itself,
    // not a chunk behind a facade.
    preserveEntrySignatures: 'allow-extension',
    // esbuild has already dropped what is unused.
    treeshake: false,
    plugins: [withSourceMaps],
  });
  try {
    await bundle.write({
      dir: dist,
      // esbuild's chunks are ES modules that call require() where bundled CommonJS did: written as
      // CommonJS, they run with Node's own require.
      format: 'cjs',
      // import() becomes require(): bin/pds.js compiles dist/cli.cjs itself, with a code cache (see
      // there), and a script compiled so cannot import() on Node 20.
      dynamicImportInCjs: false,
      entryFileNames: '[name].cjs',
      chunkFileNames: 'chunks/[name]-[hash].cjs',
      sourcemap: true,
      minify: true,
      // The group takes the chunks of EVERYDAY and, with them, every chunk they import.
      codeSplitting: { groups: [{ name: 'cli', test: (id) => everyday.includes(id) }] },
    });
  } finally {
    await bundle.close();
  }
}

/**
 * Ends dist/cli.cjs with its build id, a hash of its text: bin/pds.js names its code cache by it.
 * And checks the file calls no import(), which bin/pds.js's compiling of it does not allow.
 */
async function markBuild(file) {
  const text = await readFile(file, 'utf8');
  if (/\bimport\(/.test(text)) throw new Error(`build: ${file} must not call import() (see dynamicImportInCjs)`);
  const id = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  await writeFile(file, `${text}\n// pds build ${id}\n`);
}

const stage = await mkdtemp(join(tmpdir(), 'pds-build-'));
try {
  await rm(dist, { recursive: true, force: true });
  await build({
    ...shared,
    format: 'cjs',
    entryPoints: { 'mcp-sdk': 'src/commands/mcp/sdk.ts' },
    outExtension: { '.js': '.cjs' },
    outdir: dist,
  });
  await joinEveryday(stage, await compile(stage));
  await markBuild(join(dist, 'cli.cjs'));
  copyJustBash(join(dist, 'just-bash'));
} finally {
  await rm(stage, { recursive: true, force: true });
}

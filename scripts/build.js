// Bundles the CLI into dist/ with esbuild. Code splitting keeps each command's dependencies in
// its own chunk, loaded by the dynamic imports in src/commands: `pds --version` parses only the
// entry chunk. Type-checking is `npm run typecheck` (tsc), not part of the bundle.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

const shared = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  // Some bundled CommonJS dependencies call require(); give the ESM output one.
  banner: { js: "import { createRequire as __pdsCreateRequire } from 'node:module'; const require = __pdsCreateRequire(import.meta.url);" },
  logLevel: 'warning',
};

// The MCP SDK (for `pds mcp`) is bundled alone into dist/mcp-sdk.js, with its own copy of zod: in
// the split bundle it would share zod's core modules with the commands' schemas, and every command
// would load all of that core at start-up. The server's chunk imports it from dist/chunks/.
const mcpSdkApart = {
  name: 'mcp-sdk-apart',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      args.importer.endsWith('/src/commands/mcp/serve.ts') ? { path: '../mcp-sdk.js', external: true } : undefined,
    );
  },
};

// commander requires node:child_process when it loads, for subcommands that are executables (pds
// has none): ~5 ms of every run. It gets the module on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(bundle) {
    bundle.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({ ...shared, entryPoints: { 'mcp-sdk': 'src/commands/mcp/sdk.ts' }, outdir: 'dist' });
await build({
  ...shared,
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // just-bash carries wasm and vendored files; it runs from node_modules, in the emulator's worker.
  // jq-web loads its jq.wasm from beside its own file.
  external: ['just-bash', 'jq-web'],
  plugins: [mcpSdkApart, lazyChildProcess],
});

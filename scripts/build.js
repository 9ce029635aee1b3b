// Bundles the CLI into dist/ with esbuild. Code splitting keeps each command's dependencies in
// its own chunk, loaded by the dynamic imports in src/commands: `pds --version` parses only the
// entry chunk. Type-checking is `npm run typecheck` (tsc), not part of the bundle.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // just-bash carries wasm and vendored files; it runs from node_modules, in the emulator's worker.
  external: ['just-bash', '@modelcontextprotocol/sdk'],
  // Some bundled CommonJS dependencies call require(); give the ESM output one.
  banner: { js: "import { createRequire as __pdsCreateRequire } from 'node:module'; const require = __pdsCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

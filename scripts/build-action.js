// Builds action/pds.mjs, all of pds that an upload from a GitHub workflow runs, with the runtime
// dependencies it loads, in one file, so the action's install step runs nothing but a Node version
// check (no npm ci, no node_modules). The rest of action/ (action.yml, the step scripts install.sh
// and upload.sh, the `pds` command) is source, kept as it is. The bundle is a build output, not
// committed on main (.gitignore): `npm run build` makes it for the tests, and `npm run
// release:action` (scripts/release-action.js) commits action/ with it as the whole tree of the
// `action` branch, which workflows pin (docs/guide.md). What a CI upload never loads stays out and
// says so when asked for (src/lib/ci/action-build.ts): the keychain (a native addon), jq (wasm),
// the emulator (its sandbox runs the copy of just-bash in dist/), the MCP server and the browser
// sign-in. The output depends only on the sources and the locked dependencies: `--check` rebuilds
// it in memory and fails when it differs from action/pds.mjs; `--out <dir>` writes it there.
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outAt = process.argv.indexOf('--out');
const target = outAt > 0 ? join(resolve(process.argv[outAt + 1] ?? '.'), 'pds.mjs') : join(root, 'action', 'pds.mjs');

/** src/lib/ci/action-build.ts with its flag set. */
const actionFlag = {
  name: 'action-flag',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]src[\\/]lib[\\/]ci[\\/]action-build\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const flagged = source.replace('ACTION_BUILD: boolean = false', 'ACTION_BUILD: boolean = true');
      if (flagged === source) throw new Error('build-action: ACTION_BUILD not found in action-build.ts');
      return { contents: flagged, loader: 'ts' };
    });
  },
};

/** Modules left out: an import of one fails as a missing module would (each caller checks the flag first). */
const leftOut = {
  name: 'left-out',
  setup(bundle) {
    bundle.onResolve({ filter: /^open$/ }, () => ({ path: 'open', namespace: 'left-out' }));
    // The xlsx and Parquet writers (a CI upload writes no spreadsheet), over 1 MB between them.
    bundle.onResolve({ filter: /^(exceljs|hyparquet-writer)$/ }, (args) => ({
      path: args.path,
      namespace: 'left-out',
    }));
    bundle.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      /[\\/]commands[\\/]mcp[\\/]serve\.ts$/.test(args.importer)
        ? { path: 'mcp-sdk', namespace: 'left-out' }
        : undefined,
    );
    // The emulator, which cannot start without the sandbox's just-bash: `pds emulator start` says
    // so (requireFullBuild) before it imports these.
    bundle.onResolve({ filter: /^\.\.\/\.\.\/emulator\/(server|cli)\.js$/ }, (args) =>
      /[\\/]commands[\\/]emulator[\\/]start\.ts$/.test(args.importer)
        ? { path: args.path.slice('../../'.length), namespace: 'left-out' }
        : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in the GitHub Action's build of pds`)});`,
      loader: 'js',
    }));
  },
};

async function bundleText() {
  const result = await build({
    stdin: {
      contents: "import { main } from './src/cli.ts';\nprocess.exitCode = await main(process.argv.slice(2));\n",
      resolveDir: root,
      sourcefile: 'action-entry.js',
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'eof',
    write: false,
    // Bundled CommonJS calls require(): an ES module has none of its own.
    banner: {
      js: "// pds for the GitHub Action, built by scripts/build-action.js: do not edit.\nimport { createRequire as __pdsRequire } from 'node:module';\nconst require = __pdsRequire(import.meta.url);",
    },
    plugins: [actionFlag, leftOut],
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

const text = await bundleText();
const name = relative(root, target);
if (process.argv.includes('--check')) {
  if ((await readFile(target, 'utf8').catch(() => '')) !== text) {
    process.stderr.write(`${name} is not the build of these sources: run \`npm run build:action\`\n`);
    process.exitCode = 1;
  }
} else if ((await readFile(target, 'utf8').catch(() => '')) !== text) {
  await writeFile(target, text);
  process.stderr.write(`${name}: ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB\n`);
}

// Builds the action/ directory, the GitHub Action whole and alone (a workflow can use it from a
// branch whose tree is this directory: docs/guide.md): action/pds.mjs, all of pds that an upload
// from a GitHub workflow runs, with the runtime dependencies it loads, in one committed file, so the
// action's install step runs nothing but a Node version check (no npm ci, no node_modules); and
// action/action.yml, the repository's action.yml with its steps' scripts found beside it. The step
// scripts (install.sh, upload.sh) and the `pds` command live in action/ as they are. `npm run
// build` runs this too. What a CI upload never loads stays out and says
// so when asked for (src/lib/ci/action-build.ts): the keychain (a native addon), jq (wasm), the
// emulator (its sandbox runs the copy of just-bash in dist/), the MCP server and the browser sign-in. The output depends only on the
// sources and the locked dependencies: `--check` rebuilds it in memory and fails when it differs
// from the committed file (test/process/action-bundle.test.ts runs it).
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = fileURLToPath(new URL('../action/pds.mjs', import.meta.url));
const actionYml = fileURLToPath(new URL('../action.yml', import.meta.url));
const actionYmlTarget = fileURLToPath(new URL('../action/action.yml', import.meta.url));

/** The repository's action.yml for the action/ directory alone: its scripts are beside it. */
async function actionYmlText() {
  const source = await readFile(actionYml, 'utf8');
  const steps = source.replaceAll('"$GITHUB_ACTION_PATH/action/', '"$GITHUB_ACTION_PATH/');
  if (steps === source) throw new Error('build-action: no step of action.yml runs a script of action/');
  return `# Written by scripts/build-action.js from the repository's action.yml: do not edit.\n${steps}`;
}

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

const outputs = [
  [target, await bundleText()],
  [actionYmlTarget, await actionYmlText()],
];
for (const [path, text] of outputs) {
  const name = relative(root, path);
  if (process.argv.includes('--check')) {
    const committed = await readFile(path, 'utf8').catch(() => '');
    if (committed !== text) {
      process.stderr.write(`${name} is not the build of these sources: run \`npm run build:action\` and commit it\n`);
      process.exitCode = 1;
    }
  } else if ((await readFile(path, 'utf8').catch(() => '')) !== text) {
    await writeFile(path, text);
    process.stderr.write(`${name}: ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB\n`);
  }
}

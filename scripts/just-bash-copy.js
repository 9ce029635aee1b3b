// The emulator's sandbox runs just-bash, but pds does not depend on the just-bash package: npm
// would then resolve just-bash's optional dependencies node-liblzma and @mongodb-js/zstd, native xz
// and zstd codecs with install scripts, and `npm install -g` of pds would name them (npm 11 lists
// every install script a global install runs unapproved; a dependency cannot leave out another's
// optional dependencies, and npm reads a shipped npm-shrinkwrap.json only for a package the
// registry says has one, never for a tarball installed by path). So just-bash is a devDependency,
// and the build copies its prebuilt CommonJS bundle (dist/bundle/index.cjs, one file in which
// just-bash has bundled most of its own dependencies), unchanged, with its licence, into
// dist/just-bash/. pds lists as its own dependencies the packages that file requires, at the
// ranges just-bash gives them, except LEFT_OUT; the build fails when the two disagree (after an
// update of just-bash, say).
import { builtinModules } from 'node:module';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.js';

const justBash = join(root, 'node_modules', 'just-bash');

/** Packages just-bash's bundle requires that pds does not install, and why the sandbox does without. */
export const LEFT_OUT = {
  'node-liblzma': "xz archives in tar: a native addon with an install script (tar -J fails with just-bash's message)",
  '@mongodb-js/zstd':
    "zstd archives in tar: a native addon with an install script (tar --zstd fails with just-bash's message)",
  'sql.js': 'the sqlite3 command only, which the sandbox leaves out',
};

/** The packages (not Node's own modules) that a CommonJS bundle's text requires or imports. */
export function requiredPackages(source) {
  const specifiers = source.matchAll(/\b(?:require|import)\(\s*["'`]([^"'`]+)["'`]\s*\)/g);
  const names = [...specifiers]
    .map((match) => match[1])
    .filter((name) => !name.startsWith('node:') && !builtinModules.includes(name) && !name.startsWith('.'))
    .map((name) =>
      name
        .split('/')
        .slice(0, name.startsWith('@') ? 2 : 1)
        .join('/'),
    );
  return [...new Set(names)].sort();
}

/** How pds's dependencies differ from what the copy needs: one line per difference. */
export function dependencyDifferences(source, justBashManifest, pdsManifest) {
  const declared = { ...justBashManifest.dependencies, ...justBashManifest.optionalDependencies };
  const own = pdsManifest.dependencies ?? {};
  const differences = [];
  for (const name of requiredPackages(source)) {
    if (name in LEFT_OUT) {
      if (name in own) differences.push(`${name} is left out of the sandbox but is a dependency of pds`);
    } else if (!(name in own)) {
      differences.push(`just-bash requires ${name}: add it to pds's dependencies at ${declared[name]}`);
    } else if (own[name] !== declared[name]) {
      differences.push(`just-bash requires ${name}@${declared[name]}, pds's dependencies say ${own[name]}`);
    }
  }
  return differences;
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** just-bash's CommonJS bundle in node_modules, the file the build copies. */
export function bundlePath() {
  return join(justBash, readJson(join(justBash, 'package.json')).exports['.'].require.default);
}

/** Copies just-bash's bundle into `dir` (dist/just-bash/), after checking pds's dependencies against it. */
export function copyJustBash(dir) {
  const manifest = readJson(join(justBash, 'package.json'));
  const bundle = bundlePath();
  const differences = dependencyDifferences(
    readFileSync(bundle, 'utf8'),
    manifest,
    readJson(join(root, 'package.json')),
  );
  if (differences.length > 0) throw new Error(`build: the copy of just-bash:\n  ${differences.join('\n  ')}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(bundle, join(dir, 'index.cjs'));
  copyFileSync(join(justBash, 'LICENSE'), join(dir, 'LICENSE'));
  writeFileSync(
    join(dir, 'NOTICE'),
    `index.cjs is just-bash ${manifest.version} (${manifest.homepage}), its file ` +
      `${manifest.exports['.'].require.default} unchanged, under the ${manifest.license} licence in ./LICENSE.\n`,
  );
}

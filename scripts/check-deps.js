// `node scripts/check-deps.js` (run by .ci/run): fails when a dependency of package.json is used
// nowhere. A package counts as used when its name is a quoted module specifier ('name' or
// 'name/…': import, import(), require, require.resolve) in bin/, src/, scripts/ or test/, when a
// script of package.json or .ci/run runs one of its commands, when the build's copy of just-bash
// requires it (./just-bash-copy.js), or, for @types/x, when x is used (@types/node: always).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundlePath, requiredPackages } from './just-bash-copy.js';
import { root } from './lib.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|js|mjs|cjs)$/.test(entry.name)) yield path;
  }
}

const sources = ['bin', 'src', 'scripts', 'test']
  .map((dir) => join(root, dir))
  .filter(existsSync)
  .flatMap((dir) => [...sourceFiles(dir)].map((file) => readFileSync(file, 'utf8')));
sources.push(
  ...['vitest.config.ts']
    .map((file) => join(root, file))
    .filter(existsSync)
    .map((file) => readFileSync(file, 'utf8')),
);
const commandLines = [...Object.values(pkg.scripts ?? {}), readFileSync(join(root, '.ci', 'run'), 'utf8')].join('\n');

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const imported = (name) => {
  const specifier = new RegExp(`['"\`]${escapeRegExp(name)}(/[^'"\`]*)?['"\`]`);
  return sources.some((text) => specifier.test(text));
};
const commandsOf = (name) => {
  const file = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return [];
  const { bin } = JSON.parse(readFileSync(file, 'utf8'));
  return typeof bin === 'string' ? [name.replace(/^@[^/]+\//, '')] : Object.keys(bin ?? {});
};
const runs = (name) =>
  commandsOf(name).some((command) =>
    new RegExp(`(^|[\\s;&|(])${escapeRegExp(command)}(\\s|$)`, 'm').test(commandLines),
  );

const forJustBash = new Set(requiredPackages(readFileSync(bundlePath(), 'utf8')));

function used(name) {
  const typed = /^@types\/(.+)$/.exec(name);
  if (typed) {
    const target = typed[1].includes('__') ? `@${typed[1].replace('__', '/')}` : typed[1];
    return target === 'node' || imported(target);
  }
  return imported(name) || runs(name) || forJustBash.has(name);
}

const unused = dependencies.filter((name) => !used(name));
if (unused.length > 0) {
  process.stderr.write(`package.json lists dependencies nothing uses: ${unused.join(', ')}\n`);
  process.stderr.write('remove them (npm uninstall <name>), or use them\n');
  process.exit(1);
}
process.stdout.write(`every one of the ${dependencies.length} dependencies is used\n`);

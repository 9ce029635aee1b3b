// What a good run loads, read from the built bundle: dist/cli.cjs and the files it requires at
// the top level. import() is written as a require() inside a promise (scripts/build.js), so what
// loads on demand is told apart from what loads with the entry. zod (which only words a bad
// answer, and checks the agents' tools), the MCP SDK, jq and the sandbox's shell stay off that path.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = new URL('../../dist/', import.meta.url).pathname;
const ON_DEMAND = /Promise\.resolve\(\)\.then\(\(\)=>require\("[^"]+"\)\)/g;

/** The files loaded with `file`, and the packages they require, following top-level requires. */
function loadedWith(file: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (path: string) => {
    if (files.has(path)) return;
    files.add(path);
    const code = readFileSync(path, 'utf8').replace(ON_DEMAND, '');
    for (const [, target = ''] of code.matchAll(/\brequire\("([^"]+)"\)/g)) {
      if (target.startsWith('.')) visit(resolve(dirname(path), target));
      else packages.add(target);
    }
  };
  visit(file);
  return { files: [...files], packages: [...packages] };
}

/** Strings their minified code keeps, which mark where each heavy module landed. */
const MARKERS = {
  zod: '$ZodObject',
  'the MCP SDK': 'notifications/initialized',
};

/** Every file of the bundle but the entry. */
const others = () => [
  ...readdirSync(`${dist}chunks`).map((name) => `${dist}chunks/${name}`),
  ...readdirSync(dist)
    .filter((name) => name.endsWith('.cjs') && name !== 'cli.cjs')
    .map((name) => `${dist}${name}`),
];

describe('the path of a good run, in the built bundle', () => {
  it('holds no zod, no MCP SDK, and requires no heavy package', () => {
    const { files, packages } = loadedWith(`${dist}cli.cjs`);
    expect(files.length).toBeGreaterThan(0);
    for (const [name, marker] of Object.entries(MARKERS)) {
      // The marker does find the module: in a chunk loaded on demand.
      expect({ name, found: others().some((chunk) => readFileSync(chunk, 'utf8').includes(marker)) }).toEqual({
        name,
        found: true,
      });
      expect({ name, in: files.filter((file) => readFileSync(file, 'utf8').includes(marker)) }).toEqual({
        name,
        in: [],
      });
    }
    // Packages left outside the bundle load from node_modules: none of them with the entry.
    expect(packages.filter((name) => !name.startsWith('node:') && name !== 'url')).toEqual([]);
  });

  it('tells what loads on demand apart (the test above would pass on a bundle it misreads)', () => {
    const entry = readFileSync(`${dist}cli.cjs`, 'utf8');
    expect(entry.match(ON_DEMAND)?.length ?? 0).toBeGreaterThan(10);
  });
});

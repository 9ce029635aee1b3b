// bin/pds.js keeps V8's code cache of dist/cli.cjs in the user's cache directory, made by the first
// run (Node 22.1+ adds its own compile cache of the other files beside it). Whatever is in that
// directory, pds answers the same.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';

const bundle = readFileSync(new URL('../../dist/cli.cjs', import.meta.url), 'utf8');
const buildId = /\/\/ pds build ([\w-]+)\s*$/.exec(bundle)?.[1];

let emulator: Emulator;
let caches = 0;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
});
afterAll(() => emulator.close());

/** A cache home of its own, and `pds projects ls` run with it. */
function withCacheHome() {
  const home = join(process.env.TMPDIR as string, `cache-${caches++}`);
  const dir = join(home, 'pds', 'compile-cache');
  const run = (extra: Record<string, string> = {}) =>
    runPds(['projects', 'ls', '--json'], { env: signedInEnv(emulator.url, { XDG_CACHE_HOME: home, ...extra }) });
  const files = (): string[] => {
    try {
      // Only pds's own: a Node with a compile cache of its own keeps that beside them.
      return readdirSync(dir)
        .filter((name) => name.startsWith('cli-'))
        .sort();
    } catch {
      return [];
    }
  };
  return { home, dir, run, files };
}

/** The answer every run must give, whatever the cache held. */
async function expectProjects(run: Promise<{ code: number | null; stdout: string; stderr: string }>) {
  const result = await run;
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout).map((project: { name: string }) => project.name)).toEqual([
    'Northern Lights Catalog',
    'Harbor Sessions',
  ]);
}

describe('the compile cache', () => {
  it('the build marks dist/cli.cjs with its id', () => {
    expect(buildId).toMatch(/^[\w-]{16}$/);
  });

  it('is made by the first run and used, unchanged, by the next', async () => {
    const cache = withCacheHome();
    await expectProjects(cache.run());
    const made = cache.files();
    expect(made).toEqual([`cli-${buildId}-v8-${process.versions.v8}-${process.arch}.bin`]);
    // Only its owner may read or change code that pds runs.
    expect(statSync(cache.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(cache.dir, made[0] as string)).mode & 0o777).toBe(0o600);
    const before = made.map((name) => statSync(join(cache.dir, name)).mtimeMs);
    await expectProjects(cache.run());
    expect(cache.files()).toEqual(made);
    expect(made.map((name) => statSync(join(cache.dir, name)).mtimeMs)).toEqual(before);
  });

  it('a cache V8 refuses (damaged) is made again; those of other builds, and half-written ones, are removed', async () => {
    const cache = withCacheHome();
    mkdirSync(cache.dir, { recursive: true });
    const name = `cli-${buildId}-v8-${process.versions.v8}-${process.arch}.bin`;
    writeFileSync(join(cache.dir, name), 'not a code cache');
    writeFileSync(
      join(cache.dir, `cli-olderbuild000000-v8-${process.versions.v8}-${process.arch}.bin`),
      'an earlier build',
    );
    writeFileSync(join(cache.dir, `${name}.12345`), 'left by a run killed while writing');
    await expectProjects(cache.run());
    expect(cache.files()).toEqual([name]);
    expect(statSync(join(cache.dir, name)).size).toBeGreaterThan(1000);
    await expectProjects(cache.run());
  });

  it('a cache that others may write is not used: the run writes its own in its place', async () => {
    const cache = withCacheHome();
    await expectProjects(cache.run());
    const [name] = cache.files();
    const file = join(cache.dir, name as string);
    chmodSync(file, 0o666);
    await expectProjects(cache.run());
    // Replaced (renamed over), not merely used: the new file has the mode pds writes.
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a cache directory that cannot be written costs nothing but the speed', async () => {
    const cache = withCacheHome();
    // A file where the directory should be.
    mkdirSync(join(cache.home, 'pds'), { recursive: true });
    writeFileSync(cache.dir, 'in the way');
    await expectProjects(cache.run());
    await expectProjects(cache.run());
    expect(readFileSync(cache.dir, 'utf8')).toBe('in the way');
  });

  it('NODE_DISABLE_COMPILE_CACHE keeps none', async () => {
    const cache = withCacheHome();
    await expectProjects(cache.run({ NODE_DISABLE_COMPILE_CACHE: '1' }));
    expect(cache.files()).toEqual([]);
  });
});

// What the machine offers the tests that drive real programs (shells, a browser), and the skip of
// those tests, with the reason printed, where a program cannot be had.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach } from 'vitest';

/** The path of an executable `name` on PATH, or undefined. */
export function findProgram(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir || '.', name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Skips the tests of the current suite (file or describe) when `missing` says why they cannot run:
 * the reason is printed once to stderr, where a CI log shows it, and beside each skipped test.
 */
export function skipWhenMissing(what: string, missing: string | undefined): void {
  if (missing === undefined) return;
  console.warn(`skipped: ${what}: ${missing}`);
  beforeEach((context) => context.skip(missing));
}

export type Chromium = { path: string; missing?: undefined } | { path?: undefined; missing: string };

/**
 * A headless Chromium: PDS_TEST_CHROMIUM, else a system one, else the binary inside the
 * @sparticuz/chromium dev dependency (Linux x64 only), unpacked once and kept as a cache.
 */
export async function findChromium(): Promise<Chromium> {
  const chosen = process.env.PDS_TEST_CHROMIUM;
  if (chosen) return existsSync(chosen) ? { path: chosen } : { missing: `PDS_TEST_CHROMIUM=${chosen} does not exist` };
  const system =
    (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined) ??
    findProgram('chromium') ??
    findProgram('chromium-browser');
  if (system) return { path: system };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return {
      missing: `no Chromium: set PDS_TEST_CHROMIUM, or install one (@sparticuz/chromium has none for ${process.platform}-${process.arch})`,
    };
  }
  return { path: await unpackSparticuz() };
}

/**
 * The package unpacks into os.tmpdir() (the binary, fonts and GL libraries loose in it, 200 MB):
 * pointed at a directory of ours under node_modules/.cache, it is done once per installed version
 * and a fresh `npm ci` drops it. Unpacked aside and renamed into place, so two runs never see a
 * half-written binary.
 */
async function unpackSparticuz(): Promise<string> {
  const modules = new URL('../../node_modules/', import.meta.url);
  const { version } = JSON.parse(readFileSync(new URL('@sparticuz/chromium/package.json', modules), 'utf8')) as {
    version: string;
  };
  const cache = fileURLToPath(new URL(`.cache/sparticuz-chromium-${version}`, modules));
  const binary = join(cache, 'chromium');
  if (existsSync(binary)) return binary;
  const partial = `${cache}.${process.pid}`;
  mkdirSync(partial, { recursive: true });
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = partial;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    await chromium.executablePath();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    renameSync(partial, cache);
  } catch {
    // Another run got there first: its copy is as good.
    rmSync(partial, { recursive: true, force: true });
  }
  return binary;
}

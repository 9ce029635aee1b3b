// The package as users install it: `npm pack`, then `npm install -g` of that tarball by path into a
// fresh prefix. npm prints nothing but its summary, and the installed `pds` answers --version,
// starts the emulator, reads from it, writes its lines as Parquet and xlsx, and its sandbox runs tar
// with gzip and refuses xz clearly.
// The dependencies come from a registry the test starts on 127.0.0.1 (packed from node_modules)
// into an empty npm cache: the test passes on a fresh machine and reaches no network.
//
// npm would name the install scripts of just-bash's optional native codecs (node-liblzma,
// @mongodb-js/zstd) were just-bash a dependency; the build copies its bundle into dist/just-bash/
// instead, and pds depends on what that copy requires (scripts/just-bash-copy.js).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import readXlsxFile from 'read-excel-file/node';
import { afterAll, describe, expect, it } from 'vitest';
import { dependencyDifferences, LEFT_OUT, requiredPackages } from '../../scripts/just-bash-copy.js';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { startLocalRegistry } from '../helpers/local-registry.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'pds-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8'));
const manifest = readJson('package.json') as Manifest;
const justBash = readJson('node_modules/just-bash/package.json') as Manifest;
const copy = readFileSync(join(root, 'dist/just-bash/index.cjs'), 'utf8');

describe('the copy of just-bash in dist/', () => {
  it("is just-bash's bundle unchanged, with its licence", () => {
    expect(copy).toBe(readFileSync(join(root, 'node_modules/just-bash/dist/bundle/index.cjs'), 'utf8'));
    expect(readFileSync(join(root, 'dist/just-bash/LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0/);
    expect(readFileSync(join(root, 'dist/just-bash/NOTICE'), 'utf8')).toContain(`just-bash ${justBash.version}`);
  });

  it("makes pds depend on what it requires, at just-bash's ranges, but the native codecs", () => {
    const required = requiredPackages(copy);
    expect(required).toEqual(expect.arrayContaining(Object.keys(LEFT_OUT)));
    expect(dependencyDifferences(copy, justBash, manifest)).toEqual([]);
    for (const name of required.filter((name) => !(name in LEFT_OUT))) {
      expect(manifest.dependencies[name], name).toBe(justBash.dependencies[name]);
    }
    expect(Object.keys(manifest.dependencies)).not.toContain('just-bash');
    // What users install runs no install script: the ones in the lock are all development-only.
    const lock = readJson('package-lock.json') as {
      packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }>;
    };
    const scripted = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript);
    expect(scripted.length).toBeGreaterThan(0);
    expect(scripted.filter(([, entry]) => !entry.dev).map(([location]) => location)).toEqual([]);
  });

  it('finds a dependency missing, at another range, or one left out', () => {
    const { diff, ...withoutDiff } = manifest.dependencies;
    expect(diff).toBeDefined();
    expect(dependencyDifferences(copy, justBash, { ...manifest, dependencies: withoutDiff })).toEqual([
      `just-bash requires diff: add it to pds's dependencies at ${justBash.dependencies.diff}`,
    ]);
    const other = { ...manifest.dependencies, diff: '^1.0.0', 'sql.js': '^1.0.0' };
    expect(dependencyDifferences(copy, justBash, { ...manifest, dependencies: other })).toEqual([
      `just-bash requires diff@${justBash.dependencies.diff}, pds's dependencies say ^1.0.0`,
      'sql.js is left out of the sandbox but is a dependency of pds',
    ]);
  });
});

/** `npm pack` of the checkout (dist/ as the tests' build made it: prepack would rebuild it under the other process tests' feet). */
async function packed(): Promise<string> {
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root });
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error('npm pack printed no package');
  expect(info.files.map((file) => file.path)).toEqual(
    expect.arrayContaining([
      'dist/cli.cjs',
      'dist/just-bash/index.cjs',
      'dist/just-bash/LICENSE',
      'dist/just-bash/NOTICE',
    ]),
  );
  return join(work, info.filename);
}

describe('the package, installed as users install it', () => {
  it('installs from its tarball without a warning, and the installed pds works', async () => {
    const tarball = await packed();
    const prefix = join(work, 'prefix');
    const cache = mkdtempSync(join(work, 'npm-cache-'));
    const userconfig = join(work, 'npmrc');
    writeFileSync(userconfig, '');
    const registry = await startLocalRegistry(root);
    // npm's own settings from the environment (npm test sets some) and proxies are left out: the
    // flags say where everything comes from.
    const npmEnv = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^(npm_config_|https?_proxy$|no_proxy$)/i.test(key)),
    );
    const install = await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--registry',
        registry.url,
        '--cache',
        cache,
        '--userconfig',
        userconfig,
        '--no-audit',
        '--no-fund',
        '--update-notifier=false',
        tarball,
      ],
      { cwd: work, timeout: 240_000, env: npmEnv },
    ).finally(() => registry.close());
    // Every dependency of pds came from the registry the test started.
    expect(registry.served).toEqual(expect.arrayContaining(Object.keys(manifest.dependencies)));
    expect(install.stderr).toBe('');
    expect(install.stdout).toMatch(/^\nadded \d+ packages in [\d.]+(ms|s|m)\n$/);
    const installed = join(prefix, 'lib', 'node_modules', manifest.name);
    expect(existsSync(join(installed, 'dist', 'just-bash', 'index.cjs'))).toBe(true);
    for (const absent of ['just-bash', ...Object.keys(LEFT_OUT)]) {
      expect(existsSync(join(installed, 'node_modules', absent)), absent).toBe(false);
    }
    const pds = join(prefix, 'bin', 'pds');
    const env = { ...process.env, PDS_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
    expect((await run(pds, ['--version'], { env })).stdout).toBe(`${manifest.version}\n`);

    const emulator = spawn(pds, ['emulator', 'start', '--port', '0', '--quiet'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stopped = new Promise<number | null>((resolve) => emulator.once('close', resolve));
    const killer = setTimeout(() => emulator.kill('SIGKILL'), 120_000);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        emulator.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        void stopped.then(() => reject(new Error(`the emulator ended: ${out}`)));
      });
      const token = 'demo-org-token';
      const signedIn = { ...env, PDS_API_URL: url, PDS_TOKEN: token };
      const answer = (await (
        await fetch(`${url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { data: { id: string }[] };
      const read = await run(pds, ['projects', 'ls', '--json'], { env: signedIn });
      expect((JSON.parse(read.stdout) as { id: string }[]).map((project) => project.id)).toEqual(
        answer.data.map((project) => project.id),
      );

      // The xlsx and Parquet writers are bundled into lazy chunks of dist/ (from devDependencies):
      // the installed pds writes both, and the files read back as every line of the CSV export.
      const csv = await run(pds, ['statements', 'lines', '--all', '-p', DEMO_PROJECT_ID, '--format', 'csv'], {
        env: signedIn,
        maxBuffer: 64 * 1024 * 1024,
      });
      const lineCount = csv.stdout.trimEnd().split('\n').length - 1;
      expect(lineCount).toBeGreaterThan(0);
      const parquet = join(work, 'lines.parquet');
      await run(pds, ['statements', 'lines', '--all', '-p', DEMO_PROJECT_ID, '--format', 'parquet', '-o', parquet], {
        env: signedIn,
      });
      const rows = await parquetReadObjects({ file: await asyncBufferFromFile(parquet) });
      expect(rows).toHaveLength(lineCount);
      const xlsx = join(work, 'lines.xlsx');
      await run(pds, ['statements', 'lines', '--all', '-p', DEMO_PROJECT_ID, '--format', 'xlsx', '-o', xlsx], {
        env: signedIn,
      });
      const [sheet] = await readXlsxFile(xlsx);
      expect(sheet?.data).toHaveLength(lineCount + 1);

      // Without node-liblzma the sandbox's tar refuses xz, saying why, and the sandbox goes on.
      const sandbox = await run(
        pds,
        ['sandbox', 'exec', '-p', DEMO_PROJECT_ID, 'tar -cJf /tmp/contracts.txz contracts', 'echo after'],
        { env: signedIn },
      ).then(
        () => ({ code: 0, stdout: '', stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(sandbox.code).toBe(2);
      expect(sandbox.stdout).toBe('after\n');
      expect(sandbox.stderr).toMatch(/^tar: error creating archive: xz compression requires node-liblzma\b.*\n$/);
      // gzip there and back; diff is one of the packages pds installs for the copy of just-bash.
      const gzip = await run(
        pds,
        [
          'sandbox',
          'exec',
          '-p',
          DEMO_PROJECT_ID,
          'tar -czf /tmp/c.tgz AGENTS.md && tar -tzf /tmp/c.tgz',
          'mkdir /tmp/out && tar -xzf /tmp/c.tgz -C /tmp/out && diff AGENTS.md /tmp/out/AGENTS.md && echo same',
        ],
        { env: signedIn },
      );
      expect(gzip.stdout).toBe('AGENTS.md\nsame\n');
    } finally {
      emulator.kill('SIGTERM');
      expect(await stopped).toBe(0);
      clearTimeout(killer);
    }
  }, 300_000);
});

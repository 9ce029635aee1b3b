// The package as users install it: `npm pack`, then `npm install -g` of the tarball into a fresh
// prefix, offline (npm-shrinkwrap.json pins every dependency to the tarballs `npm ci` cached), and
// the installed `pds` answers --version, starts the emulator and reads from it.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'pds-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The warnings npm may print for this install, and why each is left: node-liblzma is an optional
 * dependency of just-bash (xz archives in the sandbox's tar) with an install script (node-gyp).
 * npm 11 names every unapproved install script of a global install, and only the installing user
 * can approve one there (`--allow-scripts=node-liblzma`): a package's own allowScripts is not read.
 */
const KNOWN = [/^npm warn install-scripts( |$)/];

describe('the package, installed as users install it', () => {
  it('installs from its tarball offline, without other warnings, and the installed pds works', async () => {
    // prepack's shrinkwrap, without its rebuild of dist/ under the other process tests' feet (npm
    // test has just built it).
    await run(process.execPath, ['scripts/shrinkwrap.js'], { cwd: root });
    let packed: string;
    try {
      const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root });
      const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
      if (!info) throw new Error('npm pack printed no package');
      expect(info.files.map((file) => file.path)).toContain('npm-shrinkwrap.json');
      expect(info.files.map((file) => file.path)).toContain('dist/cli.cjs');
      packed = join(work, info.filename);
    } finally {
      await run(process.execPath, ['scripts/shrinkwrap.js', '--remove'], { cwd: root });
    }

    const prefix = join(work, 'prefix');
    const install = await run(
      'npm',
      ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', packed],
      { cwd: work, timeout: 120_000 },
    );
    const warnings = `${install.stdout}${install.stderr}`
      .split('\n')
      .filter((line) => /^npm (warn|WARN|error|ERR)/.test(line));
    expect(warnings.filter((line) => !KNOWN.some((known) => known.test(line)))).toEqual([]);
    // The one script npm names, if it names one, is node-liblzma's.
    const named = warnings.flatMap((line) => /^npm warn install-scripts\s+(\S+)@\S+ \(/.exec(line)?.[1] ?? []);
    expect(named.filter((name) => name !== 'node-liblzma')).toEqual([]);

    const pds = join(prefix, 'bin', 'pds');
    const env = { ...process.env, PDS_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
    expect((await run(pds, ['--version'], { env })).stdout).toBe('0.1.0\n');

    const emulator = spawn(pds, ['emulator', 'start', '--port', '0', '--quiet'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stopped = new Promise<number | null>((resolve) => emulator.once('close', resolve));
    const killer = setTimeout(() => emulator.kill('SIGKILL'), 60_000);
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
      const answer = (await (
        await fetch(`${url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { data: { id: string }[] };
      const read = await run(pds, ['projects', 'ls', '--json'], {
        env: { ...env, PDS_API_URL: url, PDS_TOKEN: token },
      });
      expect((JSON.parse(read.stdout) as { id: string }[]).map((project) => project.id)).toEqual(
        answer.data.map((project) => project.id),
      );
    } finally {
      emulator.kill('SIGTERM');
      expect(await stopped).toBe(0);
      clearTimeout(killer);
    }
  }, 150_000);
});

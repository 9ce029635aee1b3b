// The config file under real, concurrent pds processes: no write lost, private modes, and a broken
// file named with a way out (and `pds auth login` able to replace a corrupt one).
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { updateProfile } from '../../src/lib/config/profiles.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir } from '../helpers/cli.js';
import { runPds, signedInEnv, startPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const OTHER_PROJECT_NAME = 'Northern Lights Catalog';

const profiles = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, string>> })
    .profiles;

describe('concurrent writers', () => {
  it('ten concurrent writers on ten profiles, three keys each, keep every profile and key', async () => {
    const dir = freshConfigDir();
    const keys = (i: number): [string, string][] => [
      ['timeout', String(i + 1)],
      ['api-url', `http://127.0.0.1:${4000 + i}`],
      ['project', DEMO_PROJECT],
    ];
    // Ten chains at once, each setting its profile's keys one after the other.
    const chains = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const runs = [];
        for (const [key, value] of keys(i))
          runs.push(
            await runPds(['--profile', `p${i}`, 'config', 'set', key, value], { env: { PDS_CONFIG_DIR: dir } }),
          );
        return runs;
      }),
    );
    for (const run of chains.flat()) expect(run).toMatchObject({ code: 0, stdout: '' });
    const stored = profiles(dir);
    expect(Object.keys(stored).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`).sort());
    for (let i = 0; i < 10; i++) expect(stored[`p${i}`]).toEqual(Object.fromEntries(keys(i)));
    // No lock is left behind.
    expect(readdirSync(dir).sort()).toEqual(['config.json']);
  });

  it('a writer waits while another holds the lock, then writes on top of what that one wrote', async () => {
    const dir = freshConfigDir();
    const file = join(dir, 'config.json');
    const release = await lockfile.lock(file, { realpath: false });
    const waiting = startPds(['--profile', 'second', 'config', 'set', 'timeout', '7'], {
      env: { PDS_CONFIG_DIR: dir },
    });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(waiting.child.exitCode).toBeNull();
    // What the lock holder writes meanwhile is not lost.
    writeFileSync(file, JSON.stringify({ profiles: { first: { timeout: '3' } } }));
    await release();
    expect((await waiting.exited).code).toBe(0);
    expect(profiles(dir)).toEqual({ first: { timeout: '3' }, second: { timeout: '7' } });
  });

  it('updateProfile runs read, async change and write as one step', async () => {
    const dir = freshConfigDir();
    const env = { PDS_CONFIG_DIR: dir };
    // Each change takes a while (as a token refresh does); none may start from a stale read.
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        updateProfile(env, 'default', async (stored) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { ...stored, timeout: String(Number(stored.timeout ?? 0) + 1), [`k${i}`]: 'x' } as typeof stored;
        }),
      ),
    );
    expect(profiles(dir).default).toEqual({ timeout: '5', k0: 'x', k1: 'x', k2: 'x', k3: 'x', k4: 'x' });
  });

  it('concurrent `use` and `auth login` on one profile keep both the project and the token', async () => {
    const dirs = Array.from({ length: 4 }, () => freshConfigDir());
    await Promise.all(
      dirs.map((dir) => {
        const env = signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir, PDS_PROJECT: undefined });
        return Promise.all([
          runPds(['use', OTHER_PROJECT_NAME], { env }),
          runPds(['auth', 'login', '--with-token'], {
            env: { ...env, PDS_TOKEN: undefined },
            stdin: 'demo-org-token\n',
          }),
        ]);
      }),
    );
    for (const dir of dirs) expect(profiles(dir).default).toEqual({ project: DEMO_PROJECT, token: 'demo-org-token' });
  });
});

describe('modes', () => {
  it('creates the config directory 0700 and the file 0600', async () => {
    const dir = join(freshConfigDir(), 'nested', 'pds');
    const run = await runPds(['config', 'set', 'timeout', '5'], { env: { PDS_CONFIG_DIR: dir } });
    expect(run.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('tightens an existing default directory (…/pds) to 0700, and leaves a PDS_CONFIG_DIR as it is', async () => {
    const xdg = mkdtempSync(join(tmpdir(), 'pds-xdg-'));
    mkdirSync(join(xdg, 'pds'), { mode: 0o755 });
    chmodSync(join(xdg, 'pds'), 0o755);
    const run = await runPds(['config', 'set', 'timeout', '5'], {
      env: { PDS_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg },
    });
    expect(run.code).toBe(0);
    expect(statSync(join(xdg, 'pds')).mode & 0o777).toBe(0o700);

    const chosen = freshConfigDir();
    chmodSync(chosen, 0o755);
    expect((await runPds(['config', 'set', 'timeout', '5'], { env: { PDS_CONFIG_DIR: chosen } })).code).toBe(0);
    expect(statSync(chosen).mode & 0o777).toBe(0o755);
  });
});

describe('a config file that cannot be used', () => {
  const env = (dir: string) => signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir });

  it('a directory: every command names it and how to move it away; login too, without pointing to itself', async () => {
    const dir = freshConfigDir();
    const file = join(dir, 'config.json');
    mkdirSync(file);
    const expected =
      `error: the config file ${file} is a directory, not a file\n` +
      `  move it away: \`mv '${file}' '${file}.old'\`, then \`pds auth login\`\n`;
    for (const args of [
      ['projects', 'ls'],
      ['config', 'list'],
      ['config', 'set', 'timeout', '5'],
    ]) {
      const run = await runPds(args, { env: env(dir) });
      expect(run).toMatchObject({ code: 2, stdout: '', stderr: expected });
    }
    const login = await runPds(['auth', 'login', '--with-token'], {
      env: { ...env(dir), PDS_TOKEN: undefined },
      stdin: 'demo-org-token\n',
    });
    expect(login).toMatchObject({ code: 2, stderr: expected });
    expect(statSync(file).isDirectory()).toBe(true);
  });

  it('a symbolic link (here a loop): refused as one (issue 20), named, with what to do', async () => {
    const dir = freshConfigDir();
    const file = join(dir, 'config.json');
    symlinkSync(file, file);
    const run = await runPds(['projects', 'ls'], { env: env(dir) });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `error: refusing the config file ${file}: it is a symbolic link, and pds does not read or write through one\n  remove it (\`rm '${file}'\`), or put the file itself in its place\n`,
    );
  });

  it('not JSON: commands say so and that login replaces it; login sets it aside and writes a new one', async () => {
    const dir = freshConfigDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {"default": {"token": "ab');
    const run = await runPds(['projects', 'ls'], { env: env(dir) });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        `error: the config file ${file} is not valid JSON\n` +
        '  `pds auth login` replaces it (the broken file is kept beside it)\n' +
        `  or move it away: \`mv '${file}' '${file}.old'\`\n`,
    });

    const login = await runPds(['auth', 'login', '--with-token'], {
      env: { ...env(dir), PDS_TOKEN: undefined },
      stdin: 'demo-org-token\n',
    });
    expect(login.code).toBe(0);
    const aside = readdirSync(dir).find((name) => name.startsWith('config.json.broken-'));
    expect(aside).toBeDefined();
    expect(login.stderr).toContain(
      `warning: the config file ${file} is not valid JSON: moved it to ${join(dir, aside as string)}; logging in writes a new one\n`,
    );
    expect(readFileSync(join(dir, aside as string), 'utf8')).toBe('{"profiles": {"default": {"token": "ab');
    expect(profiles(dir).default).toEqual({ token: 'demo-org-token' });
    expect((await runPds(['projects', 'ls', '-q'], { env: { ...env(dir), PDS_TOKEN: undefined } })).code).toBe(0);
  });

  it('not JSON, and the token is refused: login leaves the file where it was and writes nothing', async () => {
    const dir = freshConfigDir();
    const file = join(dir, 'config.json');
    const broken = '{"profiles": {"default": {"token": "ab';
    writeFileSync(file, broken);
    const login = await runPds(['auth', 'login', '--with-token'], {
      env: { ...env(dir), PDS_TOKEN: undefined },
      stdin: 'not-a-token\n',
    });
    expect(login.code).toBe(3);
    expect(login.stderr).toMatch(/rejected the token/);
    expect(login.stderr).not.toContain('moved it to');
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });
});

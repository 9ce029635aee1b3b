// Issue 20, the local machine: the built pds refuses a config another user could have written,
// writes nothing through a planted symbolic link, says who holds the config lock, and its bash
// completion does not glob what it offers.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { freshConfigDir } from '../helpers/cli.js';
import { findProgram } from '../helpers/machine.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { PDS_BIN, childEnv, runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const PROFILE = JSON.stringify({ profiles: { default: { project: DEMO_PROJECT_ID } } });
const isRoot = process.getuid?.() === 0;

/** Runs the built pds as root of a new user and mount namespace, after `setup` (a shell command) there. */
async function inUserNamespace(
  setup: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stderr: string }> {
  const script = `${setup} && exec "$0" "$@"`;
  try {
    const { stderr } = await promisify(execFile)(
      'unshare',
      ['-rm', 'sh', '-c', script, process.execPath, PDS_BIN, ...args],
      { env: childEnv(env) },
    );
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : null, stderr: failed.stderr ?? '' };
  }
}

function configWith(mode: number): string {
  const dir = freshConfigDir();
  writeFileSync(join(dir, 'config.json'), PROFILE, { mode });
  chmodSync(join(dir, 'config.json'), mode);
  return dir;
}

describe('10. a config another user could have written is refused', () => {
  it.each([
    [0o664, 'group', '0664'],
    [0o646, 'others', '0646'],
    [0o666, 'group and others', '0666'],
  ])('config.json with mode %o: exit 3 naming the path and the fix, nothing sent', async (mode, who, shown) => {
    const dir = configWith(mode);
    const path = join(dir, 'config.json');
    const result = await runPds(['projects', 'ls'], { env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }) });
    expect(result).toMatchObject({
      code: 3,
      stdout: '',
      stderr: `error: refusing the config file ${path}: it is writable by ${who} (mode ${shown}), who could have changed it\n  fix: \`chmod 600 '${path}'\`\n`,
    });
    expect(emulator.requests).toEqual([]);
  });

  it('a PDS_CONFIG_DIR writable by others: exit 3, and nothing is written into it', async () => {
    const dir = freshConfigDir();
    chmodSync(dir, 0o777);
    const result = await runPds(['config', 'set', 'project', DEMO_PROJECT_ID], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `error: refusing the config directory ${dir}: it is writable by group and others (mode 0777), who could have changed it\n  fix: \`chmod 700 '${dir}'\`\n`,
    );
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('config.json owned by another user: exit 3', async (context) => {
    const dir = configWith(0o600);
    const path = join(dir, 'config.json');
    const env = signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir });
    let result: { code: number | null; stderr: string };
    if (isRoot) {
      chownSync(path, 65534, 65534);
      result = await runPds(['projects', 'ls'], { env });
    } else {
      // Not root: pds runs as root of a user namespace of its own, where config.json is a file of
      // the machine's root mounted over it, which that namespace sees as nobody's (uid 65534).
      const unshare = findProgram('unshare');
      if (!unshare || spawnSync(unshare, ['-rm', 'true']).status !== 0) {
        console.log(
          `skipped: not root, and ${unshare ? 'unshare cannot make a user namespace here' : 'unshare (util-linux) is not installed'}`,
        );
        context.skip();
      }
      result = await inUserNamespace(`mount --bind /etc/passwd '${path}'`, ['projects', 'ls'], env);
    }
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `error: refusing the config file ${path}: it belongs to another user (uid 65534), who could have written it\n  if it is yours: \`chown 0 '${path}'\`; otherwise remove it\n`,
    );
    expect(emulator.requests).toEqual([]);
  });

  it('a private config (0600 in 0700) is used as before', async () => {
    const dir = configWith(0o600);
    const result = await runPds(['config', 'get', 'project'], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir, PDS_PROJECT: undefined }),
    });
    expect(result).toMatchObject({ code: 0, stdout: `${DEMO_PROJECT_ID}\n` });
  });
});

describe('11. nothing is written through a symbolic link', () => {
  const elsewhere = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-elsewhere-'));
    const target = join(dir, 'target');
    writeFileSync(target, 'untouched');
    return target;
  };

  it('config.json planted as a link: exit 3, the file it points to unchanged', async () => {
    const dir = freshConfigDir();
    const target = elsewhere();
    symlinkSync(target, join(dir, 'config.json'));
    const result = await runPds(['config', 'set', 'project', DEMO_PROJECT_ID], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `error: refusing the config file ${join(dir, 'config.json')}: it is a symbolic link, and pds does not read or write through one\n`,
    );
    expect(readFileSync(target, 'utf8')).toBe('untouched');
  });

  it('the config lock planted as a link: exit 3', async () => {
    const dir = freshConfigDir();
    const target = mkdtempSync(join(tmpdir(), 'pds-elsewhere-'));
    symlinkSync(target, join(dir, 'config.json.lock'));
    const result = await runPds(['config', 'set', 'project', DEMO_PROJECT_ID], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `error: refusing the config lock ${join(dir, 'config.json.lock')}: it is a symbolic link`,
    );
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('the completion cache planted as a link: the file it points to unchanged, completion still answers', async () => {
    const dir = freshConfigDir();
    const target = elsewhere();
    symlinkSync(target, join(dir, 'completion-cache.json'));
    const result = await runPds(['__complete', '--', '--project', ''], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${DEMO_PROJECT_ID}\n`);
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/projects']);
  });

  it('a written config is a regular file of mode 0600, and no temporary file is left', async () => {
    const dir = freshConfigDir();
    const result = await runPds(['config', 'set', 'project', DEMO_PROJECT_ID], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }),
    });
    expect(result.code).toBe(0);
    const { readdirSync, lstatSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(lstatSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { project: DEMO_PROJECT_ID } },
    });
  });
});

describe('12. the config lock of a process that died', () => {
  const lockedDir = (pid: string, ageSeconds: number) => {
    const dir = freshConfigDir();
    const lock = join(dir, 'config.json.lock');
    mkdirSync(lock);
    writeFileSync(`${lock}-pid`, pid);
    const then = new Date(Date.now() - ageSeconds * 1000);
    utimesSync(lock, then, then);
    return { dir, lock };
  };

  it('is taken over at once when its pid is gone (same host), with a readable line', async () => {
    const { dir } = lockedDir('424242', 5);
    const result = await runPds(['config', 'set', 'project', DEMO_PROJECT_ID], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }),
      killAfterMs: 30_000,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: took over the config lock of pid 424242, which stopped without releasing it\n',
    );
    // No wait for the lock to go stale: pid 424242 is not alive.
    expect(result.ms).toBeLessThan(3_000);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  }, 30_000);

  it('a live holder (its lock kept fresh) is named at once, waited for 11 s, then named again: exit 1', async () => {
    // This test's own process: a pid that is alive.
    const { dir, lock } = lockedDir(String(process.pid), 0);
    const keepFresh = setInterval(() => utimesSync(lock, new Date(), new Date()), 1_000);
    try {
      const result = await runPds(['config', 'set', 'project', DEMO_PROJECT_ID], {
        env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir }),
        killAfterMs: 30_000,
      });
      expect(result).toMatchObject({
        code: 1,
        stderr:
          `warning: waiting for the config lock, held by pid ${process.pid}\n` +
          `error: another pds is writing the config (pid ${process.pid}); waited 11 s\n  if no pds is running, remove the lock: \`rm -r '${lock}'\`\n`,
      });
      expect(result.ms).toBeGreaterThan(9_000);
      expect(result.ms).toBeLessThan(16_000);
    } finally {
      clearInterval(keepFresh);
    }
  }, 30_000);
});

describe('13. bash completion does not glob what it offers', () => {
  it("a project named 'Mix *' is offered as it is, not as the files it would match", async (context) => {
    if (spawnSync('bash', ['-c', 'true']).error) {
      console.log('skipped: bash is not installed');
      context.skip();
    }
    const project = emulator.state.projects.find((p) => p.id === DEMO_PROJECT_ID);
    if (!project) throw new Error('no demo project');
    const name = project.name;
    project.name = 'Mix *';
    const cwd = mkdtempSync(join(tmpdir(), 'pds-glob-'));
    writeFileSync(join(cwd, 'Mix tape'), '');
    const bin = mkdtempSync(join(tmpdir(), 'pds-bin-'));
    writeFileSync(join(bin, 'pds'), `#!/bin/sh\nexec "${process.execPath}" "${PDS_BIN}" "$@"\n`, { mode: 0o755 });
    try {
      const script = [
        'source <(pds completion bash)',
        'COMP_LINE="pds use Mi"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(pds use Mi); COMP_CWORD=2',
        '_pds_complete',
        'printf "[%s]\\n" "${COMPREPLY[@]}"',
      ].join('\n');
      // Not spawnSync: the emulator answering pds runs in this process.
      const bash = await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', script], {
        cwd,
        env: childEnv({ ...signedInEnv(emulator.url), PATH: `${bin}:${process.env.PATH ?? ''}` }),
        encoding: 'utf8',
      });
      expect(bash.stdout).toBe('[Mix\\ \\*]\n');
    } finally {
      project.name = name;
    }
  });
});

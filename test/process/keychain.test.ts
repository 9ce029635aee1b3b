// Issue 20, item 18: the credential in the system keychain, for real on Linux: a D-Bus session of
// its own (dbus-run-session) with gnome-keyring-daemon unlocked as the Secret Service, and the built
// pds run inside it, process after process. Skipped, with the reason printed, where Debian's
// gnome-keyring or dbus packages are missing (.ci/run installs them). And without D-Bus at all: the
// fallback to the 0600 file, at once.
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { PDS_BIN, childEnv, runPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });

const onPath = (program: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((program) => !onPath(program));

/** Every file under `dir`, with its content. */
function filesUnder(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
  return files;
}

/**
 * Runs `steps` (shell lines using `pds`) in a D-Bus session with an unlocked keyring; each step's
 * output goes to `<n>.out`, `<n>.err` and `<n>.code` in the returned directory.
 */
async function inKeyringSession(
  configDir: string,
  steps: string[],
): Promise<(n: number) => { out: string; err: string; code: number }> {
  const work = mkdtempSync(join(tmpdir(), 'pds-keyring-'));
  const bin = join(work, 'bin');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(bin);
  writeFileSync(join(bin, 'pds'), `#!/bin/sh\nexec "${process.execPath}" "${PDS_BIN}" "$@"\n`, { mode: 0o755 });
  const script = [
    // The daemon reads the keyring's password on stdin, creates the login keyring and unlocks it.
    'printf "test-password" | gnome-keyring-daemon --unlock --components=secrets > /dev/null',
    ...steps.map((step, n) => `( ${step} ) > "${work}/${n}.out" 2> "${work}/${n}.err"; echo $? > "${work}/${n}.code"`),
  ].join('\n');
  const env = childEnv({
    HOME: work,
    XDG_DATA_HOME: join(work, 'data'),
    XDG_RUNTIME_DIR: work,
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    PDS_API_URL: emulator.url,
    PDS_CONFIG_DIR: configDir,
    PDS_TOKEN: undefined,
    PDS_PROJECT: undefined,
    DBUS_SESSION_BUS_ADDRESS: undefined,
  });
  // Not execFileSync: the emulator answering pds runs in this process.
  await new Promise<void>((resolve, reject) =>
    execFile('dbus-run-session', ['--', 'sh', '-c', script], { env, timeout: 60_000 }, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
  return (n) => ({
    out: readFileSync(join(work, `${n}.out`), 'utf8'),
    err: readFileSync(join(work, `${n}.err`), 'utf8'),
    code: Number(readFileSync(join(work, `${n}.code`), 'utf8')),
  });
}

/** What login prints after signing in with a token that reaches the emulator's 2 projects. */
const NEXT_STEP = 'Next: choose a project with `pds use <name>` (`pds projects ls` lists the 2)\n';

describe('18. the credential in the system keychain', () => {
  it('with a Secret Service: login keeps the token there and nowhere in the config directory; a new process reads it; logout removes it', {
    timeout: 90_000,
  }, async (context) => {
    if (missing.length > 0) {
      console.log(
        `skipped: ${missing.join(' and ')} not installed (Debian: apt-get install gnome-keyring dbus); .ci/run installs them`,
      );
      context.skip();
    }
    const dir = freshConfigDir();
    const step = await inKeyringSession(dir, [
      'echo demo-org-token | pds auth login --with-token',
      'cat "$PDS_CONFIG_DIR/config.json"',
      'pds auth status',
      'pds projects ls -q',
      'pds auth logout',
      'pds auth status',
      'cat "$PDS_CONFIG_DIR/config.json"',
    ]);
    expect(step(0)).toEqual({
      code: 0,
      out: '',
      err: `Logged in to ${emulator.url} as organization (2 projects) (profile default)\n${NEXT_STEP}`,
    });
    expect(JSON.parse(step(1).out)).toEqual({ profiles: { default: { credential_store: 'keychain' } } });
    expect(step(2).code).toBe(0);
    expect(step(2).out).toContain('token\tdemo…, from profile default\nstored_in\tkeychain\n');
    expect(step(3)).toMatchObject({
      code: 0,
      out: '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7\n8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e\n',
    });
    expect(step(4)).toMatchObject({ code: 0, err: `Logged out of ${emulator.url} (profile default)\n` });
    // Gone from the keychain too: a new process finds no credential.
    expect(step(5).code).toBe(3);
    expect(JSON.parse(step(6).out)).toEqual({ profiles: { default: {} } });
    // While signed in, the token was never in a file of the config directory.
    expect(Object.values(filesUnder(dir)).join('\n')).not.toContain('demo-org-token');
  });

  it('with a Secret Service: a file-stored credential keeps working, login moves it; --insecure-storage keeps it in the file', {
    timeout: 90_000,
  }, async (context) => {
    if (missing.length > 0) {
      console.log(
        `skipped: ${missing.join(' and ')} not installed (Debian: apt-get install gnome-keyring dbus); .ci/run installs them`,
      );
      context.skip();
    }
    const dir = freshConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { token: 'demo-org-token' } } }), {
      mode: 0o600,
    });
    const step = await inKeyringSession(dir, [
      'pds auth status',
      'echo demo-org-token | pds auth login --with-token',
      'cat "$PDS_CONFIG_DIR/config.json"',
      'echo demo-project-token | pds auth login --with-token --insecure-storage',
      'cat "$PDS_CONFIG_DIR/config.json"',
      'pds auth status',
    ]);
    expect(step(0).out).toContain(`stored_in\t${join(dir, 'config.json')}\n`);
    expect(step(1).code).toBe(0);
    expect(JSON.parse(step(2).out)).toEqual({ profiles: { default: { credential_store: 'keychain' } } });
    expect(step(3)).toMatchObject({ code: 0, err: expect.not.stringContaining('warning') });
    // The project token reaches one project, which login made the default.
    expect(JSON.parse(step(4).out)).toEqual({
      profiles: { default: { token: 'demo-project-token', project: '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7' } },
    });
    expect(step(5).out).toContain(`stored_in\t${join(dir, 'config.json')}\n`);
  });

  it('without D-Bus: login falls back to the 0600 file at once, says so, and auth status names the file', async () => {
    const dir = freshConfigDir();
    const env = {
      PDS_API_URL: emulator.url,
      PDS_CONFIG_DIR: dir,
      PDS_TOKEN: undefined,
      DBUS_SESSION_BUS_ADDRESS: undefined,
    };
    const login = await runPds(['auth', 'login', '--with-token'], { env, stdin: 'demo-org-token\n' });
    const file = join(dir, 'config.json');
    expect(login).toMatchObject({
      code: 0,
      stderr:
        `warning: no keychain to keep the credential in (no D-Bus session, so no Secret Service): it is kept in ${file} (mode 0600)\n` +
        `Logged in to ${emulator.url} as organization (2 projects) (profile default)\n` +
        NEXT_STEP,
    });
    expect(login.ms).toBeLessThan(2_000 + 1_500);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { token: 'demo-org-token' } } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const status = await runPds(['auth', 'status'], { env });
    expect(status.stdout).toContain(`stored_in\t${file}\n`);
    const logout = await runPds(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: {} } });
  });

  it('a profile whose keychain cannot be read now: commands say why (exit 3); logout still clears it', async () => {
    const dir = freshConfigDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { credential_store: 'keychain', project: 'p' } } }),
      { mode: 0o600 },
    );
    const env = {
      PDS_API_URL: emulator.url,
      PDS_CONFIG_DIR: dir,
      PDS_TOKEN: undefined,
      DBUS_SESSION_BUS_ADDRESS: undefined,
    };
    const ls = await runPds(['projects', 'ls'], { env });
    expect(ls).toMatchObject({
      code: 3,
      stdout: '',
      stderr:
        'error: the credential of profile default is kept in the keychain, which cannot be read: no D-Bus session, so no Secret Service\n' +
        '  sign in again: `pds auth login` (with --insecure-storage to keep it in the config file instead)\n',
    });
    expect(emulator.requests).toEqual([]);
    const logout = await runPds(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { project: 'p' } },
    });
  });

  it('a D-Bus address where nothing answers: the fallback still comes within 2 s', async () => {
    const dir = freshConfigDir();
    const env = {
      PDS_API_URL: emulator.url,
      PDS_CONFIG_DIR: dir,
      PDS_TOKEN: undefined,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}`,
    };
    const login = await runPds(['auth', 'login', '--with-token'], { env, stdin: 'demo-org-token\n' });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(
      /^warning: no keychain to keep the credential in \(.+\): it is kept in .+config\.json \(mode 0600\)\n/,
    );
    expect(login.ms).toBeLessThan(2_000 + 1_500);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { token: 'demo-org-token' } },
    });
  });
});

// Issue 32, items 5-12: the newcomer's second hour, through the built CLI (a pty where the terminal
// matters). One key per fact, project names in any case, a cancelled sign-in that leaves nothing,
// tables that never cut what is copied, hints that fit the token's source, a config lock said at
// once and taken over from a holder that is gone, MCP errors that name what was asked, a spinner
// for slow requests.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir } from '../helpers/cli.js';
import { captureBrowser } from '../helpers/oauth.js';
import { ptyPds, runPds, signedInEnv, startPds } from '../helpers/process.js';
import { callTool, connectMcp } from '../helpers/mcp.js';
import type { Emulator } from '../../src/emulator/server.js';

const emulator = sharedEmulator();
const SECOND_PROJECT = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
const NO_COLOR = { NO_COLOR: '1' };

/** A config directory holding `profiles`, and the file's bytes. */
function configWith(profiles: Record<string, Record<string, string>>): { dir: string; bytes: string } {
  const dir = freshConfigDir();
  const bytes = `${JSON.stringify({ profiles }, null, '\t')}\n`;
  writeFileSync(join(dir, 'config.json'), bytes, { mode: 0o600 });
  return { dir, bytes };
}

describe('5. one key per fact', () => {
  it('auth status names where the credential is kept stored_in in the table as in JSON', async () => {
    const { dir } = configWith({ default: { token: 'demo-org-token' } });
    const env = { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, ...NO_COLOR };
    const term = await ptyPds(['auth', 'status'], { env });
    expect((await term.exited).code).toBe(0);
    const screen = (await term.screen()).join('\n');
    expect(screen).toMatch(new RegExp(`^stored_in +${join(dir, 'config.json')}$`, 'm'));
    const json = await runPds(['auth', 'status', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ stored_in: join(dir, 'config.json') });
  });

  it('statements update shows the currencies as get names them, in a table and in JSON', async () => {
    const env = signedInEnv(emulator.url);
    const args = ['statements', 'update', '40002', '--currency-royalty', 'eur', '--currency-transaction', 'usd'];
    const piped = await runPds(args, { env });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('currency_transaction\tUSD\n');
    expect(piped.stdout).toContain('currency_royalty\tEUR\n');
    expect(piped.stdout).not.toMatch(/^currency(_tx)?\t/m);
    const json = JSON.parse((await runPds([...args, '--json'], { env })).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ currency_transaction: 'USD', currency_royalty: 'EUR' });
    expect(Object.keys(json)).not.toContain('currency_tx');
    expect(Object.keys(json)).not.toContain('currency');
  });
});

describe('6. project names', () => {
  it('match in any case when one project has the name; a near name is suggested, never picked', async () => {
    const env = signedInEnv(emulator.url, { PDS_PROJECT: undefined });
    const used = await runPds(['use', 'northern lights catalog'], { env });
    expect(used).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Now using Northern Lights Catalog (${DEMO_PROJECT})\n`,
    });
    const near = await runPds(['use', 'Harbour Sesions'], { env });
    expect(near).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: no project named 'Harbour Sesions'\n  did you mean:\n    ${SECOND_PROJECT}  Harbor Sessions\n`,
    });
  });
});

describe('7. a cancelled browser sign-in', () => {
  it('Ctrl-C while waiting for the browser leaves the config file byte for byte as it was', async () => {
    const { dir, bytes } = configWith({ work: { token: 'demo-org-token', project: DEMO_PROJECT } });
    const capture = captureBrowser();
    const env = { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, BROWSER: capture.command };
    const term = await ptyPds(['auth', 'login', '--web'], { env });
    await term.waitFor('Ctrl-C cancels');
    await capture.url();
    term.write('\u0003');
    expect((await term.exited).code).toBe(130);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(bytes);
    const listed = await runPds(['auth', 'list', '-q'], { env });
    expect(listed.stdout).toBe('work\n');
  });
});

describe('8. narrow tables never cut what is copied', () => {
  it('auth list at 80 columns shows the whole project id, and its footer says 1 profile', async () => {
    const { dir } = configWith({ default: { token: 'demo-org-token', project: DEMO_PROJECT } });
    const term = await ptyPds(['auth', 'list'], {
      cols: 80,
      env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, ...NO_COLOR },
    });
    expect((await term.exited).code).toBe(0);
    const screen = await term.screen();
    expect(screen.find((line) => line.startsWith('*'))).toMatch(
      new RegExp(`^\\*  default  \\S+ +token +${DEMO_PROJECT}$`),
    );
    expect(screen.at(-1)).toBe('1 profile');
  });

  it('the upload table at 80 columns keeps a 9-character file name and the next command whole', async () => {
    const files = mkdtempSync(join(tmpdir(), 'pds-narrow-'));
    copyFileSync(new URL('../fixtures/sample.pdf', import.meta.url), join(files, 'deal1.pdf'));
    const term = await ptyPds(['upload', 'contract', '--wait', join(files, 'deal1.pdf')], {
      cols: 80,
      env: { ...signedInEnv(emulator.url), ...NO_COLOR },
    });
    expect((await term.exited).code).toBe(0);
    const screen = await term.screen();
    const header = screen.findIndex((line) => line.startsWith('FILE'));
    expect(header).toBeGreaterThanOrEqual(0);
    // The file and the ids whole; the next command whole (in its column, or below the table).
    expect(screen[header + 1]).toMatch(/^deal1\.pdf {2}\d+ /);
    expect(screen.join('\n')).toMatch(/pds contracts get \d+$/m);
    for (const line of screen) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('9. a refused token: the hint fits its source', () => {
  it('a bad PDS_TOKEN over a stored login says to unset it; with none, how to get one', async () => {
    const { dir } = configWith({ default: { token: 'demo-org-token' } });
    const over = await runPds(['projects', 'ls'], {
      env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, PDS_TOKEN: 'bad' },
    });
    expect(over).toMatchObject({
      code: 3,
      stderr:
        'error: invalid or expired token\n  the token in use is PDS_TOKEN\n' +
        '  PDS_TOKEN overrides the sign-in stored in profile default: unset it to use that (`unset PDS_TOKEN`)\n',
    });
    // The stored login works once PDS_TOKEN is gone.
    expect(
      (await runPds(['projects', 'ls', '-q'], { env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url } })).code,
    ).toBe(0);
    const alone = await runPds(['projects', 'ls'], {
      env: { PDS_CONFIG_DIR: freshConfigDir(), PDS_API_URL: emulator.url, PDS_TOKEN: 'bad' },
    });
    expect(alone.stderr).toBe(
      'error: invalid or expired token\n  the token in use is PDS_TOKEN\n  set PDS_TOKEN to a valid API token, or unset it and sign in: `pds auth login`\n',
    );
    const stale = configWith({ work: { token: 'revoked' } });
    const profile = await runPds(['--profile', 'work', 'projects', 'ls'], {
      env: { PDS_CONFIG_DIR: stale.dir, PDS_API_URL: emulator.url },
    });
    expect(profile.stderr).toBe(
      'error: invalid or expired token\n  the token in use is the token of profile work\n  sign in again: `pds auth login --profile work`\n',
    );
  });
});

describe('10. the config lock', () => {
  const locked = (pidFile?: string) => {
    const dir = freshConfigDir();
    const lock = join(dir, 'config.json.lock');
    mkdirSync(lock);
    if (pidFile !== undefined) writeFileSync(`${lock}-pid`, pidFile);
    return { dir, lock };
  };

  it('a lock without a pid: the wait is said at once, and the write goes on when the lock goes', async () => {
    const { dir, lock } = locked();
    const writer = startPds(['config', 'set', 'timeout', '7'], { env: { PDS_CONFIG_DIR: dir } });
    const started = Date.now();
    await writer.waitFor('waiting for the config lock', 3_000);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(writer.stderr()).toBe(
      'warning: waiting for the config lock, held by a process that did not say its pid (taken over if it does not refresh it within 10 s)\n',
    );
    rmSync(lock, { recursive: true });
    const exit = await writer.exited;
    expect(exit.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { timeout: '7' } },
    });
  });

  it('a live holder is named at once by its pid', async () => {
    const { dir, lock } = locked(`${process.pid}\n`);
    const writer = startPds(['config', 'set', 'timeout', '7'], { env: { PDS_CONFIG_DIR: dir } });
    await writer.waitFor(`waiting for the config lock, held by pid ${process.pid}\n`, 3_000);
    rmSync(`${lock}-pid`);
    rmSync(lock, { recursive: true });
    expect((await writer.exited).code).toBe(0);
  });

  it('a holder on this host whose pid is gone: taken over at once, said once', async () => {
    const gone = startPds(['--version']);
    const pid = String(gone.child.pid);
    await gone.exited;
    const { dir } = locked(`${pid}\n`);
    const result = await runPds(['config', 'set', 'timeout', '7'], { env: { PDS_CONFIG_DIR: dir } });
    expect(result).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `warning: took over the config lock of pid ${pid}, which stopped without releasing it\nSet timeout to 7 (profile default)\n`,
    });
    expect(result.ms).toBeLessThan(3_000);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });
});

describe('11. MCP', () => {
  it('a get of an unknown id names the kind, the id and the project; titles read as English', async () => {
    const server = await connectMcp(emulator);
    try {
      const missing = await callTool(server.client, 'get_artist', { id: 'art-missing-7' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toContain(`artist art-missing-7 not found in project ${DEMO_PROJECT}`);
      const { tools } = await server.client.listTools();
      const titles = new Map(tools.map((tool) => [tool.name, tool.title]));
      expect(titles.get('get_artist')).toBe('Get an artist');
      expect(titles.get('get_entity')).toBe('Get an entity');
      expect(titles.get('get_contract')).toBe('Get a contract');
      for (const title of titles.values()) expect(title ?? '').not.toMatch(/\ba [aeiou]/);
    } finally {
      await server.close();
    }
  });
});

describe('12. a spinner while a slow request runs', () => {
  let slow: Emulator;
  beforeAll(async () => {
    slow = await testEmulator({ latencyMs: 1_500 });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('sandbox exec on a terminal: a spinner on stderr after about a second, cleared before the output', async () => {
    const term = await ptyPds(['sandbox', 'exec', 'echo hello'], {
      cols: 80,
      env: signedInEnv(slow.url),
      killAfterMs: 20_000,
    });
    const started = Date.now();
    await term.waitFor('waiting for the service', 5_000);
    expect(Date.now() - started).toBeGreaterThan(800);
    const exit = await term.exited;
    expect(exit.code).toBe(0);
    // The spinner's line is gone: the screen holds the command's output alone.
    expect(await term.screen()).toEqual(['hello']);
    expect(term.cursorVisible()).toBe(true);
  }, 20_000);

  it('piped, or under CI: nothing on stderr', async () => {
    const piped = await runPds(['sandbox', 'exec', 'echo hello'], { env: signedInEnv(slow.url), killAfterMs: 20_000 });
    expect(piped).toMatchObject({ code: 0, stdout: 'hello\n', stderr: '' });
    const ci = await ptyPds(['sandbox', 'exec', 'echo hello'], {
      env: signedInEnv(slow.url, { CI: 'true' }),
      killAfterMs: 20_000,
    });
    expect((await ci.exited).code).toBe(0);
    expect(ci.raw()).not.toContain('waiting for the service');
  }, 20_000);
});

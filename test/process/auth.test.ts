// Sign-in as a real process: the prompt on a terminal (the pasted token hidden), no prompt without
// one, Ctrl-C while waiting for the browser, and two processes refreshing one sign-in at once.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { freshConfigDir } from '../helpers/cli.js';
import {
  captureBrowser,
  decide,
  deliver,
  readProfiles,
  signInDirectly,
  storedOAuth,
  writeProfiles,
} from '../helpers/oauth.js';
import { ptyPds, runPds, startPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const envFor = (dir: string, extra: Record<string, string | undefined> = {}) => ({
  PDS_CONFIG_DIR: dir,
  PDS_API_URL: emulator.url,
  PDS_TOKEN: undefined,
  PDS_PROFILE: undefined,
  ...extra,
});

describe('pds auth login on a terminal', () => {
  it('asks browser-or-paste; a pasted token is never shown', async () => {
    const dir = freshConfigDir();
    const term = await ptyPds(['auth', 'login'], { env: envFor(dir) });
    await term.waitFor('How do you want to sign in');
    expect((await term.screen()).join('\n')).toContain('With a web browser');
    term.write('\u001b[B');
    await term.waitFor(/❯ Paste an API token|> Paste an API token/);
    term.write('\r');
    await term.waitFor('Paste your API token');
    term.write('demo-org-token');
    // Give the prompt time to (not) echo what was typed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(term.raw()).not.toContain('demo-org-token');
    term.write('\r');
    const exit = await term.exited;
    const screen = (await term.screen()).join('\n');
    expect(exit.code).toBe(0);
    expect(screen).toContain(`Logged in to ${emulator.url} as organization (2 projects) (profile default)`);
    expect(screen).not.toContain('demo-org-token');
    expect(term.raw()).not.toContain('demo-org-token');
    expect(readProfiles(dir)).toEqual({ default: { token: 'demo-org-token' } });
  });

  it('signs in with the browser when that is chosen', async () => {
    const dir = freshConfigDir();
    const capture = captureBrowser();
    const term = await ptyPds(['auth', 'login'], { env: envFor(dir, { BROWSER: capture.command }) });
    await term.waitFor('How do you want to sign in');
    term.write('\r');
    await deliver(await decide(await capture.url(), 'approve'));
    const exit = await term.exited;
    expect(exit.code).toBe(0);
    expect((await term.screen()).join('\n')).toContain('through the browser (profile default)');
    expect(Object.keys(readProfiles(dir).default ?? {}).sort()).toEqual(['oauth', 'oauth_client']);
  });

  it('Ctrl-C at the question ends with 130 and stores nothing', async () => {
    const dir = freshConfigDir();
    const term = await ptyPds(['auth', 'login'], { env: envFor(dir) });
    await term.waitFor('How do you want to sign in');
    term.write('\u0003');
    const exit = await term.exited;
    expect(exit.code).toBe(130);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('pds auth login without a terminal', () => {
  it('never prompts: exit 2 naming --with-token and --web', async () => {
    const dir = freshConfigDir();
    const result = await runPds(['auth', 'login'], { env: envFor(dir) });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: no token on stdin\n' +
        '  pipe a token in: `pds auth login --with-token < token.txt`, or sign in with a browser: `pds auth login --web`\n',
    });
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('waiting for the browser', () => {
  it('Ctrl-C cancels within a second with 130; the loopback port is closed, no credential stored', async () => {
    const dir = freshConfigDir();
    const capture = captureBrowser();
    const pds = startPds(['auth', 'login', '--web'], { env: envFor(dir, { BROWSER: capture.command }) });
    await pds.waitFor('Ctrl-C cancels');
    const redirect = new URL((await capture.url()).searchParams.get('redirect_uri') ?? '');
    const sent = Date.now();
    pds.child.kill('SIGINT');
    const exit = await pds.exited;
    expect(exit.code).toBe(130);
    expect(Date.now() - sent).toBeLessThan(1000);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(redirect.port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    // Not even the client registered for it: a cancelled sign-in leaves the config as it was.
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('two processes refreshing one sign-in at once', () => {
  it('refresh once under the lock: both succeed, the grant stays valid', async () => {
    // A slow token endpoint keeps the first refresh in flight while the others arrive.
    const slow = await testEmulator({ flavor: 'current', latencyMs: 300 });
    try {
      const dir = freshConfigDir();
      const grant = await signInDirectly(slow);
      writeProfiles(dir, { default: { oauth: storedOAuth(slow, grant, new Date(Date.now() - 1000)) } });
      slow.requests.length = 0;
      const env = { PDS_CONFIG_DIR: dir, PDS_API_URL: slow.url, PDS_TOKEN: undefined };
      const runs = await Promise.all(
        [1, 2, 3].map(() => runPds(['projects', 'ls', '-q'], { env, killAfterMs: 20_000 })),
      );
      for (const run of runs) {
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
      }
      const tokenCalls = slow.requests.filter((r) => r.path === '/oauth/token');
      expect(tokenCalls.map((r) => r.status)).toEqual([200]);
      const stored = (readProfiles(dir).default as { oauth: { refresh_token: string } }).oauth;
      expect(stored.refresh_token).not.toBe(grant.refresh_token);
      expect(slow.oauth.grantActive(stored.refresh_token)).toBe(true);
      expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
    } finally {
      await slow.close();
    }
  });
});

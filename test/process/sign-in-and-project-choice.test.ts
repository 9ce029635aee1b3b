// Signing in and choosing a project, through the built CLI (bin/pds.js as a child, over pipes or a
// terminal): no service reachable, a bad token and where it came from, not logged in, the default
// project after `auth login`, -p by exact name, and the current project and profile marked.
import { createServer } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir } from '../helpers/cli.js';
import { ptyPds, runPds, signedInEnv, startPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const SECOND_PROJECT = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const profiles = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, string>> })
    .profiles;

describe('no service reachable', () => {
  it('says so, suggests the emulator for that port, and the suggestion works', async () => {
    const port = await closedPort();
    const env = signedInEnv(`http://127.0.0.1:${port}`, { PDS_RETRY_BUDGET: '0' });
    const failed = await runPds(['projects', 'ls', '-q'], { env });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`error: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)\n`);
    const suggested = /run `(pds emulator start[^`]*)`/.exec(failed.stderr)?.[1];
    expect(suggested).toBe(`pds emulator start --port ${port}`);
    const started = startPds([...(suggested as string).split(' ').slice(1)], {
      env: { PDS_CONFIG_DIR: env.PDS_CONFIG_DIR },
    });
    try {
      await started.waitFor(String(port));
      const again = await runPds(['projects', 'ls', '-q'], { env });
      expect(again).toMatchObject({ code: 0, stderr: '' });
      expect(again.stdout).toContain(`${DEMO_PROJECT}\n`);
    } finally {
      started.child.kill('SIGINT');
      await started.exited;
    }
  });
});

describe('a bad token', () => {
  it('says where it came from', async () => {
    const env = signedInEnv(emulator.url, { PDS_TOKEN: 'revoked' });
    expect(await runPds(['projects', 'ls'], { env })).toMatchObject({
      code: 3,
      stdout: '',
      stderr:
        'error: invalid or expired token\n  the token in use is PDS_TOKEN\n  set PDS_TOKEN to a valid API token, or unset it and sign in: `pds auth login`\n',
    });
    const official = await runPds(['projects', 'ls'], {
      env: { ...env, PDS_TOKEN: undefined, ROYALTYPORT_TOKEN: 'revoked' },
    });
    expect(official.stderr).toContain('  the token in use is ROYALTYPORT_TOKEN\n');
    const dir = freshConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { work: { token: 'revoked' } } }));
    const stored = await runPds(['--profile', 'work', 'projects', 'ls'], {
      env: { ...env, PDS_TOKEN: undefined, PDS_CONFIG_DIR: dir },
    });
    expect(stored.stderr).toContain('  the token in use is the token of profile work\n');
  });
});

describe('not logged in, and no project', () => {
  it('is reported as not logged in first, and nothing is sent', async () => {
    const before = emulator.requests.length;
    const result = await runPds(['contracts', 'ls'], {
      env: {
        PDS_CONFIG_DIR: freshConfigDir(),
        PDS_API_URL: emulator.url,
        PDS_TOKEN: undefined,
        PDS_PROJECT: undefined,
      },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: not logged in\n/);
    expect(emulator.requests.length).toBe(before);
  });
});

describe('after auth login', () => {
  it('the only project becomes the default; with several, the next step is printed', async () => {
    const dir = freshConfigDir();
    // No D-Bus session, so no keychain: login says where the token is kept (test/process/keychain.test.ts).
    const env = {
      PDS_CONFIG_DIR: dir,
      PDS_API_URL: emulator.url,
      PDS_TOKEN: undefined,
      PDS_PROJECT: undefined,
      DBUS_SESSION_BUS_ADDRESS: undefined,
    };
    const one = await runPds(['auth', 'login', '--with-token'], { env, stdin: 'demo-project-token' });
    expect(one.stderr).toBe(
      `warning: no keychain to keep the credential in (no D-Bus session, so no Secret Service): it is kept in ${join(dir, 'config.json')} (mode 0600)\n` +
        `Logged in to ${emulator.url} as project Northern Lights Catalog (${DEMO_PROJECT}) (profile default)\n` +
        `Using project Northern Lights Catalog (${DEMO_PROJECT}), the only one this token reaches\n`,
    );
    expect(profiles(dir).default?.project).toBe(DEMO_PROJECT);
    expect((await runPds(['contracts', 'ls', '-q', '--per-page', '1'], { env })).code).toBe(0);
    const several = await runPds(['--profile', 'org', 'auth', 'login', '--with-token'], {
      env,
      stdin: 'demo-org-token',
    });
    expect(several.stderr).toContain('Next: choose a project with `pds use <name>` (`pds projects ls` lists the 2)\n');
    expect(profiles(dir).org?.project).toBeUndefined();
  });
});

describe('-p takes an exact project name', () => {
  it('as pds use does', async () => {
    const result = await runPds(['artists', 'ls', '-q', '--per-page', '1', '-p', 'Harbor Sessions'], {
      env: signedInEnv(emulator.url),
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(emulator.requests.at(-1)?.query.projectId).toBe(SECOND_PROJECT);
  });
});

describe('where am I', () => {
  it('projects ls marks the current project; auth list lists profiles and marks the current one', async () => {
    const term = await ptyPds(['projects', 'ls'], { env: { ...signedInEnv(emulator.url), NO_COLOR: '1' } });
    await term.exited;
    const screen = await term.screen();
    expect(screen.find((line) => line.includes(DEMO_PROJECT))).toMatch(/^\* {2}/);
    expect(screen.find((line) => line.includes(SECOND_PROJECT))).toMatch(/^ {3}/);

    const dir = freshConfigDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        profiles: {
          default: { token: 't1', project: DEMO_PROJECT },
          staging: { 'api-url': 'https://staging.example.com', token: 't2' },
        },
      }),
    );
    const listed = await runPds(['--profile', 'staging', 'auth', 'list'], {
      env: { PDS_CONFIG_DIR: dir, PDS_TOKEN: undefined },
    });
    expect(listed).toMatchObject({
      code: 0,
      stdout: `\tPROFILE\tAPI URL\tCREDENTIAL\tPROJECT\n\tdefault\thttp://127.0.0.1:4010\ttoken\t${DEMO_PROJECT}\n*\tstaging\thttps://staging.example.com\ttoken\t\n`,
    });
    const csv = await runPds(['auth', 'list', '--format', 'csv'], {
      env: { PDS_CONFIG_DIR: dir, PDS_TOKEN: undefined },
    });
    expect(csv.stdout).toBe(
      `current,profile,api_url,credential,project\r\ntrue,default,http://127.0.0.1:4010,token,${DEMO_PROJECT}\r\nfalse,staging,https://staging.example.com,token,\r\n`,
    );
  });
});

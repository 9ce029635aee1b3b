// A newcomer's first hour, through the built CLI (bin/pds.js as a child, over pipes or a terminal):
// each stumble of issue 21's list that a real process shows.
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir } from '../helpers/cli.js';
import { ptyPds, runPds, signedInEnv, startPds } from '../helpers/process.js';

const emulator = sharedEmulator();
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

describe('1. no service reachable', () => {
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

describe('2. a bad token', () => {
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

describe('3. not logged in, and no project', () => {
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

describe('4. after auth login', () => {
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

describe('5. -p takes an exact project name', () => {
  it('as pds use does', async () => {
    const result = await runPds(['artists', 'ls', '-q', '--per-page', '1', '-p', 'Harbor Sessions'], {
      env: signedInEnv(emulator.url),
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(emulator.requests.at(-1)?.query.projectId).toBe(SECOND_PROJECT);
  });
});

describe('6. a noun alone', () => {
  it('prints its short help on stdout and exits 0', async () => {
    const result = await runPds(['projects'], { env: signedInEnv(emulator.url) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: pds projects /);
    expect(result.stdout).toContain('Global options: -p, --project, --profile');
    expect(result.stdout).not.toContain('--retry-budget <seconds>');
  });
});

describe('8. where am I', () => {
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

describe('10. statements not yet processed', () => {
  it('show processing, not blank columns', async () => {
    // A statement exists once staged (one step), and is processed three steps later.
    const slow = await testEmulator({ processingMs: 1_500 });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'pds-first-hour-'));
      const pdf = join(dir, 'new.pdf');
      writeFileSync(pdf, '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
      const env = signedInEnv(slow.url);
      expect((await runPds(['upload', 'statement', pdf, '-q'], { env })).code).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_700));
      const listed = await runPds(['statements', 'ls', '--all'], { env });
      const row = listed.stdout.split('\n').find((line) => line.includes('new.pdf'));
      expect(row?.split('\t').slice(1, 5)).toEqual(['new.pdf', 'processing', 'processing', 'processing']);
      const json = JSON.parse((await runPds(['statements', 'ls', '--all', '--json'], { env })).stdout) as {
        file_name?: string;
        statement_type?: unknown;
      }[];
      expect(json.find((s) => s.file_name === 'new.pdf')?.statement_type ?? null).toBeNull();
    } finally {
      await slow.close();
    }
  });
});

describe('12. pds api piped', () => {
  it('ends its output with a newline', async () => {
    const result = await runPds(['api', 'projects'], { env: signedInEnv(emulator.url) });
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith('}\n')).toBe(true);
  });
});

describe('13. download -o - to a terminal', () => {
  it('refuses with exit 2, as curl does, and sends nothing', async () => {
    const id = emulator.state.data[DEMO_PROJECT_ID]?.contracts[0]?.id as string;
    const before = emulator.requests.length;
    const term = await ptyPds(['contracts', 'download', id, '-o', '-'], { env: signedInEnv(emulator.url) });
    const exit = await term.exited;
    expect(exit.code).toBe(2);
    expect((await term.screen()).join('\n')).toContain('error: refusing to write a binary file to the terminal');
    expect(emulator.requests.length).toBe(before);
  });
});

describe('15. sandbox shell', () => {
  it('Tab completes workspace paths, Up recalls the last line, clear clears the screen', async () => {
    const term = await ptyPds(['sandbox', 'shell'], { env: { ...signedInEnv(emulator.url), NO_COLOR: '1' } });
    await term.waitFor('$ ');
    // `AGE` + Tab: the only root entry that starts so.
    term.write('cat AGE\t');
    // (The intro line names `cat AGENTS.md` too: the completed line is the one after the prompt.)
    await term.waitFor(/Catalog:\/\$ [^]*cat AGENTS\.md/);
    term.write('\r');
    await term.waitFor('# Project workspace: Northern Lights Catalog');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Up brings the line back (shown after the prompt), Ctrl-C drops it unrun.
    const shown = term.raw().length;
    term.write('\u001b[A');
    await term.waitFor(/cat AGENTS\.md[^]*# Project workspace[^]*cat AGENTS\.md/);
    expect(term.raw().slice(shown)).toContain('cat AGENTS.md');
    term.write('\u0003');
    term.write('clear\r');
    // Home, then clear to the end of the screen.
    await term.waitFor('\u001b[1;1H\u001b[0J');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const screen = await term.screen();
    // Cleared: only the prompt is left, at the top.
    expect(screen).toHaveLength(1);
    expect(screen[0]).toMatch(/^pds:Northern Lights Catalog:\/\$ ?$/);
    term.write('exit\r');
    expect((await term.exited).code).toBe(0);
  });
});

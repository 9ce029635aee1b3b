// --dry-run on the commands that write other than uploads (those are in test/process/upload-batch):
// each does its checks and reads, says what it would do, and changes nothing, here or at the service.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { answerOf, sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir, runCli, type RunOptions } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'current' });

// The records the dry runs name, as the emulator lists them (read before the tests): the first
// contract, and the first two statements.
let contract: string;
let statementA: string;
let statementB: string;
beforeAll(async () => {
  const of = `projectId=${DEMO_PROJECT_ID}&page=1&perPage=2`;
  contract = (await answerOf<{ id: string }[]>(emulator, `/v1/contracts?${of}`))[0]?.id as string;
  [statementA, statementB] = (await answerOf<{ items: { id: number }[] }>(emulator, `/v1/statements?${of}`)).items.map(
    (statement) => String(statement.id),
  ) as [string, string];
  expect([contract, statementA, statementB].every((id) => typeof id === 'string' && id !== 'undefined')).toBe(true);
});

let dir: string;
beforeEach(() => {
  dir = freshConfigDir();
  emulator.storage.requests.length = 0;
});

const pds = (args: string[], options: RunOptions = {}) =>
  runCli(emulator, args, { project: null, ...options, env: { PDS_CONFIG_DIR: dir, ...options.env } });
const configFile = () => join(dir, 'config.json');
const writes = () => emulator.requests.filter((r) => r.method !== 'GET');

describe('--dry-run', () => {
  it('config set and unset, and use, write no config', async () => {
    expect(await pds(['config', 'set', 'timeout', '5', '--dry-run'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Would set timeout to 5 (profile default); nothing was written (--dry-run)\n',
    });
    expect(existsSync(configFile())).toBe(false);
    // A bad value fails as it would for real.
    expect((await pds(['config', 'set', 'timeout', 'soon', '--dry-run'])).code).toBe(2);

    expect((await pds(['config', 'set', 'timeout', '5'])).code).toBe(0);
    const before = readFileSync(configFile(), 'utf8');
    expect((await pds(['--dry-run', 'config', 'unset', 'timeout'])).stderr).toBe(
      'Would unset timeout (profile default); nothing was written (--dry-run)\n',
    );
    expect((await pds(['use', DEMO_PROJECT, '--dry-run'])).stderr).toMatch(
      new RegExp(`^Would use .+ \\(${DEMO_PROJECT}\\) in profile default; nothing was written \\(--dry-run\\)\\n$`),
    );
    expect(readFileSync(configFile(), 'utf8')).toBe(before);
    expect(writes()).toEqual([]);
  });

  it('auth logout keeps the stored credential', async () => {
    expect((await pds(['auth', 'login', '--with-token'], { token: null, stdin: 'demo-org-token\n' })).code).toBe(0);
    const before = readFileSync(configFile(), 'utf8');
    const result = await pds(['auth', 'logout', '--dry-run'], { token: null });
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: `Would log out of ${emulator.url} (profile default): forget the stored credential; nothing was changed (--dry-run)\n`,
    });
    expect(readFileSync(configFile(), 'utf8')).toBe(before);
  });

  it('downloads read the links and fetch no file, write none', async () => {
    const out = join(freshConfigDir(), 'files');
    const ids = (emulator.state.data[DEMO_PROJECT_ID]?.contracts ?? []).slice(0, 2).map((c) => c.id);
    const result = await pds(['contracts', 'download', ...ids, '-o', `${out}/`, '--dry-run'], {
      project: DEMO_PROJECT,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^would download contract ${ids[0]} to ${out}/\\S.*\\nwould download contract ${ids[1]} to ${out}/\\S.*\\n$`,
      ),
    );
    expect(result.stderr).toBe('dry run: 2 would download\n');
    expect(existsSync(out)).toBe(false);
    expect(emulator.storage.requests).toEqual([]);
    expect(writes()).toEqual([]);

    // A file named as the target stays as it is.
    const target = join(freshConfigDir(), 'one.pdf');
    writeFileSync(target, 'old');
    const one = await pds(['contracts', 'download', ids[0] as string, '-o', target, '--dry-run', '--json'], {
      project: DEMO_PROJECT,
    });
    expect(JSON.parse(one.stdout)).toEqual([{ id: ids[0], file: target, would: 'download' }]);
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(join(target, '..'))).toEqual(['one.pdf']);
  });

  it('projects create, tags, retry, statements update and a POST by pds api say what they would send, and send no write', async () => {
    emulator.requests.length = 0;
    const opts = { project: DEMO_PROJECT };
    expect(await pds(['projects', 'create', 'Back catalogue', '--entity-name', 'Nova', '--dry-run'])).toEqual({
      code: 0,
      stdout: '',
      stderr: "Would create project 'Back catalogue' for Nova; nothing was sent (--dry-run)\n",
    });
    expect((await pds(['contracts', 'tag', contract, 'urgent', 'review', '--dry-run'], opts)).stderr).toBe(
      `Would set the tags of contract ${contract} to urgent, review; nothing was sent (--dry-run)\n`,
    );
    // --add reads the current tags, as the real run does, and says the list it would send.
    expect((await pds(['contracts', 'tag', contract, 'urgent', '--add', '--dry-run'], opts)).stderr).toMatch(
      new RegExp(`^Would set the tags of contract ${contract} to (.+, )?urgent; nothing was sent \\(--dry-run\\)\\n$`),
    );
    expect((await pds(['statements', 'tag', statementA, '--clear', '--dry-run'], opts)).stderr).toBe(
      `Would set the tags of statement ${statementA} to none; nothing was sent (--dry-run)\n`,
    );
    expect((await pds(['statements', 'retry', '1001', '--dry-run'], opts)).stderr).toBe(
      'Would queue statement staging 1001 again; nothing was sent (--dry-run)\n',
    );
    expect(
      (
        await pds(
          [
            'statements',
            'update',
            statementB,
            '--payee',
            'Nova',
            '--accounting-period',
            '2026-q3',
            '--clear-payor',
            '--dry-run',
          ],
          opts,
        )
      ).stderr,
    ).toBe(
      `Would change statement ${statementB}: payee Nova, payor cleared, accountingPeriod 2026Q3; nothing was sent (--dry-run)\n`,
    );
    expect((await pds(['api', '-X', 'POST', 'projects', '-f', 'name=x', '--dry-run'])).stderr).toBe(
      'Would send POST /v1/projects with a JSON body of 12 bytes; nothing was sent (--dry-run)\n',
    );
    // Bad input fails as for real.
    expect(
      (await pds(['statements', 'update', statementB, '--accounting-period', '2026Q9', '--dry-run'], opts)).code,
    ).toBe(2);
    expect(writes()).toEqual([]);
    expect(emulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/contracts/${contract}`]);
  });

  it('is refused, not ignored, by the commands that cannot do without writing: exit 2, nothing sent', async () => {
    emulator.requests.length = 0;
    const cases: [string[], string][] = [
      [
        ['auth', 'login', '--with-token'],
        '`pds auth login`: it signs in and saves the credential; `pds auth status` checks one without saving anything',
      ],
      [
        ['sandbox', 'exec', 'ls'],
        '`pds sandbox exec`: the sandbox runs the commands; `pds sandbox ls` and `cat` only read',
      ],
      [['sandbox', 'connect'], '`pds sandbox connect`: it starts a sandbox session'],
      [['emulator', 'start', '--port', '0'], '`pds emulator start`: it starts a server (writing only its --data file)'],
      [['mcp'], '`pds mcp`: it serves tools to an agent; without --allow-writes they cannot write'],
    ];
    for (const [args, reason] of cases) {
      expect(await pds([...args, '--dry-run'], { project: DEMO_PROJECT, stdin: 'demo-org-token\n' })).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: --dry-run does not apply to ${reason}\n`,
      });
    }
    expect(emulator.requests).toEqual([]);
    expect(existsSync(configFile())).toBe(false);
  });
});

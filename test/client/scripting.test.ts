// --jq and --fields on lists and gets, against the emulator.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

const TTY = { tty: true, env: { NO_COLOR: '1' } };
const emulator = sharedEmulator({ flavor: 'current' });
const sent = () => emulator.requests.map((r) => `${r.method} ${r.path}`);

interface Contract {
  id: string;
  name: string;
  created_at: string;
  file_name: string;
  royalties: unknown[];
  splits: unknown[];
  'accounting-periods': unknown[];
}
/** What the emulator answers, read before the tests (their request logs start empty). */
const served = {} as {
  /** The first two contracts, with the includes the tests ask for. */
  contracts: [Contract, Contract];
  statementCount: number;
  artist: { id: string };
  writer: { id: string; name: string; merged: unknown[] };
};
beforeAll(async () => {
  const of = `projectId=${DEMO_PROJECT}&page=1`;
  served.contracts = await answerOf(
    emulator,
    `/v1/contracts?${of}&perPage=2&includes=royalties,splits,accounting-periods`,
  );
  served.statementCount = (
    await answerOf<{ total_count: number }>(emulator, `/v1/statements?${of}&perPage=1`)
  ).total_count;
  [served.artist] = await answerOf<[{ id: string }]>(emulator, `/v1/artists?${of}&perPage=1`);
  [served.writer] = await answerOf<[{ id: string; name: string; merged: unknown[] }]>(
    emulator,
    `/v1/writers?${of}&perPage=1&includeMerged=true`,
  );
});
/** A timestamp as a table shows it: date and minutes, UTC. */
const minutes = (at: string) => at.slice(0, 16).replace('T', ' ');

describe('--jq', () => {
  it('prints string results raw, one per line', async () => {
    const result = await runCli(emulator, ['contracts', 'ls', '--per-page', '2', '--jq', '.[].name']);
    const [first, second] = served.contracts;
    expect(result).toEqual({ code: 0, stdout: `${first.name}\n${second.name}\n`, stderr: '' });
  });

  it('prints other results as JSON: one line each when piped, indented on a terminal', async () => {
    const [first, second] = served.contracts;
    const piped = await runCli(emulator, ['contracts', 'ls', '--per-page', '2', '--jq', '.[] | {id, n: 1}']);
    expect(piped.stdout).toBe(`{"id":"${first.id}","n":1}\n{"id":"${second.id}","n":1}\n`);
    const tty = await runCli(emulator, ['contracts', 'ls', '--per-page', '1', '--jq', '.[0] | {id}'], TTY);
    expect(tty.stdout).toBe(`{\n  "id": "${first.id}"\n}\n`);
  });

  it('implies --json on a get, and an empty result prints nothing', async () => {
    const { id } = served.contracts[0];
    expect((await runCli(emulator, ['contracts', 'get', id, '--jq', '.id'])).stdout).toBe(`${id}\n`);
    expect(await runCli(emulator, ['contracts', 'get', id, '--jq', 'empty'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('applies to the whole array with --all', async () => {
    const result = await runCli(emulator, ['statements', 'ls', '--all', '--jq', 'length']);
    expect(result.stdout).toBe(`${served.statementCount}\n`);
    // Every page was fetched, at 100 a page.
    expect(served.statementCount).toBeGreaterThan(100);
    expect(sent()).toEqual(Array.from({ length: Math.ceil(served.statementCount / 100) }, () => 'GET /v1/statements'));
  });

  it('a bad expression is exit 2 with jq’s message, and nothing is sent', async () => {
    const result = await runCli(emulator, ['contracts', 'ls', '--jq', '.[']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: --jq: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1:\n  .[\n',
    );
    expect(emulator.requests).toEqual([]);
  });

  it('an expression that fails on the data is exit 2 with jq’s message', async () => {
    const result = await runCli(emulator, ['contracts', 'get', served.contracts[0].id, '--jq', '.name.first']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'error: --jq: Cannot index string with string "first"\n' });
  });

  it('keeps service control characters off a terminal: shown as escapes, lines and tabs kept', async () => {
    const { id } = served.contracts[0];
    const result = await runCli(emulator, ['contracts', 'get', id, '--jq', '"a\\u001b[31mb\\r\\tc\\nd"'], TTY);
    expect(result.stdout).toBe('a\\x1b[31mb\\r\tc\nd\n');
    const piped = await runCli(emulator, ['contracts', 'get', id, '--jq', '"a\\u001b[31mb\\r\\tc\\nd"']);
    expect(piped.stdout).toBe('a\u001b[31mb\r\tc\nd\n');
  });
});

describe('--fields', () => {
  it('chooses and orders the columns of a table, TSV and JSON', async () => {
    const args = ['contracts', 'ls', '--per-page', '2', '--fields', 'created_at,id'];
    const contracts = served.contracts;
    expect((await runCli(emulator, args)).stdout).toBe(
      `CREATED_AT\tID\n${contracts.map((c) => `${c.created_at}\t${c.id}\n`).join('')}`,
    );
    // A table: the date to the minute, columns two spaces apart.
    expect((await runCli(emulator, args, TTY)).stdout).toBe(
      `${'CREATED_AT'.padEnd(18)}ID\n${contracts.map((c) => `${minutes(c.created_at)}  ${c.id}\n`).join('')}`,
    );
    expect(JSON.parse((await runCli(emulator, [...args, '--json'])).stdout)).toEqual(
      contracts.map((c) => ({ created_at: c.created_at, id: c.id })),
    );
  });

  it('works on a get, and with --jq the filter sees only those fields', async () => {
    const [first] = served.contracts;
    expect((await runCli(emulator, ['contracts', 'get', first.id, '--fields', 'name,id'])).stdout).toBe(
      `name\t${first.name}\nid\t${first.id}\n`,
    );
    expect((await runCli(emulator, ['projects', 'get', '--fields', 'id', '--jq', 'keys'])).stdout).toBe('["id"]\n');
  });

  it('-q still prints ids', async () => {
    const plain = await runCli(emulator, ['artists', 'ls', '--per-page', '2', '-q']);
    expect(plain.stdout).toMatch(/^\S+\n\S+\n$/);
    expect((await runCli(emulator, ['artists', 'ls', '--per-page', '2', '--fields', 'name', '-q'])).stdout).toBe(
      plain.stdout,
    );
  });

  it('an unknown field is exit 2 listing the fields of that resource, with nothing printed', async () => {
    // A field the resource does not document may still be in its records (--fields takes those):
    // it is checked against the first page, or the record, before anything is printed.
    for (const verb of [
      ['artists', 'ls'],
      ['artists', 'get', served.artist.id],
      ['projects', 'ls'],
      ['projects', 'get', DEMO_PROJECT],
    ]) {
      const result = await runCli(emulator, [...verb, '--fields', 'id,nmae']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^error: unknown field 'nmae' for (artists|projects)\n {2}fields of (artists|projects): id, .*\bname\b/,
      );
    }
    expect(emulator.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
  });

  it('an empty list of fields is exit 2', async () => {
    expect(await runCli(emulator, ['artists', 'ls', '--fields', ' , '])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --fields needs at least one field name, e.g. --fields id,name\n',
    });
  });
});

describe('--jq and --fields where they mean nothing', () => {
  it('is exit 2 naming the command, and nothing is sent', async () => {
    const cases: [string[], string][] = [
      [
        ['sandbox', 'info', '--fields', 'x'],
        '--fields does not apply to `pds sandbox info`: it prints no list or record',
      ],
      [['use', DEMO_PROJECT, '--jq', '.'], '--jq does not apply to `pds use`: it prints no JSON'],
      [
        ['contracts', 'download', served.contracts[0].id, '--fields', 'id'],
        '--fields does not apply to `pds contracts download`: it prints no list or record',
      ],
      [
        ['contracts', 'status', served.contracts[0].id, '--fields', 'state'],
        '--fields does not apply to `pds contracts status`: it prints no list or record',
      ],
      [['auth', 'token', '--jq', '.'], '--jq does not apply to `pds auth token`: it prints no JSON'],
      [
        ['sandbox', 'exec', 'ls', '--fields', 'stdout'],
        '--fields does not apply to `pds sandbox exec`: it prints no list or record',
      ],
    ];
    for (const [args, message] of cases) {
      expect(await runCli(emulator, args), args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: ${message}\n`,
      });
    }
    expect(emulator.requests).toEqual([]);
  });

  it('--jq still filters every command that prints JSON', async () => {
    expect((await runCli(emulator, ['sandbox', 'info', '--jq', '.type'])).stdout).toBe('file\n');
    expect(
      (await runCli(emulator, ['mcp', 'config', '--client', 'claude', '--jq', '.mcpServers | keys[0]'])).stdout,
    ).toBe('pds\n');
  });
});

describe('lists and profiles', () => {
  it('contracts ls --include shows a count per include, in the table and the TSV', async () => {
    const args = [
      'contracts',
      'ls',
      '--per-page',
      '2',
      '--include',
      'royalties',
      '--include',
      'splits,accounting-periods',
    ];
    const counts = (c: Contract) => [c.royalties.length, c.splits.length, c['accounting-periods'].length];
    expect((await runCli(emulator, args)).stdout).toBe(
      `ID\tNAME\tFILE\tCREATED\tROYALTIES\tSPLITS\tACCOUNTING-PERIODS\n${served.contracts
        .map((c) => `${[c.id, c.name, c.file_name, c.created_at, ...counts(c)].join('\t')}\n`)
        .join('')}`,
    );
    const [first] = served.contracts;
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const table = (await runCli(emulator, args, TTY)).stdout.split('\n');
    // At 120 columns names and file names give way (a file name in its middle, keeping its
    // extension) to the counts asked for, which are never cut, and to the date.
    expect(table[0]).toMatch(/^ID +NAME +FILE +CREATED +ROYALTIES +SPLITS +ACCOUNTING-PERIODS$/);
    // The name cut to 26 characters, the file name to 18 of its start and 8 of its end.
    expect(table[1]).toMatch(
      new RegExp(
        `^${first.id} +${escaped(first.name.slice(0, 26))}… +${escaped(first.file_name.slice(0, 18))}…${escaped(first.file_name.slice(-8))} +${minutes(first.created_at)} +${counts(first).join(' +')}$`,
      ),
    );
    expect(Math.max(...table.map((line) => line.length))).toBeLessThanOrEqual(120);
    const wide = (await runCli(emulator, args, { ...TTY, columns: 200 })).stdout.split('\n');
    expect(wide[0]).toMatch(/^ID +NAME +FILE +CREATED +ROYALTIES +SPLITS +ACCOUNTING-PERIODS$/);
    expect(wide[1]).toMatch(new RegExp(`^${first.id} .* ${minutes(first.created_at)} +${counts(first).join(' +')}$`));
  });

  it('the MERGED column appears only with --merged', async () => {
    const { id, name, merged } = served.writer;
    const idWidth = Math.max('ID'.length, id.length) + 2;
    expect((await runCli(emulator, ['writers', 'ls', '--per-page', '1'], TTY)).stdout).toBe(
      `${'ID'.padEnd(idWidth)}NAME\n${id.padEnd(idWidth)}${name}\n`,
    );
    // MERGED is a count, right-aligned under its header.
    const nameWidth = Math.max('NAME'.length, name.length) + 2;
    expect((await runCli(emulator, ['writers', 'ls', '--per-page', '1', '--merged'], TTY)).stdout).toBe(
      `${'ID'.padEnd(idWidth)}${'NAME'.padEnd(nameWidth)}MERGED\n${id.padEnd(idWidth)}${name.padEnd(nameWidth)}${String(merged.length).padStart('MERGED'.length)}\n`,
    );
  });

  it('an unknown --profile is exit 2 listing the profiles, and nothing is sent', async () => {
    const env = { PDS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'pds-profiles-')) };
    writeFileSync(join(env.PDS_CONFIG_DIR, 'config.json'), JSON.stringify({ profiles: { default: {}, staging: {} } }));
    expect(await runCli(emulator, ['--profile', 'prod', 'projects', 'ls'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown profile 'prod'\n  profiles: default, staging\n  `pds --profile prod auth login` creates it\n",
    });
    expect(emulator.requests).toEqual([]);
    expect((await runCli(emulator, ['--profile', 'staging', 'projects', 'ls', '-q'], { env })).code).toBe(0);
    expect((await runCli(emulator, ['--profile', 'default', 'projects', 'ls', '-q'])).code).toBe(0);
    // PDS_PROFILE the same way.
    emulator.requests.length = 0;
    expect(await runCli(emulator, ['projects', 'ls'], { env: { ...env, PDS_PROFILE: 'prod' } })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown profile 'prod'\n  profiles: default, staging\n  `pds --profile prod auth login` creates it\n",
    });
    expect(emulator.requests).toEqual([]);
    expect((await runCli(emulator, ['projects', 'ls', '-q'], { env: { ...env, PDS_PROFILE: 'staging' } })).code).toBe(
      0,
    );
  });

  it('`auth login --profile new` still creates the profile, as do `config set` and `use`', async () => {
    const env = { PDS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'pds-profiles-')) };
    expect(
      (
        await runCli(emulator, ['auth', 'login', '--with-token', '--profile', 'fresh'], {
          env,
          stdin: 'demo-org-token\n',
          token: null,
        })
      ).code,
    ).toBe(0);
    expect((await runCli(emulator, ['config', 'set', 'timeout', '9', '--profile', 'other'], { env })).code).toBe(0);
    expect((await runCli(emulator, ['use', DEMO_PROJECT, '--profile', 'third'], { env })).code).toBe(0);
    expect(
      (await runCli(emulator, ['config', 'set', 'timeout', '9'], { env: { ...env, PDS_PROFILE: 'fourth' } })).code,
    ).toBe(0);
    const config = JSON.parse(readFileSync(join(env.PDS_CONFIG_DIR, 'config.json'), 'utf8')) as {
      profiles: Record<string, unknown>;
    };
    expect(Object.keys(config.profiles).sort()).toEqual(['fourth', 'fresh', 'other', 'third']);
  });
});

describe('the README', () => {
  it('its example ids exist in the emulator’s seed, as `pds emulator start` serves it', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    // Gets of the catalog, and a statement's status (a contract's status takes the staging id an upload prints).
    const nouns = 'contracts|statements|entities|relations|artists|writers|recordings|compositions|projects';
    const pattern = new RegExp(`^pds ((?:${nouns}) get [\\w-]+|statements status \\w+)`, 'gm');
    const examples = [...readme.matchAll(pattern)].map((match) => (match[1] ?? '').split(' '));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    // The README's examples run against `pds emulator start`, which answers as the deployed service.
    const deployed = await testEmulator({ flavor: 'deployed' });
    try {
      for (const args of examples) {
        const result = await runCli(deployed, [...args, '-q']);
        expect(result.code, `pds ${args.join(' ')}: ${result.stderr}`).toBe(0);
      }
    } finally {
      await deployed.close();
    }
  });
});

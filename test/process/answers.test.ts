// Answers that keep what the service gave (issue 37), through the built CLI and `pds mcp`: search
// in the service's order; tag writes that never lose tags; pds api's PUT and PATCH; the emulator's
// writes answering as the service does; dotted --fields and spread CSV/TSV columns; a missing
// feature named; -p suggestions. Uses the bundle: `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { connectMcp, type Connected, type ToolResult } from '../helpers/mcp.js';
import { runPds, signedInEnv } from '../helpers/process.js';
import { example, startReplayServer, type ReplayServer } from '../helpers/replay-server.js';

const PROJECT: string = example('projects.get').data.id;

/**
 * A search answer in the deployed service's grouped form, ranked by the service and not by name:
 * the exact match first among artists (which carry no rank), recordings sent out of rank order.
 */
const RANKED = {
  recordings: [
    { id: 7702, name: 'Nova Lights', rank: 0.41 },
    { id: 7701, name: 'Reyes Road', rank: 0.77 },
  ],
  compositions: [],
  contracts: [{ id: 61001, matched_file_name: 'reyes-agreement.pdf', matched_keywords: 'reyes', rank: 0.3 }],
  entities: [],
  artists: [
    { id: 3001, name: 'Nova Reyes' },
    { id: 3002, name: 'Bastian Novak' },
    { id: 3003, name: 'Elias Novak' },
  ],
  writers: [],
};

let replay: ReplayServer;
let mcp: Connected;
const env = () => signedInEnv(replay.url, { PDS_TOKEN: 'replay-token', PDS_PROJECT: PROJECT });
beforeAll(async () => {
  replay = await startReplayServer();
  replay.alter = (path, data) => (path.endsWith('/search') ? RANKED : data);
  mcp = await connectMcp({ url: replay.url } as Emulator, [], {
    env: { PDS_PROJECT: PROJECT, PDS_TOKEN: 'replay-token' },
  });
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await replay?.close();
});

const names = (stdout: string): string[] =>
  (JSON.parse(stdout) as Record<string, unknown>[]).map((hit) => String(hit.name ?? hit.matched_file_name));

describe('search keeps the service order', () => {
  it('--type artist, with and without --limit: the service ranked Nova Reyes first', async () => {
    const limited = await runPds(['search', 'nova', 'reyes', '--type', 'artist', '--limit', '2', '--json'], {
      env: env(),
    });
    expect(limited.code, limited.stderr).toBe(0);
    expect(names(limited.stdout)).toEqual(['Nova Reyes', 'Bastian Novak']);
    const all = await runPds(['search', 'nova', 'reyes', '--type', 'artist', '--format', 'tsv'], { env: env() });
    expect(all.stdout).toBe(
      'TYPE\tID\tNAME\tSCORE\nartist\t3001\tNova Reyes\t\nartist\t3002\tBastian Novak\t\nartist\t3003\tElias Novak\t\n',
    );
  });

  it('across types, the order the README states: contracts, entities, artists, writers, recordings, compositions; a ranked group best first', async () => {
    const all = await runPds(['search', 'nova', 'reyes', '--json'], { env: env() });
    expect(names(all.stdout)).toEqual([
      'reyes-agreement.pdf',
      'Nova Reyes',
      'Bastian Novak',
      'Elias Novak',
      'Reyes Road',
      'Nova Lights',
    ]);
    const top = await runPds(['search', 'nova', 'reyes', '--limit', '2', '--json'], { env: env() });
    expect(names(top.stdout)).toEqual(['reyes-agreement.pdf', 'Nova Reyes']);
  });

  it('the MCP search tool gives the same order, with and without limit', async () => {
    const call = async (args: Record<string, unknown>) => {
      const result = (await mcp.client.callTool({ name: 'search', arguments: args })) as ToolResult;
      expect(result.isError).not.toBe(true);
      return ((result.structuredContent?.items ?? []) as { name: string }[]).map((hit) => hit.name);
    };
    expect(await call({ query: 'nova reyes', type: 'artist', limit: 2 })).toEqual(['Nova Reyes', 'Bastian Novak']);
    expect(await call({ query: 'nova reyes', type: ['artist'] })).toEqual([
      'Nova Reyes',
      'Bastian Novak',
      'Elias Novak',
    ]);
  });
});

describe('tag writes never lose tags', () => {
  /** Runs pds against `emulator`; the JSON it printed, its exit code and stderr. */
  const pdsOn = (emulator: Emulator) => async (args: string[]) => {
    const run = await runPds(args, { env: signedInEnv(emulator.url) });
    return { code: run.code, stderr: run.stderr, json: run.stdout.trim() === '' ? undefined : JSON.parse(run.stdout) };
  };
  const firstId = async (pds: ReturnType<typeof pdsOn>, resource: string): Promise<string> =>
    String((await pds([resource, 'ls', '--per-page', '1', '--json'])).json[0].id);
  const contractTags = async (pds: ReturnType<typeof pdsOn>): Promise<string[]> =>
    ((await pds(['tags', 'ls', '--scope', 'contracts', '--json'])).json as { tag: string }[]).map((t) => t.tag).sort();
  it('deployed forms: a contract shows no tags, so --add and --remove exit 2, send no write, and keep the tags set before', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const pds = pdsOn(emulator);
      const id = await firstId(pds, 'contracts');
      expect((await pds(['contracts', 'tag', id, 'alpha', 'gamma', '--json'])).code).toBe(0);
      for (const mode of ['--add', '--remove']) {
        emulator.requests.length = 0;
        const refused = await pds(['contracts', 'tag', id, 'beta', mode]);
        expect(refused).toEqual({
          code: 2,
          json: undefined,
          stderr:
            `error: ${mode} needs contract ${id}'s current tags, and this service does not show them\n` +
            '  nothing was changed: give the complete list instead, which replaces its tags\n' +
            `    pds contracts tag ${id} <every tag it should have>\n`,
        });
        expect(emulator.requests.filter((request) => request.method !== 'GET')).toEqual([]);
      }
      expect(await contractTags(pds)).toEqual(['alpha', 'gamma']);
      // The MCP tool is the same verb: refused the same way.
      const mcpClient = await connectMcp(emulator, ['--allow-writes']);
      try {
        const result = (await mcpClient.client.callTool({
          name: 'tag_contract',
          arguments: { id, tags: ['beta'], add: true },
        })) as ToolResult;
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toMatch(/^error: add needs contract \d+'s current tags/);
      } finally {
        await mcpClient.close();
      }
      expect(await contractTags(pds)).toEqual(['alpha', 'gamma']);
      const help = await runPds(['contracts', 'tag', '--help'], { env: signedInEnv(emulator.url) });
      expect(help.stdout).toContain('replace the tags of a contract with the complete list given');
    } finally {
      await emulator.close();
    }
  });

  it('deployed forms: a statement shows its tags, so --add and --remove read, change and write them', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const pds = pdsOn(emulator);
      const id = await firstId(pds, 'statements');
      expect((await pds(['statements', 'tag', id, 'beta', '--add', '--json'])).json.tags).toBe('beta');
      expect((await pds(['statements', 'tag', id, 'alpha', '--add', '--json'])).json.tags).toBe('beta,alpha');
      expect((await pds(['statements', 'get', id, '--json'])).json.tags).toEqual(['beta', 'alpha']);
      expect((await pds(['statements', 'tag', id, 'beta', '--remove', '--json'])).json.tags).toBe('alpha');
      expect((await pds(['statements', 'get', id, '--json'])).json.tags).toEqual(['alpha']);
    } finally {
      await emulator.close();
    }
  });

  it('the current flavor: a contract shows its tags, so --add keeps the ones set before', async () => {
    const emulator = await testEmulator({ flavor: 'current' });
    try {
      const pds = pdsOn(emulator);
      const id = await firstId(pds, 'contracts');
      await pds(['contracts', 'tag', id, 'alpha', '--json']);
      expect((await pds(['contracts', 'tag', id, 'beta', '--add', '--json'])).json.tags).toBe('alpha,beta');
      expect((await pds(['contracts', 'get', id, '--json'])).json.tags).toEqual(['alpha', 'beta']);
    } finally {
      await emulator.close();
    }
  });
});

describe('pds api takes PUT and PATCH, as gh api does', () => {
  it('-X PUT with -f sends a JSON body: the deployed service writes a statement with PUT', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const env = signedInEnv(emulator.url);
      const put = await runPds(
        ['api', '-X', 'PUT', 'statements/40002?projectId={project}', '-f', 'payee=Nova Records'],
        {
          env,
        },
      );
      expect(put.code, put.stderr).toBe(0);
      expect(JSON.parse(put.stdout).data).toMatchObject({ id: 40002, payee: 'Nova Records' });
      expect(emulator.requests.map((request) => [request.method, request.path])).toEqual([
        ['PUT', '/v1/statements/40002'],
      ]);
      const get = await runPds(['statements', 'get', '40002', '--json'], { env });
      expect(JSON.parse(get.stdout).payee).toBe('Nova Records');
    } finally {
      await emulator.close();
    }
  });

  it('-X PATCH with --input sends the file as the body, -f as the query', async () => {
    const sent = replay.requests.length;
    const patch = await runPds(
      ['api', '-X', 'patch', 'statements/72001', '-f', `projectId=${PROJECT}`, '--input', '-'],
      {
        env: env(),
        stdin: '{"payee":"Nova Records"}',
      },
    );
    // The replay has no PATCH route: what matters is what it received.
    expect(patch.code).toBe(5);
    const [request] = replay.requests.slice(sent);
    expect(request).toMatchObject({
      method: 'PATCH',
      path: '/v1/statements/72001',
      query: { projectId: PROJECT },
      body: '{"payee":"Nova Records"}',
    });
  });
});

describe('the emulator answers a write as the service does', () => {
  it('statements update answers the statement as it now is: the fields it left alone keep their values', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const env = signedInEnv(emulator.url);
      const before = JSON.parse((await runPds(['statements', 'get', '40002', '--json'], { env })).stdout);
      expect(before.accounting_period).toMatch(/^\d{4}/);
      const update = await runPds(['statements', 'update', '40002', '--payee', 'X', '--json'], { env });
      expect(update.code, update.stderr).toBe(0);
      const answer = JSON.parse(update.stdout);
      const after = JSON.parse((await runPds(['statements', 'get', '40002', '--json'], { env })).stdout);
      expect(after.payee).toBe('X');
      expect(answer).toMatchObject({
        payee: 'X',
        accounting_period: before.accounting_period,
        currency_royalty: after.currency_royalty,
      });
      expect(after.accounting_period).toBe(before.accounting_period);
    } finally {
      await emulator.close();
    }
  });
});

describe('nested values for scripts: dotted --fields, spread CSV and TSV columns', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'deployed' });
  });
  afterAll(() => emulator?.close());
  const pds = async (args: string[]) => {
    const run = await runPds(args, { env: signedInEnv(emulator.url) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return run.stdout;
  };
  const revenue = (stdout: string) =>
    (JSON.parse(stdout) as { financials: { licensor_revenue: number } }[]).map((s) => s.financials.licensor_revenue);

  it('--fields takes a dotted path in every format', async () => {
    const json = await pds([
      'statements',
      'ls',
      '--per-page',
      '2',
      '--fields',
      'id,financials.licensor_revenue',
      '--json',
    ]);
    const [first, second] = revenue(json);
    expect(typeof first).toBe('number');
    expect(JSON.parse(json)).toEqual([
      { id: 40001, financials: { licensor_revenue: first } },
      { id: 40002, financials: { licensor_revenue: second } },
    ]);
    const args = ['statements', 'ls', '--per-page', '2', '--fields', 'id,financials.licensor_revenue'];
    expect(await pds([...args, '--format', 'csv'])).toBe(
      `id,financials.licensor_revenue\r\n40001,${first}\r\n40002,${second}\r\n`,
    );
    expect(await pds([...args, '--format', 'tsv'])).toBe(
      `ID\tFINANCIALS.LICENSOR_REVENUE\n40001\t${first}\n40002\t${second}\n`,
    );
    expect(await pds([...args, '--format', 'ndjson'])).toBe(
      `{"id":40001,"financials":{"licensor_revenue":${first}}}\n{"id":40002,"financials":{"licensor_revenue":${second}}}\n`,
    );
    expect(await pds([...args, '--format', 'yaml'])).toContain(`financials:\n    licensor_revenue: ${first}\n`);
    expect(await pds([...args, '--jq', '.[0].financials.licensor_revenue'])).toBe(`${first}\n`);
    const score = JSON.parse(
      await pds(['contracts', 'get', '20001', '--score', '--fields', 'id,score.summary.score', '--json']),
    );
    expect(typeof score.score.summary.score).toBe('number');
    expect(
      await pds(['contracts', 'get', '20001', '--score', '--fields', 'id,score.summary.score', '--format', 'tsv']),
    ).toBe(`id\t20001\nscore.summary.score\t${score.score.summary.score}\n`);
  });

  it('CSV and TSV spread a nested object into dotted columns, join a list of scalars, keep a list of objects as JSON', async () => {
    const csv = await pds(['statements', 'ls', '--per-page', '1', '--format', 'csv']);
    const [header = '', row = ''] = csv.split('\r\n');
    const columns = header.split(',');
    expect(columns).toEqual(
      expect.arrayContaining([
        'financials.currency',
        'financials.period',
        'financials.licensee_revenue',
        'financials.licensor_revenue',
        'statement_summary.summary',
      ]),
    );
    expect(columns).not.toContain('financials');
    const record = JSON.parse(await pds(['statements', 'get', '40001', '--json']));
    expect(row).toContain(`"${record.statement_summary.summary.join('; ')}"`);
    const tsv = await pds(['statements', 'ls', '--per-page', '1', '--fields', 'id,financials', '--format', 'tsv']);
    expect(tsv).toBe(
      'ID\tFINANCIALS.CURRENCY\tFINANCIALS.PERIOD\tFINANCIALS.LICENSEE_REVENUE\tFINANCIALS.LICENSOR_REVENUE\n' +
        `40001\t${record.financials.currency}\t${record.financials.period}\t${record.financials.licensee_revenue}\t${record.financials.licensor_revenue}\n`,
    );
    const identifiers = await pds([
      'recordings',
      'ls',
      '--per-page',
      '1',
      '--fields',
      'id,identifiers',
      '--format',
      'csv',
    ]);
    const recording = JSON.parse(await pds(['recordings', 'ls', '--per-page', '1', '--json']))[0];
    const cell = identifiers.split('\r\n')[1]?.slice(`${recording.id},`.length) ?? '';
    expect(JSON.parse(cell.slice(1, -1).replaceAll('""', '"'))).toEqual(recording.identifiers);
  });

  it('a dotted path whose first part is no field is exit 2, nothing printed', async () => {
    const run = await runPds(['statements', 'ls', '--fields', 'id,finances.total', '--format', 'csv'], {
      env: signedInEnv(emulator.url),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: unknown field 'finances.total' for statements\n/);
  });
});

describe('a missing feature is named, and so is a missing project', () => {
  let seed: Emulator;
  beforeAll(async () => {
    seed = await testEmulator({ flavor: 'seed' });
  });
  afterAll(() => seed?.close());
  const pds = (args: string[]) => runPds(args, { env: signedInEnv(seed.url) });

  it('knowledge search and tags ls against the seed service say which service lacks what (exit 5)', async () => {
    expect(await pds(['knowledge', 'search', 'royalty'])).toMatchObject({
      code: 5,
      stdout: '',
      stderr:
        `error: the service at ${seed.url} has no knowledge search (its answer was 404)\n` +
        '  the deployed service has it\n  the service said: not found\n',
    });
    expect(await pds(['tags', 'ls'])).toMatchObject({
      code: 5,
      stderr: expect.stringMatching(
        new RegExp(
          `^error: the service at ${seed.url} has no tags on contracts and statements \\(its answer was 404\\)\n`,
        ),
      ),
    });
  });

  it('statements lines of a completed statement on a service without the export says so', async () => {
    expect((await pds(['statements', 'status', '40001'])).stdout).toMatch(/^state\tcompleted$/m);
    expect(await pds(['statements', 'lines', '40001'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        `error: the service at ${seed.url} exports no statement lines\n` +
        '  statement 40001 came without the `detailed` export; the deployed service has it\n',
    });
  });

  it('-p suggests the project a name is part of; an unknown project uuid lists the reachable ones', async () => {
    expect(await pds(['artists', 'ls', '-p', 'Harbor'])).toMatchObject({
      code: 2,
      stderr:
        "error: no project named 'Harbor'\n  did you mean:\n    8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e  Harbor Sessions\n",
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const args of [
      ['knowledge', 'search', 'royalty'],
      ['tags', 'ls'],
    ]) {
      expect(await pds([...args, '-p', unknown])).toMatchObject({
        code: 5,
        stderr:
          `error: project ${unknown} not found\n  projects this token reaches:\n` +
          '    5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7  Northern Lights Catalog\n' +
          '    8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e  Harbor Sessions\n',
      });
    }
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import { answerOf, sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

const P = DEMO_PROJECT;
const TTY = { tty: true, env: { NO_COLOR: '1' } };

// The spec's shapes exactly: the seed flavor (the deployed service's fields: writes-search-and-list-options.test.ts).
const emulator = sharedEmulator({ flavor: 'seed' });

const sent = () => emulator.requests.map((r) => [r.method, r.path, r.query]);
const NO_REQUEST: unknown[] = [];

type Fields = Record<string, unknown> & { id: string };
/** A record's piped key/value lines: each field the service answered, in its order. */
const keyValues = (record: Record<string, unknown>) =>
  Object.entries(record)
    .map(([key, value]) => `${key}\t${value}\n`)
    .join('');
/** The first record of a list, as the emulator answers it (a plain array or a page of items). */
async function firstOf(resource: string): Promise<Fields> {
  const answer = await answerOf<Fields[] | { items: Fields[] }>(
    emulator,
    `/v1/${resource}?projectId=${P}&page=1&perPage=1`,
  );
  const first = (Array.isArray(answer) ? answer : answer.items)[0];
  if (!first) throw new Error(`the emulator lists no ${resource}`);
  return first;
}
/** One record as the emulator answers it; the request log is cleared after, so a test asserts only on what pds sent. */
async function served(path: string): Promise<Fields> {
  const record = await answerOf<Fields>(emulator, path);
  emulator.requests.length = 0;
  return record;
}

/** `ls --per-page 3` of every resource: piped and on a TTY. */
const LISTS: Record<string, { tsv: string; table: string }> = {
  contracts: {
    tsv:
      // A contract of the spec's time has no file: TSV keeps the column (empty), a table drops it.
      'ID\tNAME\tFILE\tCREATED\n' +
      '20001\tRecording Agreement — Nova Reyes / Lumen Records\t\t2022-12-05T07:42:02.765Z\n' +
      '20002\tExclusive Songwriter Agreement — Ida Petrov / Granite Music Publishing\t\t2022-12-31T01:55:42.666Z\n' +
      '20003\tDistribution Agreement — Hinterland Recordings / Zephyr Distribution\t\t2023-02-14T20:18:53.310Z\n',
    table:
      'ID     NAME                                                                    CREATED\n' +
      '20001  Recording Agreement — Nova Reyes / Lumen Records                        2022-12-05 07:42\n' +
      '20002  Exclusive Songwriter Agreement — Ida Petrov / Granite Music Publishing  2022-12-31 01:55\n' +
      '20003  Distribution Agreement — Hinterland Recordings / Zephyr Distribution    2023-02-14 20:18\n',
  },
  statements: {
    tsv:
      'ID\tFILE\tNAME\tTYPE\tSTAGE\tPERIOD\tCURRENCY\tLICENSOR\tLICENSEE\tCREATED\n' +
      '40001\tLumenRecords_2022-H1_statement.pdf\tLumen Records — Royalty Statement 2022-H1\troyalty\tcompleted\t\tUSD\t\t\t2022-11-23T11:16:09.626Z\n' +
      '40002\tHinterlandRecordings_2022-H1_statement.pdf\tHinterland Recordings — Distribution Statement 2022-H1\tdistribution\tcompleted\t\tUSD\t\t\t2022-12-03T04:53:21.122Z\n' +
      '40003\tGreenroomSound_2022-H1_statement.pdf\tGreenroom Sound — Neighbouring rights Statement 2022-H1\tneighbouring rights\tcompleted\t\tUSD\t\t\t2022-12-09T19:28:04.423Z\n',
    // Ids are never cut; a file name gives way in its middle, keeping its extension.
    table:
      'ID     FILE                       NAME                        TYPE                 STAGE      CURRENCY  CREATED\n' +
      '40001  LumenRecords_202…ment.pdf  Lumen Records — Royalty S…  royalty              completed  USD       2022-11-23 11:16\n' +
      '40002  HinterlandRecord…ment.pdf  Hinterland Recordings — D…  distribution         completed  USD       2022-12-03 04:53\n' +
      '40003  GreenroomSound_2…ment.pdf  Greenroom Sound — Neighbo…  neighbouring rights  completed  USD       2022-12-09 19:28\n',
  },
  entities: {
    tsv:
      'ID\tNAME\tSHORTHAND\tEMAIL\n' +
      'ent_00001\tLumen Records\t\tinfo@lumenrecords.com\n' +
      'ent_00002\tHinterland Recordings\t\tinfo@hinterlandrecordings.com\n' +
      'ent_00004\tHarbourlight Music Publishing\t\t\n',
    table:
      'ID         NAME                           SHORTHAND  EMAIL\n' +
      'ent_00001  Lumen Records                             info@lumenrecords.com\n' +
      'ent_00002  Hinterland Recordings                     info@hinterlandrecordings.com\n' +
      'ent_00004  Harbourlight Music Publishing\n',
  },
  relations: {
    tsv:
      'ID\tNAME\tDEPARTMENT\tEMAIL\n' +
      'rel_00001\tIda Delacroix\tRoyalties\tida.delacroix@hinterlandrecordings.com\n' +
      'rel_00002\tNova Calloway\tSync\tnova.calloway@redwooddistribution.com\n' +
      'rel_00003\tMira Moreau\tBusiness Affairs\tmira.moreau@canopyaudio.com\n',
    table:
      'ID         NAME           DEPARTMENT        EMAIL\n' +
      'rel_00001  Ida Delacroix  Royalties         ida.delacroix@hinterlandrecordings.com\n' +
      'rel_00002  Nova Calloway  Sync              nova.calloway@redwooddistribution.com\n' +
      'rel_00003  Mira Moreau    Business Affairs  mira.moreau@canopyaudio.com\n',
  },
  artists: {
    tsv: 'ID\tNAME\n' + 'art_00001\tNova Reyes\n' + 'art_00002\tMira Ellison\n' + 'art_00003\tThe Velvet Harbors\n',
    table:
      'ID         NAME\n' + //
      'art_00001  Nova Reyes\n' +
      'art_00002  Mira Ellison\n' +
      'art_00003  The Velvet Harbors\n',
  },
  writers: {
    tsv: 'ID\tNAME\n' + 'wri_00001\tIda Petrov\n' + 'wri_00002\tNova Mercer\n' + 'wri_00003\tMira Kowalski\n',
    table:
      'ID         NAME\n' + //
      'wri_00001  Ida Petrov\n' +
      'wri_00002  Nova Mercer\n' +
      'wri_00003  Mira Kowalski\n',
  },
  recordings: {
    tsv:
      'ID\tNAME\tISRC\tARTISTS\tDURATION\tPRODUCTS\n' +
      'rec_00001\tGolden Hour\t\tNova Reyes\t3:44\t\n' +
      'rec_00002\tLullaby Thunder\t\tMira Ellison, The Midnight Saints\t2:53\t\n' +
      'rec_00003\tGravity Motel\t\tThe Velvet Harbors\t4:28\t\n',
    table:
      'ID         NAME             ARTISTS                            DURATION\n' +
      'rec_00001  Golden Hour      Nova Reyes                             3:44\n' +
      'rec_00002  Lullaby Thunder  Mira Ellison, The Midnight Saints      2:53\n' +
      'rec_00003  Gravity Motel    The Velvet Harbors                     4:28\n',
  },
  compositions: {
    tsv:
      'ID\tNAME\tISWC\tWRITERS\tTYPE\tPRODUCTS\n' +
      'com_00001\tGolden Hour\t\tIda Petrov, Rowan Sandoval\toriginal\t\n' +
      'com_00002\tLullaby Thunder\t\tNova Mercer\tadaptation\t\n' +
      'com_00003\tGravity Motel\t\tMira Kowalski, Zara Moreau, Greta Yilmaz\toriginal\t\n',
    table:
      'ID         NAME             WRITERS                                   TYPE\n' +
      'com_00001  Golden Hour      Ida Petrov, Rowan Sandoval                original\n' +
      'com_00002  Lullaby Thunder  Nova Mercer                               adaptation\n' +
      'com_00003  Gravity Motel    Mira Kowalski, Zara Moreau, Greta Yilmaz  original\n',
  },
};

/**
 * How many records of each resource the emulator says it has (a paged answer's total_count), or
 * undefined where its answer is a plain array without a total; read before the tests.
 */
const totals: Record<string, number | undefined> = {};
beforeAll(async () => {
  for (const resource of Object.keys(LISTS)) {
    const answer = await answerOf<unknown[] | { total_count: number }>(
      emulator,
      `/v1/${resource}?projectId=${P}&page=1&perPage=1`,
    );
    totals[resource] = Array.isArray(answer) ? undefined : answer.total_count;
  }
});
/** The footer a TTY gets under page 1 of `perPage`: the count of pages where the service gives a total. */
const footer = (resource: string, perPage: number) => {
  const total = totals[resource];
  return total === undefined
    ? 'page 1 (more with --page 2 or --all)\n'
    : `page 1 of ${Math.ceil(total / perPage)} (${total} total)\n`;
};

describe.each(Object.entries(LISTS))('pds %s ls', (resource, expected) => {
  it('prints TSV with a header when piped, and asks for the page', async () => {
    expect(await runCli(emulator, [resource, 'ls', '--per-page', '3'])).toEqual({
      code: 0,
      stdout: expected.tsv,
      stderr: '',
    });
    expect(sent()).toEqual([['GET', `/v1/${resource}`, { projectId: P, page: '1', perPage: '3' }]]);
  });

  it('prints a table on a TTY with the paging footer on stderr', async () => {
    expect(await runCli(emulator, [resource, 'ls', '--per-page', '3'], TTY)).toEqual({
      code: 0,
      stdout: expected.table,
      stderr: footer(resource, 3),
    });
  });

  it('prints a JSON array of the records with --json, and ids with -q', async () => {
    const json = await runCli(emulator, [resource, 'list', '--per-page', '3', '--json']);
    expect(json.code).toBe(0);
    const records = JSON.parse(json.stdout) as { id: string | number }[];
    expect(Array.isArray(records)).toBe(true);
    expect(records).toHaveLength(3);
    expect(json.stdout).toBe(`${JSON.stringify(records, null, 2)}\n`);
    const ids = expected.tsv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t')[0]);
    expect(records.map((r) => String(r.id))).toEqual(ids);
    expect(await runCli(emulator, [resource, 'ls', '--per-page', '3', '-q'], TTY)).toEqual({
      code: 0,
      stdout: `${ids.join('\n')}\n`,
      stderr: '',
    });
  });

  it('uses 20 per page by default and passes --page', async () => {
    expect((await runCli(emulator, [resource, 'ls', '--page', '2', '-q'])).code).toBe(0);
    expect(sent()).toEqual([['GET', `/v1/${resource}`, { projectId: P, page: '2', perPage: '20' }]]);
  });
});

describe('both list envelopes look the same', () => {
  it('a plain-array resource (artists) and a paged one (statements) print the same formats', async () => {
    // The envelope decides nothing but the footer: TSV, JSON and ids come out alike.
    for (const resource of ['artists', 'statements']) {
      const json = await runCli(emulator, [resource, 'ls', '--per-page', '2', '--json']);
      const records = JSON.parse(json.stdout) as Record<string, unknown>[];
      expect(records).toHaveLength(2);
      // Records are printed as the service sent them, not an envelope.
      expect(Object.keys(records[0]!)).not.toContain('items');
      expect(Object.keys(records[0]!)).not.toContain('total_count');
      const tsv = await runCli(emulator, [resource, 'ls', '--per-page', '2']);
      expect(tsv.stdout.split('\n')).toHaveLength(4);
      expect(tsv.stderr).toBe('');
    }
    expect(totals.artists).toBeUndefined();
    expect(totals.statements).toBeGreaterThan(2);
    expect((await runCli(emulator, ['artists', 'ls', '--per-page', '2'], TTY)).stderr).toBe(footer('artists', 2));
    expect((await runCli(emulator, ['statements', 'ls', '--per-page', '2'], TTY)).stderr).toBe(footer('statements', 2));
  });

  it('a page past the end is empty, exit 0', async () => {
    expect(await runCli(emulator, ['artists', 'ls', '--page', '99'])).toEqual({
      code: 0,
      stdout: 'ID\tNAME\n',
      stderr: '',
    });
    expect(await runCli(emulator, ['statements', 'ls', '--page', '99'], TTY)).toEqual({
      code: 0,
      stdout: '',
      stderr: 'no statements found\n',
    });
    expect(await runCli(emulator, ['statements', 'ls', '--page', '99', '--json'])).toEqual({
      code: 0,
      stdout: '[]\n',
      stderr: '',
    });
  });
});

describe('pds <resource> get', () => {
  it('contracts: key<TAB>value when piped', async () => {
    const [listed] = await answerOf<[{ id: string }]>(emulator, `/v1/contracts?projectId=${P}&page=1&perPage=1`);
    const record = await answerOf<Record<string, string>>(emulator, `/v1/contracts/${listed.id}?projectId=${P}`);
    emulator.requests.length = 0;
    expect(await runCli(emulator, ['contracts', 'get', listed.id])).toEqual({
      code: 0,
      stdout: Object.entries(record)
        .map(([field, value]) => `${field}\t${value}\n`)
        .join(''),
      stderr: '',
    });
    expect(sent()).toEqual([['GET', `/v1/contracts/${listed.id}`, { projectId: P }]]);
  });

  it('contracts: includes as sub-tables on a TTY; repeated --include sends one includes list', async () => {
    const result = await runCli(
      emulator,
      ['contracts', 'get', '20002', '--include', 'royalties', '--include', 'splits'],
      TTY,
    );
    expect(result).toEqual({
      code: 0,
      stdout:
        // Words for labels; the project it belongs to is plumbing (--verbose shows it).
        'ID       20002\n' +
        'Name     Exclusive Songwriter Agreement — Ida Petrov / Granite Music Publishing\n' +
        'Created  2022-12-31 01:55\n' +
        '\n' +
        'Royalties (2)\n' +
        '  TITLE        RATE  TERRITORY          BASE\n' +
        '  mechanical   56 %  Latin America      net receipts\n' +
        '  performance  51 %  World excl. Japan  net receipts\n' +
        '\n' +
        'Splits (2)\n' +
        '  PARTIES                        TYPE\n' +
        '  Ida Petrov 50 %                net receipts\n' +
        '  Granite Music Publishing 50 %  net receipts\n',
      stderr: '',
    });
    expect(sent()).toEqual([['GET', '/v1/contracts/20002', { projectId: P, includes: 'royalties,splits' }]]);
  });

  it('contracts: the includes in --json', async () => {
    // The royalties and splits as the service answers them; then the request log starts empty.
    const served = await answerOf<{ royalties: unknown[]; splits: unknown[] }>(
      emulator,
      `/v1/contracts/20002?projectId=${P}&includes=royalties,splits`,
    );
    expect(served.royalties.length).toBeGreaterThan(0);
    emulator.requests.length = 0;
    const result = await runCli(emulator, [
      'contracts',
      'get',
      '20002',
      '--include',
      'splits,royalties,splits',
      '--json',
    ]);
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual(['id', 'name', 'project_id', 'created_at', 'splits', 'royalties']);
    expect(record.royalties).toEqual(served.royalties);
    expect(record.splits).toEqual(served.splits);
    // Duplicates are sent once.
    expect(sent()).toEqual([['GET', '/v1/contracts/20002', { projectId: P, includes: 'splits,royalties' }]]);
  });

  it('statements: the full shape', async () => {
    const result = await runCli(emulator, ['statements', 'get', '40001'], TTY);
    expect(result).toEqual({
      code: 0,
      stdout:
        'Name         Lumen Records — Royalty Statement 2022-H1\n' +
        'ID           40001\n' +
        'Producer     Lumen Records\n' +
        'Type         royalty · recording · download\n' +
        'File         LumenRecords_2022-H1_statement.pdf\n' +
        'Description  January–June 2022 download royalty statement from Lumen Records: 3,441 lines across 22 territories.\n' +
        '\n' +
        'Processing\n' +
        'Stage      completed\n' +
        'Upload     completed\n' +
        'Approval   approved\n' +
        'Processed  2022-11-23 11:18\n' +
        '\n' +
        'Money\n' +
        'Transaction currency  SEK\n' +
        'Royalty currency      USD\n' +
        '\n' +
        // A size in its unit, a MIME type by its format's name, the entity's uuid left to --verbose.
        'Details\n' +
        'File type          PDF\n' +
        'Size               616 B\n' +
        'Has revenues       yes\n' +
        'Has costs          no\n' +
        'Has summary        no\n' +
        'Created            2022-11-23 11:16\n' +
        'Statement version  v1\n' +
        'Has summary lines  no\n' +
        'Modified           2022-12-07 11:18\n',
      stderr: '',
    });
    expect(sent()).toEqual([['GET', '/v1/statements/40001', { projectId: P }]]);
  });

  it('entities: by id with --merged, and by internal_uuid', async () => {
    const merged = await runCli(emulator, ['entities', 'get', 'ent_00002', '--merged'], TTY);
    expect(merged).toEqual({
      code: 0,
      stdout:
        'ID       ent_00002\n' +
        'Name     Hinterland Recordings\n' +
        'Email    info@hinterlandrecordings.com\n' +
        'Address  144 Peachtree St NE, Atlanta, GA 30303, USA\n' +
        'Created  2022-12-15 17:25\n' +
        'Updated  2022-12-30 17:25\n' +
        '\n' +
        'Merged (1)\n' +
        '  NAME                   ID\n' +
        '  HINTERLAND RECORDINGS  ent_00003\n',
      stderr: '',
    });
    expect(sent()).toEqual([['GET', '/v1/entities/ent_00002', { projectId: P, includeMerged: 'true' }]]);
    // By internal_uuid: the first entity listed, its lines as the emulator answers it by its id.
    const listed = await firstOf('entities');
    const entity = await served(`/v1/entities/${listed.id}?projectId=${P}`);
    const uuid = entity.internal_uuid;
    expect(typeof uuid === 'string' && uuid !== listed.id).toBe(true);
    const byUuid = await runCli(emulator, ['entities', 'get', String(uuid)]);
    expect(byUuid).toEqual({ code: 0, stdout: keyValues(entity), stderr: '' });
    expect(sent()).toEqual([['GET', `/v1/entities/${uuid}`, { projectId: P }]]);
  });

  it('relations, artists, writers', async () => {
    // The first of each list, as the emulator answers it by its id: every field, in its order.
    const [relationId, artistId, writerId] = [
      (await firstOf('relations')).id,
      (await firstOf('artists')).id,
      (await firstOf('writers')).id,
    ];
    const relation = await served(`/v1/relations/${relationId}?projectId=${P}`);
    const artist = await served(`/v1/artists/${artistId}?projectId=${P}`);
    const writer = await served(`/v1/writers/${writerId}?projectId=${P}&includeMerged=true`);
    // Enough fields that the lines say something: a name at least, the writer's merged list.
    expect([relation.name, artist.name, writer.name].every((name) => typeof name === 'string' && name !== '')).toBe(
      true,
    );
    expect(Array.isArray(writer.merged)).toBe(true);
    expect(await runCli(emulator, ['relations', 'get', relationId])).toEqual({
      code: 0,
      stdout: keyValues(relation),
      stderr: '',
    });
    expect(await runCli(emulator, ['artists', 'get', artistId])).toEqual({
      code: 0,
      stdout: keyValues(artist),
      stderr: '',
    });
    expect(await runCli(emulator, ['writers', 'view', writerId, '--merged', '--json'])).toEqual({
      code: 0,
      stdout: `${JSON.stringify(writer, null, 2)}\n`,
      stderr: '',
    });
    expect(sent()).toEqual([
      ['GET', `/v1/relations/${relationId}`, { projectId: P }],
      ['GET', `/v1/artists/${artistId}`, { projectId: P }],
      ['GET', `/v1/writers/${writerId}`, { projectId: P, includeMerged: 'true' }],
    ]);
  });

  it('recordings and compositions, with --products as a sub-table', async () => {
    expect(await runCli(emulator, ['recordings', 'get', 'rec_00001'], TTY)).toEqual({
      code: 0,
      stdout:
        'ID        rec_00001\n' +
        'Name      Golden Hour\n' +
        'Duration  3:44\n' +
        'Type      studio\n' +
        'Artists   Nova Reyes\n' +
        'Created   2022-11-19 20:30\n' +
        'Updated   2022-12-27 20:30\n',
      stderr: '',
    });
    expect(await runCli(emulator, ['compositions', 'get', 'com_00001', '--products'], TTY)).toEqual({
      code: 0,
      stdout:
        'ID       com_00001\n' +
        'Name     Golden Hour\n' +
        'Type     original\n' +
        'Writers  Ida Petrov, Rowan Sandoval\n' +
        'Artists  Nova Reyes\n' +
        'Created  2022-11-26 10:30\n' +
        'Updated  2022-11-30 10:30\n' +
        '\n' +
        'Products (2)\n' +
        '  NAME                   UPC           RELEASE DATE  ARTISTS     SOURCE           STORE\n' +
        '  Dancing on the Summer  144784675990  2017-03-26    Nova Reyes  DDEX ERN feed    Amazon Music\n' +
        '  Sweet Mirror           625260458738  2018-04-11    Nova Reyes  label catalogue  Physical (CD)\n',
      stderr: '',
    });
    expect(sent()).toEqual([
      ['GET', '/v1/recordings/rec_00001', { projectId: P }],
      ['GET', '/v1/compositions/com_00001', { projectId: P, includeProducts: 'true' }],
    ]);
  });

  it('prints the id with -q', async () => {
    const { id } = await firstOf('statements');
    expect(await runCli(emulator, ['statements', 'get', String(id), '-q'])).toEqual({
      code: 0,
      stdout: `${id}\n`,
      stderr: '',
    });
  });
});

describe('resource flags', () => {
  it('contracts ls --include: comma-separated and repeated both send includes=royalties,splits', async () => {
    for (const args of [
      ['--include', 'royalties,splits'],
      ['--include', 'royalties', '--include', 'splits'],
    ]) {
      emulator.requests.length = 0;
      const result = await runCli(emulator, ['contracts', 'ls', '--per-page', '2', '--json', ...args]);
      expect(result.code).toBe(0);
      const records = JSON.parse(result.stdout) as Record<string, unknown>[];
      expect(records.map((r) => Object.keys(r))).toEqual([
        ['id', 'name', 'project_id', 'created_at', 'royalties', 'splits'],
        ['id', 'name', 'project_id', 'created_at', 'royalties', 'splits'],
      ]);
      expect(sent()).toEqual([
        ['GET', '/v1/contracts', { projectId: P, page: '1', perPage: '2', includes: 'royalties,splits' }],
      ]);
    }
  });

  it('an include is taken singular or plural, and sent as the service names it', async () => {
    expect(
      (
        await runCli(emulator, [
          'contracts',
          'get',
          '20001',
          '--include',
          'royalty,Accounting-Period',
          '--include',
          'entities',
          '-q',
        ])
      ).code,
    ).toBe(0);
    expect(emulator.requests.at(-1)?.query.includes).toBe('royalties,accounting-periods,entities');
  });

  it('an unknown include is exit 2, listing the valid names, and sends nothing', async () => {
    const valid =
      '  valid includes: entities, artists, writers, royalties, splits, costs, compensations, dates, accounting-periods, types, signatures, control-areas, creative-approvals, balances, recordings, compositions, languages, commitments, relations, targets\n';
    expect(await runCli(emulator, ['contracts', 'ls', '--include', 'royalties,royaltys'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: unknown include 'royaltys'\n${valid}`,
    });
    expect(await runCli(emulator, ['contracts', 'get', '20001', '--include', 'nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: unknown include 'nope'\n${valid}`,
    });
    expect(sent()).toEqual(NO_REQUEST);
  });

  it('entities ls --roles sends roles and filters', async () => {
    const all = await runCli(emulator, ['entities', 'ls', '--all', '-q']);
    const assignees = await runCli(emulator, ['entities', 'ls', '--all', '-q', '--roles', 'assignee']);
    const either = await runCli(emulator, ['entities', 'ls', '--all', '-q', '--roles', 'assignee,assignor']);
    const count = (text: string) => text.trim().split('\n').length;
    expect(count(assignees.stdout)).toBeLessThan(count(all.stdout));
    expect(count(assignees.stdout)).toBeLessThanOrEqual(count(either.stdout));
    for (const id of assignees.stdout.trim().split('\n')) expect(all.stdout).toContain(`${id}\n`);
    const queries = emulator.requests.map((r) => r.query.roles);
    expect(queries.filter((q) => q === 'assignee').length).toBeGreaterThan(0);
    expect(queries.filter((q) => q === 'assignee,assignor').length).toBeGreaterThan(0);
    expect(queries.filter((q) => q === undefined).length).toBeGreaterThan(0);
  });

  it('entities ls --roles assignee sends exactly roles=assignee', async () => {
    expect((await runCli(emulator, ['entities', 'ls', '--roles', 'assignee', '--per-page', '3', '-q'])).code).toBe(0);
    expect(sent()).toEqual([['GET', '/v1/entities', { projectId: P, page: '1', perPage: '3', roles: 'assignee' }]]);
  });

  it('a bad role is exit 2 and sends nothing', async () => {
    expect(await runCli(emulator, ['entities', 'ls', '--roles', 'assignee,licensor'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown role 'licensor'\n  valid roles: assignee, assignor\n",
    });
    expect(sent()).toEqual(NO_REQUEST);
  });

  it('--merged sends includeMerged=true and shows the count', async () => {
    // The first page of eight artists with their merged lists, as the emulator answers it: one at
    // least has merged others, so the count is not all zeros.
    const answer = await answerOf<Fields[] | { items: Fields[] }>(
      emulator,
      `/v1/artists?projectId=${P}&page=1&perPage=8&includeMerged=true`,
    );
    emulator.requests.length = 0;
    const artists = (Array.isArray(answer) ? answer : answer.items) as (Fields & { name: string; merged: unknown[] })[];
    expect(artists).toHaveLength(8);
    expect(artists.some((artist) => artist.merged.length > 0)).toBe(true);
    const result = await runCli(emulator, ['artists', 'ls', '--merged', '--per-page', '8']);
    expect(result).toEqual({
      code: 0,
      stdout: `ID\tNAME\tMERGED\n${artists.map((artist) => `${artist.id}\t${artist.name}\t${artist.merged.length}\n`).join('')}`,
      stderr: '',
    });
    for (const resource of ['entities', 'relations', 'writers']) {
      expect((await runCli(emulator, [resource, 'ls', '--merged', '--per-page', '1', '-q'])).code).toBe(0);
    }
    expect(emulator.requests.map((r) => [r.path, r.query.includeMerged])).toEqual([
      ['/v1/artists', 'true'],
      ['/v1/entities', 'true'],
      ['/v1/relations', 'true'],
      ['/v1/writers', 'true'],
    ]);
  });

  it('--products sends includeProducts=true', async () => {
    const result = await runCli(emulator, ['recordings', 'ls', '--products', '--per-page', '2']);
    expect(result).toEqual({
      code: 0,
      stdout:
        'ID\tNAME\tISRC\tARTISTS\tDURATION\tPRODUCTS\n' +
        'rec_00001\tGolden Hour\t\tNova Reyes\t3:44\t3\n' +
        'rec_00002\tLullaby Thunder\t\tMira Ellison, The Midnight Saints\t2:53\t1\n',
      stderr: '',
    });
    expect((await runCli(emulator, ['compositions', 'ls', '--products', '--per-page', '1', '-q'])).code).toBe(0);
    expect(sent()).toEqual([
      ['GET', '/v1/recordings', { projectId: P, page: '1', perPage: '2', includeProducts: 'true' }],
      ['GET', '/v1/compositions', { projectId: P, page: '1', perPage: '1', includeProducts: 'true' }],
    ]);
  });

  it('flags of other resources are unknown options (exit 2)', async () => {
    for (const args of [
      ['artists', 'ls', '--include', 'splits'],
      ['statements', 'ls', '--merged'],
      ['contracts', 'ls', '--products'],
    ]) {
      const result = await runCli(emulator, args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: unknown option/);
    }
    expect(sent()).toEqual(NO_REQUEST);
  });
});

describe('--all', () => {
  const roots = (resource: 'artists' | 'statements' | 'entities') => {
    const data = emulator.state.data[P]!;
    if (resource === 'statements') return data.statements.map((s) => String(s.id));
    return (data[resource] as { id: string; merged_into?: string }[])
      .filter((r) => r.merged_into === undefined)
      .map((r) => r.id);
  };

  it('follows every page of a plain-array list in order (-q: one id per line)', async () => {
    const expected = roots('artists');
    const result = await runCli(emulator, ['artists', 'ls', '--all', '--per-page', '7', '-q']);
    expect(result).toEqual({ code: 0, stdout: `${expected.join('\n')}\n`, stderr: '' });
    const pages = emulator.requests.map((r) => Number(r.query.page));
    const needed = Math.ceil(expected.length / 7);
    // Every page up to the short last one, plus at most concurrency - 1 fetched ahead.
    expect([...new Set(pages)].sort((a, b) => a - b).slice(0, needed)).toEqual(
      Array.from({ length: needed }, (_, i) => i + 1),
    );
    expect(pages.length).toBeLessThanOrEqual(needed + 3);
    expect(emulator.requests.every((r) => r.query.perPage === '7')).toBe(true);
  });

  it('follows every page of a paged list, fetching exactly the pages the total announces', async () => {
    const expected = roots('statements');
    const result = await runCli(emulator, ['statements', 'ls', '--all', '--per-page', '25', '--json']);
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as { id: number }[];
    expect(records.map((r) => String(r.id))).toEqual(expected);
    expect(result.stdout).toBe(`${JSON.stringify(records, null, 2)}\n`);
    // Only this command's requests (25 per page): a walk cancelled earlier may still land late.
    const mine = emulator.requests.filter((r) => r.query.perPage === '25');
    expect(mine.map((r) => r.query.page).sort()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('uses 100 per page by default, prints every record piped, and counts them on a TTY', async () => {
    const expected = roots('entities');
    const tsv = await runCli(emulator, ['entities', 'ls', '--all']);
    expect(
      tsv.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t')[0]),
    ).toEqual(expected);
    expect(emulator.requests[0]!.query).toEqual({ projectId: P, page: '1', perPage: '100' });
    const table = await runCli(emulator, ['statements', 'ls', '--all'], TTY);
    expect(table.stdout.trim().split('\n')).toHaveLength(1 + 120);
    expect(table.stderr).toBe('120 statements\n');
  });

  it('works at scale: 300 artists over many pages, in order', async () => {
    const big = await testEmulator({ flavor: 'current', scale: 3 });
    try {
      const data = big.state.data[P]!;
      const expected = data.artists.filter((a) => a.merged_into === undefined).map((a) => a.id);
      expect(expected.length).toBeGreaterThanOrEqual(300);
      const result = await runCli(big, ['artists', 'ls', '--all', '--json']);
      const records = JSON.parse(result.stdout) as { id: string }[];
      expect(records.map((r) => r.id)).toEqual(expected);
    } finally {
      await big.close();
    }
  });
});

describe('local validation: exit 2 and no request', () => {
  const cases: [string, string[], string][] = [
    ['--page 0', ['artists', 'ls', '--page', '0'], "error: invalid --page '0': expected a whole number ≥ 1\n"],
    [
      '--per-page 101',
      ['statements', 'ls', '--per-page', '101'],
      "error: invalid --per-page '101': expected a whole number from 1 to 100\n",
    ],
    [
      '--per-page abc',
      ['artists', 'ls', '--per-page', 'abc'],
      "error: invalid --per-page 'abc': expected a whole number from 1 to 100\n",
    ],
    [
      '--per-page 0',
      ['artists', 'ls', '--per-page', '0'],
      "error: invalid --per-page '0': expected a whole number from 1 to 100\n",
    ],
    ['--page -1', ['artists', 'ls', '--page=-1'], "error: invalid --page '-1': expected a whole number ≥ 1\n"],
    [
      'a statement id that is not a number',
      ['statements', 'get', 'abc'],
      "error: invalid statement id 'abc': statement ids are whole numbers\n",
    ],
    ['an id with a slash', ['artists', 'get', 'art/1'], "error: invalid artist id 'art/1'\n"],
  ];
  it.each(cases)('%s', async (_name, args, stderr) => {
    const result = await runCli(emulator, args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(stderr);
    expect(sent()).toEqual(NO_REQUEST);
  });

  it('a missing project is exit 2 with the hint', async () => {
    for (const args of [
      ['artists', 'ls'],
      ['contracts', 'get', '20001'],
      ['statements', 'ls', '--all'],
    ]) {
      expect(await runCli(emulator, args, { project: null })).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: no project selected\n  pass -p <project-id>, set PDS_PROJECT, or run `pds use <project>`\n',
      });
    }
    expect(sent()).toEqual(NO_REQUEST);
  });

  it('a project that is neither an id nor an exact name is exit 2, from -p or PDS_PROJECT, after one lookup', async () => {
    // The first word of the demo project's name, in lower case, a word of no other project's name:
    // that one project is suggested.
    const projects = await answerOf<{ id: string; name: string }[]>(emulator, '/v1/projects');
    emulator.requests.length = 0;
    const name = projects.find((project) => project.id === P)?.name ?? '';
    const word = name.split(' ')[0]?.toLowerCase() ?? '';
    expect(word.length).toBeGreaterThan(2);
    expect(word).not.toBe(name.toLowerCase());
    expect(projects.filter((project) => project.name.toLowerCase().includes(word))).toHaveLength(1);
    const stderr = `error: no project named '${word}'\n  did you mean:\n    ${P}  ${name}\n`;
    expect(await runCli(emulator, ['artists', 'ls', '-p', word])).toEqual({ code: 2, stdout: '', stderr });
    expect(await runCli(emulator, ['artists', 'ls'], { project: word })).toEqual({ code: 2, stdout: '', stderr });
    expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/projects', '/v1/projects']);
  });

  it("-p takes a project's exact name, as pds use does", async () => {
    // The second project's name as the emulator answers it.
    const projects = await answerOf<{ id: string; name: string }[]>(emulator, '/v1/projects');
    emulator.requests.length = 0;
    const name = projects.find((project) => project.id === SECOND_PROJECT_ID)?.name;
    if (!name) throw new Error('the emulator has no second project');
    expect(
      (await runCli(emulator, ['artists', 'ls', '-q', '--per-page', '1', '-p', name], { project: null })).code,
    ).toBe(0);
    expect(emulator.requests.map((r) => [r.path, r.query.projectId])).toEqual([
      ['/v1/projects', undefined],
      ['/v1/artists', SECOND_PROJECT_ID],
    ]);
  });

  it('a missing id argument is exit 2', async () => {
    const result = await runCli(emulator, ['artists', 'get']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: missing required argument 'artist-id'\n  see `pds --help`, or `pds <command> --help`\n",
    });
  });
});

describe('the project', () => {
  it('an upper-case UUID is sent in canonical lower case', async () => {
    expect((await runCli(emulator, ['artists', 'ls', '-q', '--per-page', '1', '-p', P.toUpperCase()])).code).toBe(0);
    expect((await runCli(emulator, ['projects', 'get', '-q', P.toUpperCase()])).stdout).toBe(`${P}\n`);
    expect(emulator.requests.map((r) => r.query.projectId ?? r.path)).toEqual([P, `/v1/projects/${P}`]);
  });

  it('-p selects the project for the query', async () => {
    const second = SECOND_PROJECT_ID;
    expect((await runCli(emulator, ['artists', 'ls', '-q', '-p', second])).code).toBe(0);
    expect(emulator.requests[0]!.query.projectId).toBe(second);
  });
});

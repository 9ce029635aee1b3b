// pds against the deployed service's own example answers (test/fixtures/deployed, a copy of
// ../shared/examples/deployed), replayed over loopback by test/helpers/replay-server.ts: written
// from the service's description, not from the emulator. Every read command, `statements lines`,
// retry and the signed-URL upload are run as a user would, and their ANSWER is asserted: `--json`
// is what the service sent, ids are numbers, and tables name things (no `[object Object]`, no raw
// JSON where a name would do). Issue 30 §1-§2.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type RunOptions } from '../helpers/cli.js';
import {
  example,
  FIXTURE_DIR,
  startReplayServer,
  STATEMENT_LINES_CSV,
  type ReplayServer,
} from '../helpers/replay-server.js';
import { expectReadable } from '../helpers/readable.js';

const PROJECT: string = example('projects.get').data.id;
const TOKEN = 'replay-token';
let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(() => replay.close());
beforeEach(() => {
  replay.requests.length = 0;
  replay.storage.requests.length = 0;
  delete replay.completeAs;
  delete replay.alter;
});

const pds = (args: string[], options: RunOptions = {}) =>
  runCli(replay.url, args, {
    project: PROJECT,
    token: TOKEN,
    ...options,
    env: { NO_COLOR: '1', PDS_PAGER: '', ...options.env },
  });
/** A terminal, wide enough that no column is dropped. */
const onTty = (args: string[]) => pds(args, { tty: true, columns: 220 });
async function jsonOf(args: string[]): Promise<any> {
  const result = await pds([...args, '--json']);
  expect(result.stderr).not.toMatch(/^error/m);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}
/** The fixture's records as a list command prints them with --json: the items of a paged answer. */
const itemsOf = (name: string): any[] => {
  const data = example(name).data;
  return Array.isArray(data) ? data : data.items;
};
/** The requests pds sent the API, as `METHOD path`, and the query of the last one to `path`. */
const sent = () => replay.requests.map((r) => `${r.method} ${r.path}`);
const queryOf = (path: string) => replay.requests.filter((r) => r.path === path).at(-1)?.query;

/** Piped output: a header line and tab-separated rows, keyed by the header lower-cased. */
function tsv(stdout: string): { header: string[]; rows: Record<string, string>[] } {
  const [head = '', ...lines] = stdout.replace(/\n$/, '').split('\n');
  const header = head.split('\t').map((h) => h.toLowerCase());
  return {
    header,
    rows: lines.map((line) => Object.fromEntries(line.split('\t').map((cell, i) => [header[i] ?? `#${i}`, cell]))),
  };
}
const rowOf = (rows: Record<string, string>[], id: number) => rows.find((row) => row.id === String(id)) ?? {};
/** The column whose header matches, e.g. `file` or `file_name`. */
const column = (header: string[], pattern: RegExp): string =>
  header.find((h) => pattern.test(h)) ?? `(no column matching ${pattern})`;

/** A get on a terminal: the record's own fields come before the first blank line (then its lists). */
const topFields = (stdout: string) => stdout.split('\n\n')[0] ?? '';
/** Some line shows all these words together (a row of a nested table). */
const expectLineWith = (text: string, ...words: string[]) =>
  expect(
    text.split('\n').some((line) => words.every((word) => line.includes(word))),
    `a line with ${words.join(' + ')} in:\n${text}`,
  ).toBe(true);

describe('the example answers', () => {
  const shared = fileURLToPath(new URL('../../../shared/examples/deployed/', import.meta.url));

  // The checksums of ../shared/examples/deployed as the service's docs ship them, kept beside the
  // copies: the copies are checked against them on every machine, and the docs' own files against
  // them too where the docs are beside this clone (a clean clone has no ../shared).
  const sums = readFileSync(new URL('../fixtures/deployed.sha256', import.meta.url), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => line.split(/\s+\*?/) as [string, string]);
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  it("are byte-identical copies of the service docs' examples (../shared/examples/deployed)", () => {
    expect(sums.length).toBe(28);
    expect(readdirSync(FIXTURE_DIR).sort()).toEqual(sums.map(([, name]) => name).sort());
    for (const [sum, name] of sums) expect(sha256(readFileSync(new URL(name, FIXTURE_DIR))), name).toBe(sum);
    if (existsSync(shared)) {
      expect(readdirSync(shared).sort()).toEqual(sums.map(([, name]) => name).sort());
      for (const [sum, name] of sums) expect(sha256(readFileSync(join(shared, name))), name).toBe(sum);
    } else console.log(`${shared} is not beside this clone: the copies are checked against their recorded checksums`);
  });

  it("are replayed with rate-limit headers, a bearer token required, and the 404 in the service's form", async () => {
    const answer = await fetch(`${replay.url}/v1/writers/3501?projectId=${PROJECT}`, {
      headers: { authorization: 'Bearer x' },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(example('writers.get'));
    expect(Number(answer.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(answer.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(answer.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect((await fetch(`${replay.url}/v1/projects`)).status).toBe(401);
    const missing = await fetch(`${replay.url}/v1/recordings/1?projectId=${PROJECT}`, {
      headers: { authorization: 'Bearer x' },
    });
    expect(missing.status).toBe(404);
    expect(Object.keys(((await missing.json()) as { error: object }).error)).toEqual(
      Object.keys((example('error.404') as unknown as { error: object }).error),
    );
  });
});

describe('lists: --json is the items the service sent, -q their numeric ids, tables draw names', () => {
  it.each([
    [['projects', 'ls'], 'projects.list'],
    [['contracts', 'ls'], 'contracts.list'],
    [['contracts', 'ls', '--include', 'royalties,accounting-periods'], 'contracts.list.includes'],
    [['statements', 'ls'], 'statements.list'],
    [['recordings', 'ls'], 'recordings.list'],
    [['compositions', 'ls'], 'compositions.list'],
    [['artists', 'ls', '--merged'], 'artists.list.merged'],
    [['relations', 'ls'], 'relations.list'],
    [['tags', 'ls', '--scope', 'statements'], 'tags.list'],
  ])('%j', async (args, fixture) => {
    expect(await jsonOf(args)).toEqual(itemsOf(fixture));
    const quiet = await pds([...args, '-q']);
    expect(quiet).toMatchObject({
      code: 0,
      stdout: itemsOf(fixture)
        .map((r) => `${r.id}\n`)
        .join(''),
    });
    const piped = await pds(args);
    expect(piped.code).toBe(0);
    expect(tsv(piped.stdout).rows).toHaveLength(itemsOf(fixture).length);
    expectReadable(piped.stdout);
    const table = await onTty(args);
    expect(table.code).toBe(0);
    expectReadable(table.stdout);
    expect(sent().every((line) => line.startsWith('GET /v1/'))).toBe(true);
  });

  it('projects ls names each project', async () => {
    const { rows } = tsv((await pds(['projects', 'ls'])).stdout);
    expect(rows.map((row) => row.name)).toEqual(['Aurora Vale Records', 'Aurora Vale Publishing']);
  });

  it('contracts ls shows each file name (a contract has no name), by default', async () => {
    const { header, rows } = tsv((await pds(['contracts', 'ls'])).stdout);
    const file = column(header, /^file(_name)?$/);
    expect(header).toContain(file);
    expect(rows.map((row) => row[file])).toEqual([
      'quill-recording-agreement-2026.pdf',
      'aurora-vale-publishing-admin.pdf',
    ]);
    expect(queryOf('/v1/contracts')).toMatchObject({ projectId: PROJECT });
    const table = await onTty(['contracts', 'ls']);
    expectLineWith(table.stdout, '61001', 'quill-recording-agreement-2026.pdf');
    expectLineWith(table.stdout, '61002', 'aurora-vale-publishing-admin.pdf');
  });

  it('contracts ls --include counts the includes found under `extractions`', async () => {
    const { header, rows } = tsv((await pds(['contracts', 'ls', '--include', 'royalties,accounting-periods'])).stdout);
    expect(queryOf('/v1/contracts')?.includes?.split(',').sort()).toEqual(['accounting-periods', 'royalties']);
    const royalties = column(header, /^royalties$/);
    const periods = column(header, /^accounting[-_ ]periods$/);
    expect(rows.map((row) => [row.id, row[royalties], row[periods]])).toEqual([
      ['61001', '2', '1'],
      ['61002', '0', '0'],
    ]);
  });

  it('contracts ls --all follows every page the total promises, keyed on numeric ids', async () => {
    const result = await pds(['contracts', 'ls', '--all', '-q']);
    expect(result.code).toBe(0);
    const ids = result.stdout.trim().split('\n');
    expect(ids).toHaveLength(example('contracts.list').data.total_count);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 2)).toEqual(['61001', '61002']);
  });

  it('contracts ls --all stops clearly when the service repeats a page (the repeat check keys on numeric ids)', async () => {
    const first = itemsOf('contracts.list');
    replay.alter = (path, data) => (path === '/v1/contracts' ? { ...data, items: first } : data);
    const result = await pds(['contracts', 'ls', '--all', '-q']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('61001\n61002\n');
    expect(result.stderr).toMatch(/^error: the service's pagination repeats itself: page 2 /m);
  });

  it('statements ls shows the file name, and the period, currency and revenues from `financials`', async () => {
    const { header, rows } = tsv((await pds(['statements', 'ls'])).stdout);
    const believe = rowOf(rows, 72001);
    expect(believe[column(header, /^file(_name)?$/)]).toBe('believe-2026Q1.csv');
    expect(believe[column(header, /period/)]).toBe('2026Q1');
    expect(believe[column(header, /^currency$/)]).toBe('GBP');
    expect(believe[column(header, /licensor/)]).toMatch(/^(GBP )?4,?368\.12( GBP)?$/);
    expect(believe[column(header, /licensee/)]).toMatch(/^(GBP )?18,?204\.77( GBP)?$/);
    // No financials yet: blank, not 0.
    expect(rowOf(rows, 72002)[column(header, /licensor/)]).toBe('');
    expect(rowOf(rows, 72002)[column(header, /^file(_name)?$/)]).toBe('spotify-2026-03.xlsx');
  });

  it('recordings ls shows the ISRC (the first, +N when more) and the artists by name', async () => {
    const { header, rows } = tsv((await pds(['recordings', 'ls'])).stdout);
    const isrc = column(header, /^isrc$/);
    expect(rowOf(rows, 7701)[isrc]).toMatch(/^GBQAV2600011 \(?\+1\)?$/);
    expect(rowOf(rows, 7702)[isrc]).toBe('');
    expect(rowOf(rows, 7701).artists).toBe('Mara Quill, The Lowlights');
    expect(rowOf(rows, 7702).artists).toBe('Mara Quill');
  });

  it('a narrow terminal never cuts an ISRC or an ISWC (they are copied), other columns give way', async () => {
    const recordings = (await pds(['recordings', 'ls'], { tty: true, columns: 40 })).stdout;
    expect(recordings).toContain('GBQAV2600011 +1');
    const compositions = (await pds(['compositions', 'ls'], { tty: true, columns: 40 })).stdout;
    expect(compositions).toContain('T-912.004.511-3');
    for (const line of [...recordings.split('\n'), ...compositions.split('\n')])
      expect(line.length).toBeLessThanOrEqual(40);
  });

  it('compositions ls shows the ISWC', async () => {
    const { header, rows } = tsv((await pds(['compositions', 'ls'])).stdout);
    expect(rowOf(rows, 8801)[column(header, /^iswc$/)]).toBe('T-912.004.511-3');
    expect(rowOf(rows, 8801).name).toBe('Glass Harbour');
  });

  it('artists ls --merged, relations ls and tags ls show their fields', async () => {
    const artists = tsv((await pds(['artists', 'ls', '--merged'])).stdout).rows;
    expect(rowOf(artists, 3101)).toMatchObject({ name: 'Mara Quill', merged: '1' });
    expect(queryOf('/v1/artists')).toMatchObject({ includeMerged: 'true' });
    const relations = tsv((await pds(['relations', 'ls'])).stdout).rows;
    expect(rowOf(relations, 4501)).toMatchObject({
      name: 'Ines Fairweather',
      department: 'Licensing',
      email: 'ines@auroravale.example',
    });
    const tags = await pds(['tags', 'ls', '--scope', 'statements']);
    expect(tags.stdout).toContain('Quarterly');
    expect(tags.stdout).toContain('14');
    expect(queryOf('/v1/tags')).toMatchObject({ projectId: PROJECT, scope: 'statements' });
  });
});

describe('gets: --json is the record the service sent; a terminal shows its parts by name', () => {
  const INCLUDES = 'royalties,accounting-periods,splits,languages,commitments,recordings';

  it.each([
    [['projects', 'get'], 'projects.get'],
    [['projects', 'get', PROJECT], 'projects.get'],
    [['writers', 'get', '3501'], 'writers.get'],
    [['entities', 'get', '9301'], 'entities.get'],
    [['recordings', 'get', '7701', '--products'], 'recordings.get.products'],
    [
      ['contracts', 'get', '61001', '--include', INCLUDES, '--score', '--extractor-ids', '12'],
      'contracts.get.all-includes.score',
    ],
    [['statements', 'status', '53011'], 'statements.processes'],
    [['contracts', 'status', '53021'], 'contracts.processes'],
  ])('%j', async (args, fixture) => {
    expect(await jsonOf(args)).toEqual(example(fixture).data);
    const piped = await pds(args);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain('[object Object]');
    const table = await onTty(args);
    expect(table.code).toBe(0);
    expectReadable(topFields(table.stdout));
    expect(table.stdout).not.toContain('[object Object]');
  });

  it('entities get takes the internal_uuid as well as the numeric id', async () => {
    const entity = example('entities.get').data;
    expect(await jsonOf(['entities', 'get', entity.internal_uuid])).toEqual(entity);
    expect(sent()).toEqual([`GET /v1/entities/${entity.internal_uuid}`]);
  });

  it('an empty search is refused before anything is sent (exit 2)', async () => {
    const result = await pds(['search', ' ']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(replay.requests).toEqual([]);
  });

  it('-q prints the numeric id of a record', async () => {
    expect(await pds(['writers', 'get', '3501', '-q'])).toMatchObject({ code: 0, stdout: '3501\n' });
    expect(await pds(['contracts', 'get', '61001', '-q'])).toMatchObject({ code: 0, stdout: '61001\n' });
  });

  it('contracts get draws the extractions as top-level includes are drawn, with the score and custom extractions', async () => {
    const args = ['contracts', 'get', '61001', '--include', INCLUDES, '--score', '--extractor-ids', '12'];
    const { stdout } = await onTty(args);
    expect(queryOf('/v1/contracts/61001')).toMatchObject({ projectId: PROJECT, score: 'true', extractorIds: '12' });
    expect(queryOf('/v1/contracts/61001')?.includes?.split(',').sort()).toEqual(INCLUDES.split(',').sort());
    for (const section of [
      'Royalties (2)',
      'Accounting periods (1)',
      'Splits (1)',
      'Languages (1)',
      'Commitments (1)',
      'Recordings (1)',
    ]) {
      expect(stdout).toContain(section);
    }
    expectLineWith(stdout, 'Streaming', '22 %', 'net receipts');
    expectLineWith(stdout, 'Physical', '15 %', 'cd, vinyl');
    expectLineWith(stdout, 'quarterly', '60 days', '100.00');
    expectLineWith(stdout, 'THRESHOLD GBP');
    expectLineWith(stdout, 'Mara Quill 50 %', 'Aurora Vale Publishing 50 %');
    expectLineWith(stdout, 'Glass Harbour', 'GBQAV2600011');
    // A row's plumbing stays out of a terminal; no term is drawn as JSON.
    expect(stdout).not.toContain('0f0e0d0c-1111');
    expect(stdout).not.toMatch(/\{"|\[\{|\[object/);
    expect(stdout).toContain('quill-recording-agreement-2026.pdf');
    expect(stdout).toContain('0.91');
    expect(stdout).toContain('Key person clause');
  });

  it('piped, a get draws what a terminal draws: includes by their own names, objects by their parts, not as JSON', async () => {
    const contract = await pds([
      'contracts',
      'get',
      '61001',
      '--include',
      INCLUDES,
      '--score',
      '--extractor-ids',
      '12',
    ]);
    expect(contract.code).toBe(0);
    // As a top-level include is drawn (`royalties<TAB>…`), never the `extractions` object whole.
    for (const include of INCLUDES.split(',')) expect(contract.stdout).toMatch(new RegExp(`^${include}\\t`, 'm'));
    expect(contract.stdout).not.toMatch(/^extractions\t/m);
    expect(contract.stdout).toMatch(/^score\S*\t0\.91$/m);
    const statement = await pds(['statements', 'get', '72001']);
    expect(statement.stdout).toMatch(/^\S*licensor_revenue\t4368\.12$/m);
    for (const output of [contract.stdout, statement.stdout]) {
      const objects = output.split('\n').filter((line) => line.split('\t')[1]?.startsWith('{'));
      expect(objects).toEqual([]);
    }
  });

  it('recordings get shows every identifier with its source and the creators with their roles', async () => {
    const { stdout } = await onTty(['recordings', 'get', '7701', '--products']);
    expect(queryOf('/v1/recordings/7701')).toMatchObject({ includeProducts: 'true' });
    expectLineWith(stdout, 'GBQAV2600011', 'spotify');
    expectLineWith(stdout, 'GBQAV2600099', 'contract');
    expectLineWith(stdout, 'Mara Quill', 'composer');
    expectLineWith(stdout, 'Ode Balin', 'producer');
    expectLineWith(stdout, 'Glass Harbour (Single)', '5056321600014');
  });

  it('entities get shows the roles of its artists, writers and relations', async () => {
    const { stdout } = await onTty(['entities', 'get', '9301']);
    expectLineWith(stdout, 'Mara Quill', 'signed artist');
    expectLineWith(stdout, 'Ode Balin', 'co-writer');
    expectLineWith(stdout, 'Ines Fairweather', 'licensing');
  });

  it('statements get shows the summary lines', async () => {
    expect(await jsonOf(['statements', 'get', '72001'])).toEqual(
      withoutDetailed(example('statements.get.detailed').data),
    );
    const { code, stdout } = await onTty(['statements', 'get', '72001']);
    expect(code).toBe(0);
    expect(stdout).toContain('412,055 streams across 31 territories');
    expect(stdout).toContain('Largest territory: GB (38%)');
    expectReadable(topFields(stdout));
    expect(await jsonOf(['statements', 'get', '72001', '--detailed'])).toEqual({
      ...example('statements.get.detailed').data,
      detailed: {
        ...example('statements.get.detailed').data.detailed,
        csv_url: `${replay.storage.url}/exports/72001.csv?token=sig`,
      },
    });
  });

  it('statements status and contracts status show the processes', async () => {
    const statement = await pds(['statements', 'status', '53011']);
    expect(statement.code).toBe(0);
    expect(statement.stdout).toMatch(/^statement_id\t72001$/m);
    expect(statement.stdout).toMatch(/^state\tcompleted$/m);
    const contract = await onTty(['contracts', 'status', '53021']);
    expect(contract.code).toBe(0);
    expectLineWith(contract.stdout, '✓', 'extracted royalties');
    expectLineWith(contract.stdout, '…', 'language', 'queued');
    expect(sent()).toEqual(['GET /v1/statements/53011/processes', 'GET /v1/contracts/53021/processes']);
  });
});

const withoutDetailed = ({ detailed: _d, detailed_error: _e, ...rest }: Record<string, unknown>) => rest;

describe('pds statements lines', () => {
  it('prints the lines CSV, fetched from the signed URL without any credential', async () => {
    const result = await pds(['statements', 'lines', '72001']);
    expect(result).toMatchObject({ code: 0, stdout: STATEMENT_LINES_CSV });
    expect(queryOf('/v1/statements/72001')).toMatchObject({ projectId: PROJECT, detailed: 'true' });
    expect(replay.storage.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /exports/72001.csv']);
    const fetched = replay.storage.requests[0]!;
    expect(fetched.headers.authorization).toBeUndefined();
    expect(JSON.stringify(fetched.headers)).not.toContain(TOKEN);
  });

  it('-o FILE saves them and prints nothing on stdout', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pds-lines-')), 'lines.csv');
    const result = await pds(['statements', 'lines', '72001', '-o', file]);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(file, 'utf8')).toBe(STATEMENT_LINES_CSV);
    expect(replay.storage.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("exits 1 with the service's detailed_error for a statement not processed yet, fetching nothing", async () => {
    const result = await pds(['statements', 'lines', '72002']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Statement extraction is not completed yet');
    expect(replay.storage.requests).toEqual([]);
  });

  it('refuses an id that is not a whole number before sending anything (exit 2); an unknown statement is a 404 (exit 5)', async () => {
    const bad = await pds(['statements', 'lines', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: .*'abc'/);
    expect(replay.requests).toEqual([]);
    const unknown = await pds(['statements', 'lines', '79999']);
    expect(unknown.code).toBe(5);
    // As `statements get` and `download` say it: which statement, in which project.
    expect(unknown.stderr).toMatch(/^error: statement 79999 not found in project /);
    expect(replay.storage.requests).toEqual([]);
  });
});

describe('search and knowledge', () => {
  it('search lists contracts by matched_file_name beside the named matches, with their type; --json keeps every field sent', async () => {
    const { rows } = tsv((await pds(['search', 'glass'])).stdout);
    const found = rows.map((row) => [row.type, row.id, row.name]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['recording', '7701', 'Glass Harbour'],
        ['composition', '8801', 'Glass Harbour'],
        ['contract', '61001', 'quill-recording-agreement-2026.pdf'],
      ]),
    );
    expect(found).toHaveLength(3);
    expectReadable((await pds(['search', 'glass'])).stdout);
    expectReadable((await onTty(['search', 'glass'])).stdout);
    const json: Record<string, unknown>[] = await jsonOf(['search', 'glass']);
    const data = example('projects.search').data;
    const expected = Object.entries(data).flatMap(([group, matches]) =>
      (matches as object[]).map((match) => ({ group, match })),
    );
    expect(json).toHaveLength(expected.length);
    for (const { group, match } of expected) {
      expect(json).toContainEqual(expect.objectContaining({ ...match, type: group.replace(/s$/, '') }));
    }
    expect(queryOf(`/v1/projects/${PROJECT}/search`)).toMatchObject({ q: 'glass' });
  });

  it('a project without a name is called by its id, never "null"', async () => {
    replay.alter = (at, data) =>
      at === '/v1/projects' || at === `/v1/projects/${PROJECT}`
        ? Array.isArray(data)
          ? data.map((p: object) => ({ ...p, name: null }))
          : { ...data, name: null }
        : data;
    const used = await pds(['use', PROJECT], { project: null });
    expect(used.code).toBe(0);
    expect(used.stderr).toContain(`Now using ${PROJECT} (${PROJECT})`);
    expect(used.stderr).not.toContain('null');
    expect((await pds(['projects', 'ls'])).code).toBe(0);
  });

  it('search takes a group that is null and a key that is no group; a match without an id is a clear error', async () => {
    const path = `/v1/projects/${PROJECT}/search`;
    replay.alter = (at, data) => (at === path ? { ...data, artists: null, took_ms: 12 } : data);
    const result = await pds(['search', 'glass']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(
      tsv(result.stdout)
        .rows.map((row) => row.id)
        .sort(),
    ).toEqual(['61001', '7701', '8801']);
    replay.alter = (at, data) => (at === path ? { ...data, recordings: [{ name: 'no id', rank: 1 }] } : data);
    const broken = await pds(['search', 'glass']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toContain(`error: unexpected response from GET ${path}`);
    expect(broken.stderr).toContain('data.recordings.0.id: a match needs an id');
  });

  it('knowledge search lists the nodes; --kind filters them in pds and sends no kind', async () => {
    expect(await jsonOf(['knowledge', 'search', 'approval'])).toEqual(example('knowledge.search').data.results);
    const table = await pds(['knowledge', 'search', 'approval']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Sync approval');
    expectReadable(table.stdout);
    expect(await jsonOf(['knowledge', 'search', 'approval', '--kind', 'person'])).toEqual([]);
    expect(await jsonOf(['knowledge', 'search', 'approval', '--kind', 'policy,person'])).toEqual(
      example('knowledge.search').data.results,
    );
    const asked = replay.requests.filter((r) => r.path.endsWith('/knowledge/search'));
    expect(asked).toHaveLength(4);
    for (const request of asked) expect(Object.keys(request.query)).not.toContain('kind');
  });
});

describe('uploads and retry in the deployed forms', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-replay-upload-'));
  const csv = join(dir, 'q2.csv');
  const bytes = 'isrc,streams\nGBQAV2600011,12\n';
  writeFileSync(csv, bytes);
  const complete = (name: string) => example(`uploads.complete.${name}`).data;

  it("a plain upload goes mint → PUT (no credential) → complete, and prints the service's answer", async () => {
    const result = await pds(['upload', 'statement', csv, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      expect.objectContaining({ upload: expect.objectContaining(complete('plain')) }),
    ]);
    expect(sent()).toEqual(['POST /v1/statements/uploads', 'POST /v1/statements/uploads/complete']);
    expect(JSON.parse(replay.requests[0]!.body)).toMatchObject({
      fileName: 'q2.csv',
      fileType: 'text/csv',
      fileSize: bytes.length,
    });
    expect(JSON.parse(replay.requests[1]!.body)).toEqual({ stagingId: complete('plain').staging_id });
    const [put] = replay.storage.requests;
    expect(put).toMatchObject({ method: 'PUT', body: bytes });
    expect(put?.headers).toMatchObject({ 'content-type': 'text/csv', 'x-upsert': 'true' });
    expect(put?.headers.authorization).toBeUndefined();
  });

  it('an upload with --accounting-period carries the context and reports the numeric counts', async () => {
    const result = await pds(['upload', 'statement', csv, '--accounting-period', '2026Q2', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      expect.objectContaining({ upload: expect.objectContaining(complete('context')) }),
    ]);
    expect(JSON.parse(replay.requests[0]!.body)).toMatchObject({ context: { accountingPeriod: { value: '2026Q2' } } });
    const human = await pds(['upload', 'statement', csv, '--accounting-period', '2026Q2']);
    expect(human.code).toBe(0);
    expect(human.stderr).toContain(String(complete('context').staging_id));
    expectReadable(human.stderr);
  });

  it('a paused upload says how to resume it (exit 0), and --wait fails as processing does (exit 7)', async () => {
    replay.completeAs = 'paused';
    const result = await pds(['upload', 'statement', csv]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('paused');
    expect(result.stderr).toContain(`pds statements retry ${complete('paused').staging_id}`);
    const waited = await pds(['upload', 'statement', csv, '--wait']);
    expect(waited.code).toBe(7);
  });

  it("statements retry prints the service's answer, counts as numbers", async () => {
    expect(await jsonOf(['statements', 'retry', '53015'])).toEqual(example('staging.retry').data);
    const human = await pds(['statements', 'retry', '53015']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^staging_id\t53015$/m);
    expect(human.stderr).toContain('3 of 3');
    expect(sent().at(-1)).toBe('POST /v1/statements/staging/53015/retry');
  });
});

describe('--verbose names the fields that differ from the documented form', () => {
  it('once per field and command, and the command still succeeds with the values kept as received', async () => {
    // Both recordings get a duration as text and artists as one string: two fields in another form.
    replay.alter = (path, data) =>
      path === '/v1/recordings'
        ? { ...data, items: data.items.map((r: object) => ({ ...r, duration_ms: '3:34', artists: 'Mara Quill' })) }
        : data;
    const result = await pds(['recordings', 'ls', '--verbose']);
    expect(result.code).toBe(0);
    const naming = (field: string) =>
      result.stderr.split('\n').filter((line) => new RegExp(`\\b${field}\\b`).test(line));
    expect(naming('duration_ms')).toHaveLength(1);
    expect(naming('artists')).toHaveLength(1);
    // Fields in their documented form are not named.
    expect(naming('identifiers')).toEqual([]);
    expect(naming('internal_uuid')).toEqual([]);
    expectReadable(result.stdout);
    expect(tsv(result.stdout).rows.map((row) => row.artists)).toEqual(['Mara Quill', 'Mara Quill']);
    const json = await jsonOf(['recordings', 'ls']);
    expect(json.map((r: { duration_ms: unknown }) => r.duration_ms)).toEqual(['3:34', '3:34']);
    // Without --verbose nothing is said.
    expect((await pds(['recordings', 'ls'])).stderr).toBe('');
  });

  it('once per command across every page of an --all', async () => {
    replay.alter = (path, data) =>
      path === '/v1/contracts'
        ? { ...data, items: data.items.map((c: object) => ({ ...c, created_at: 20260302 })) }
        : data;
    const result = await pds(['contracts', 'ls', '--all', '--verbose']);
    expect(result.code).toBe(0);
    expect(replay.requests.length).toBeGreaterThan(2);
    expect(result.stderr.split('\n').filter((line) => /\bcreated_at\b/.test(line))).toHaveLength(1);
  });

  // The example answers are the documented form: nothing to say about any of their fields.
  it.each([
    ['projects', 'ls'],
    ['contracts', 'ls', '--include', 'royalties,accounting-periods'],
    ['contracts', 'get', '61001', '--include', 'royalties,splits,commitments', '--score', '--extractor-ids', '12'],
    ['statements', 'ls'],
    ['statements', 'get', '72001', '--detailed'],
    ['recordings', 'ls'],
    ['recordings', 'get', '7701', '--products'],
    ['compositions', 'ls'],
    ['artists', 'ls', '--merged'],
    ['entities', 'get', '9301'],
    ['relations', 'ls'],
    ['search', 'glass'],
  ])('says nothing of the fields of the example answers: %s %s', async (...args) => {
    const result = await pds([...args, '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('> GET ');
    expect(result.stderr.split('\n').filter((line) => /documented/.test(line))).toEqual([]);
  });
});

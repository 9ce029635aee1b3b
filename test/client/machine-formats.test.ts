// The machine formats lose nothing: CSV has a column for every field the resource documents (and
// any other the first page holds), also when the first records lack a field that later pages have;
// --fields takes every documented field and any field the records hold; TSV and CSV leave a missing
// value empty. Against a service whose statements gain fields only on their second page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFields } from '../../src/commands/catalog/views.js';
import { runCli } from '../helpers/cli.js';
import { csvRecords, parseCsv } from '../helpers/csv.js';
import { DEMO_PROJECT, json, startRogueServer, type Behaviour, type RogueServer } from '../helpers/rogue-server.js';

/** Page 1: statements without accounting_period or tags (one with a field no document names); page 2 has them. */
const PAGES: Record<string, unknown>[][] = [
  [
    { id: 1, file_name: 'a.pdf', processing_status: 'completed', x_region: 'north' },
    { id: 2, file_name: 'b.pdf', processing_status: null },
  ],
  [
    {
      id: 3,
      file_name: 'c.pdf',
      processing_status: 'completed',
      accounting_period: '2024-H1',
      tags: ['q1', 'audit'],
      x_late: 'seen on page 2',
    },
  ],
];

const statementPages: Behaviour = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/v1/statements') {
    json(200, { data: PAGES[Number(url.searchParams.get('page') ?? 1) - 1] ?? [] })(req, res);
    return;
  }
  if (url.pathname === '/v1/statements/3') {
    json(200, { data: PAGES[1]?.[0] })(req, res);
    return;
  }
  json(404, { error: { message: 'not found' } })(req, res);
};

let server: RogueServer;
beforeAll(async () => {
  server = await startRogueServer(statementPages);
});
afterAll(() => server.close());

const ls = (...args: string[]) =>
  runCli(server.url, ['statements', 'ls', '--all', '--per-page', '2', ...args], { project: DEMO_PROJECT });
const pagesAsked = () => server.requests.filter((r) => r.url.startsWith('/v1/statements?')).length;

describe('CSV columns', () => {
  it('every documented field in its order, then the unknown fields of the first page; later pages keep theirs', async () => {
    const csv = await ls('--format', 'csv');
    expect(csv.code).toBe(0);
    const [header] = parseCsv(csv.stdout);
    expect(header).toEqual([...listFields('statements'), 'x_region']);
    const rows = csvRecords(csv.stdout);
    expect(rows.map((row) => row.id)).toEqual(['1', '2', '3']);
    expect(rows[2]).toMatchObject({ accounting_period: '2024-H1', tags: 'q1; audit', file_name: 'c.pdf' });
    // A missing value is an empty cell, in CSV as in JSON's absence.
    expect(rows[1]).toMatchObject({ processing_status: '', accounting_period: '', x_region: '' });
  });

  it('is the same header, with no rows, for a list without records', async () => {
    const csv = await runCli(server.url, ['statements', 'ls', '--page', '5', '--format', 'csv'], {
      project: DEMO_PROJECT,
    });
    expect(csv).toEqual({ code: 0, stdout: `${listFields('statements').join(',')}\r\n`, stderr: '' });
  });
});

describe('--fields', () => {
  it('takes documented fields the first records lack, and a field only the records hold', async () => {
    const documented = await ls('--format', 'csv', '--fields', 'id,accounting_period,tags');
    expect(documented.stderr).toBe('');
    expect(parseCsv(documented.stdout)).toEqual([
      ['id', 'accounting_period', 'tags'],
      ['1', '', ''],
      ['2', '', ''],
      ['3', '2024-H1', 'q1; audit'],
    ]);
    const seen = await ls('--json', '--fields', 'id,x_region');
    expect(JSON.parse(seen.stdout)).toEqual([
      { id: 1, x_region: 'north' },
      { id: 2, x_region: null },
      { id: 3, x_region: null },
    ]);
    const record = await runCli(
      server.url,
      ['statements', 'get', '3', '--json', '--fields', 'id,x_late,accounting_period'],
      { project: DEMO_PROJECT },
    );
    expect(JSON.parse(record.stdout)).toEqual({ id: 3, x_late: 'seen on page 2', accounting_period: '2024-H1' });
  });

  it('a name neither documented nor on the first page: exit 2 listing both, nothing printed, no page after the first asked for', async () => {
    server.requests.length = 0;
    const result = await ls('--format', 'csv', '--fields', 'id,x_late');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: unknown field 'x_late' for statements\n  fields of statements: ${[...listFields('statements'), 'x_region'].join(', ')}\n`,
    );
    expect(pagesAsked()).toBe(1);
  });
});

describe('TSV', () => {
  it('leaves a missing value empty: no dash stands for it in a pipe', async () => {
    const tsv = await ls();
    expect(tsv.code).toBe(0);
    const [header = [], ...rows] = tsv.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
    expect(header[0]).toBe('ID');
    expect(rows.map((row) => row[0])).toEqual(['1', '2', '3']);
    for (const row of rows) {
      expect(row).toHaveLength(header.length);
      for (const cell of row) expect(cell).not.toBe('—');
    }
    // Statement 2 has only an id and a file name: every other cell of its row is empty.
    expect(rows[1]?.filter((cell) => cell !== '')).toEqual(['2', ...(rows[1]?.includes('b.pdf') ? ['b.pdf'] : [])]);
  });
});

import { describe, expect, it } from 'vitest';
import { Output } from '../../src/lib/output/renderer.js';
import { readableDate } from '../../src/lib/output/cell-text.js';
import type { ListView } from '../../src/lib/output/view.js';
import type { ListPage } from '../../src/lib/api/catalog.js';
import { memoryIO } from '../../src/lib/io.js';
import type { Settings } from '../../src/lib/config/settings.js';

interface Row {
  id: string;
  name: string;
  created_at?: string;
  note?: unknown;
}

const settings = (overrides: Partial<Settings> = {}): Settings => ({
  profile: 'default',
  apiUrl: 'http://127.0.0.1:4010',
  apiUrlSource: 'default',
  timeoutMs: 30_000,
  retryBudgetMs: 60_000,
  allowHttp: false,
  json: false,
  csvBom: false,
  csvRaw: false,
  quiet: false,
  verbose: false,
  noColor: false,
  dryRun: false,
  ...overrides,
});

function setup(options: { tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv } & Partial<Settings> = {}) {
  const { tty, columns, env, ...rest } = options;
  const io = memoryIO({ tty: tty ?? false, columns: columns ?? 100 });
  const output = new Output(io, settings(rest), env ?? { NO_COLOR: '1' });
  return { io, output };
}

async function* pagesOf<T>(...pages: ListPage<T>[]): AsyncGenerator<ListPage<T>> {
  for (const page of pages) yield page;
}

const view: ListView<Row> = {
  columns: [
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
    { header: 'created', value: (r) => r.created_at, date: true },
  ],
  id: (r) => r.id,
  noun: 'rows',
};

const rows: Row[] = [
  { id: 'a1', name: 'First', created_at: '2026-01-15T10:00:00.000Z' },
  {
    id: 'a2',
    name: 'Second\tTabbed\nand two lines\r\n',
    created_at: '2026-01-16T08:05:00.000Z',
    note: { nested: ['x', 1] },
  },
  { id: 'a3', name: 'Third' },
];

describe('modes', () => {
  it('picks json > ids > table (stdout TTY) > tsv', () => {
    expect(setup({ json: true, quiet: true, tty: true }).output.mode).toBe('json');
    expect(setup({ quiet: true, tty: true }).output.mode).toBe('ids');
    expect(setup({ tty: true }).output.mode).toBe('table');
    expect(setup().output.mode).toBe('tsv');
    // A data format wins over -q; -q wins over a human one.
    expect(setup({ format: 'csv', quiet: true }).output.mode).toBe('csv');
    expect(setup({ format: 'table', quiet: true }).output.mode).toBe('ids');
    expect(setup({ format: 'tsv', tty: true }).output.mode).toBe('tsv');
  });
});

describe('TSV (piped)', () => {
  it('writes a header and one line per record; tabs and newlines in a cell are shown as \\t and \\n', async () => {
    const { io, output } = setup();
    await output.list(pagesOf({ items: rows, page: 1, perPage: 20 }), view);
    expect(io.out()).toBe(
      'ID\tNAME\tCREATED\n' +
        'a1\tFirst\t2026-01-15T10:00:00.000Z\n' +
        'a2\tSecond\\tTabbed\\nand two lines\\r\\n\t2026-01-16T08:05:00.000Z\n' +
        'a3\tThird\t\n',
    );
    // No footer, no color, nothing on stderr when piped output is being parsed.
    expect(io.err()).toBe('');
  });

  it('writes nothing, not even the header, when the first page fails', async () => {
    const { io, output } = setup();
    async function* failing(): AsyncGenerator<ListPage<Row>> {
      yield* [];
      throw new Error('network down');
    }
    await expect(output.list(failing(), view)).rejects.toThrow('network down');
    expect(io.out()).toBe('');
  });

  it('writes only the header for an empty list', async () => {
    const { io, output } = setup();
    await output.list(pagesOf<Row>({ items: [], page: 1, perPage: 20 }), view);
    expect(io.out()).toBe('ID\tNAME\tCREATED\n');
  });

  it('writes a record as key<TAB>value, nested records as one JSON cell', async () => {
    const { io, output } = setup();
    await output.record({ id: 'x', name: 'a\tb\nc', tags: ['p', 'q'], royalties: [{ id: 'r1', rate: 0.1 }] });
    expect(io.out()).toBe('id\tx\nname\ta\\tb\\nc\ntags\tp, q\nroyalties\t[{"id":"r1","rate":0.1}]\n');
  });
});

describe('JSON', () => {
  it('streams pages into output equal to JSON.stringify(array, null, 2)', async () => {
    const { io, output } = setup({ json: true });
    const all = [...rows, { id: 'b1', name: 'Next "page"', note: null }, { id: 'b2', name: 'ünïcødé ✓' }];
    await output.list(
      pagesOf<Row>(
        { items: rows, page: 1, perPage: 3 },
        { items: [], page: 2, perPage: 3 },
        { items: all.slice(3), page: 3, perPage: 3 },
      ),
      view,
    );
    expect(io.out()).toBe(`${JSON.stringify(all, null, 2)}\n`);
    expect(JSON.parse(io.out())).toEqual(all);
  });

  it('prints [] for no records', async () => {
    const { io, output } = setup({ json: true });
    await output.list(pagesOf<Row>({ items: [], page: 1, perPage: 20 }), view);
    expect(io.out()).toBe(`${JSON.stringify([], null, 2)}\n`);
  });

  it('prints a record as is, also on a TTY, with no color', async () => {
    const { io, output } = setup({ json: true, tty: true, env: { FORCE_COLOR: '1' } });
    const record = { id: 'x', created_at: '2026-01-15T10:00:00.000Z', extra: { unknown: true } };
    await output.record(record);
    expect(io.out()).toBe(`${JSON.stringify(record, null, 2)}\n`);
  });
});

describe('--format csv, ndjson, yaml', () => {
  const formula: Row[] = [
    { id: 'c1', name: '=HYPERLINK("http://x")', note: { nested: ['x', 1] } },
    { id: 'c2', name: 'a, "b"\nc' },
    { id: 'c3', name: '-5', created_at: '@at' },
  ];

  it('csv: RFC 4180 with CRLF, the JSON keys as header, a nested object spread into dotted columns (a list of scalars joined), formula cells prefixed', async () => {
    const { io, output } = setup({ format: 'csv', tty: true, env: { FORCE_COLOR: '1' } });
    await output.list(
      pagesOf({ items: formula.slice(0, 2), page: 1, perPage: 2 }, { items: formula.slice(2), page: 2, perPage: 2 }),
      view,
    );
    expect(io.out()).toBe(
      'id,name,note.nested\r\n' +
        'c1,"\'=HYPERLINK(""http://x"")",x; 1\r\n' +
        // On a terminal a line feed in a cell is shown as \\n; piped it is quoted as is (below).
        'c2,"a, ""b""\\nc",\r\n' +
        'c3,-5,\r\n',
    );
    expect(io.err()).toBe('');
  });

  it('csv: --csv-raw leaves formulas, --csv-bom starts with the BOM, piped cells keep their line feeds', async () => {
    const { io, output } = setup({ format: 'csv', csvRaw: true, csvBom: true });
    await output.list(pagesOf({ items: formula.slice(0, 2), page: 1, perPage: 20 }), view);
    expect(io.out()).toBe('\uFEFFid,name,note.nested\r\nc1,"=HYPERLINK(""http://x"")",x; 1\r\nc2,"a, ""b""\nc",\r\n');
  });

  it('csv: --fields makes the header, even for no records; a record is a header and one row', async () => {
    const { io, output } = setup({ format: 'csv' });
    output.fields = ['name', 'id'];
    await output.list(pagesOf<Row>({ items: [], page: 1, perPage: 20 }), { ...view, fields: ['id', 'name'] });
    expect(io.out()).toBe('name,id\r\n');
    const second = setup({ format: 'csv', quiet: true });
    await second.output.record({ api_url: 'http://127.0.0.1:4010', profile: 'default' });
    expect(second.io.out()).toBe('api_url,profile\r\nhttp://127.0.0.1:4010,default\r\n');
  });

  it('ndjson: one compact record a line, a write per page; a record is one line', async () => {
    const { io, output } = setup({ format: 'ndjson', quiet: true });
    const writes: string[] = [];
    io.stdout.on('data', (chunk: Buffer) => writes.push(chunk.toString()));
    await output.list(
      pagesOf({ items: rows.slice(0, 2), page: 1, perPage: 2 }, { items: rows.slice(2), page: 2, perPage: 2 }),
      view,
    );
    expect(io.out()).toBe(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    expect(writes).toHaveLength(2);
    const second = setup({ format: 'ndjson' });
    await second.output.record({ id: 'x', n: 1 });
    expect(second.io.out()).toBe('{"id":"x","n":1}\n');
  });

  it('yaml: one document for a list or a record', async () => {
    const { io, output } = setup({ format: 'yaml' });
    await output.list(
      pagesOf({ items: rows.slice(0, 1), page: 1, perPage: 1 }, { items: rows.slice(2), page: 2, perPage: 1 }),
      view,
    );
    expect(io.out()).toBe('- id: a1\n  name: First\n  created_at: 2026-01-15T10:00:00.000Z\n- id: a3\n  name: Third\n');
    const second = setup({ format: 'yaml' });
    await second.output.record({ api_url: 'http://x', nested: { a: [1, 2] } });
    expect(second.io.out()).toBe('api_url: http://x\nnested:\n  a:\n    - 1\n    - 2\n');
  });

  it('data(): any value in each format, tables for records in human modes', async () => {
    const value = [
      { command: 'ls', exit_code: 0 },
      { command: 'pwd', exit_code: 1 },
    ];
    const outputs: Record<string, string> = {};
    for (const format of ['json', 'ndjson', 'yaml', 'csv', 'tsv'] as const) {
      const { io, output } = setup({ format });
      await output.data(value);
      outputs[format] = io.out();
    }
    expect(outputs).toEqual({
      json: `${JSON.stringify(value, null, 2)}\n`,
      ndjson: '{"command":"ls","exit_code":0}\n{"command":"pwd","exit_code":1}\n',
      yaml: '- command: ls\n  exit_code: 0\n- command: pwd\n  exit_code: 1\n',
      csv: 'command,exit_code\r\nls,0\r\npwd,1\r\n',
      tsv: 'COMMAND\tEXIT_CODE\nls\t0\npwd\t1\n',
    });
  });
});

describe('spinner', () => {
  it('draws no frames with TERM=dumb or PDS_NO_SPINNER=1: a static line per new text', async () => {
    for (const env of [{ TERM: 'dumb' }, { PDS_NO_SPINNER: '1', NO_COLOR: '1' }]) {
      const { io, output } = setup({ tty: true, env });
      expect(output.animates).toBe(false);
      const spinner = await output.spinner('contract upload 7: checking');
      spinner.update('contract upload 7: checking');
      spinner.update('contract upload 7: extracting');
      spinner.stop();
      expect(io.err()).toBe('contract upload 7: checking\ncontract upload 7: extracting\n');
    }
    const piped = setup({ env: { TERM: 'xterm' } });
    (await piped.output.spinner('quiet when piped')).stop();
    expect(piped.io.err()).toBe('');
    expect(setup({ tty: true, env: { TERM: 'xterm', PDS_NO_SPINNER: '0' } }).output.animates).toBe(true);
  });
});

describe('ids (-q)', () => {
  it('prints one id per line across pages and nothing else', async () => {
    const { io, output } = setup({ quiet: true, tty: true });
    await output.list(
      pagesOf({ items: rows.slice(0, 2), page: 1, perPage: 2 }, { items: rows.slice(2), page: 2, perPage: 2 }),
      view,
    );
    expect(io.out()).toBe('a1\na2\na3\n');
    expect(io.err()).toBe('');
  });
});

describe('table (TTY)', () => {
  it('aligns columns, shows readable dates and a paging footer on stderr', async () => {
    const { io, output } = setup({ tty: true });
    await output.list(pagesOf({ items: rows.slice(0, 1).concat(rows.slice(2)), page: 2, perPage: 2, total: 5 }), view);
    expect(io.out()).toBe(
      'ID  NAME   CREATED\n' + //
        'a1  First  2026-01-15 10:00\n' +
        'a3  Third\n',
    );
    expect(io.err()).toBe('page 2 of 3 (5 total)\n');
  });

  it('says when more pages may follow a plain-array page, and counts with --all', async () => {
    const first = setup({ tty: true });
    await first.output.list(pagesOf({ items: rows.slice(0, 2), page: 1, perPage: 2 }), view);
    expect(first.io.err()).toBe('page 1 (more with --page 2 or --all)\n');
    const all = setup({ tty: true });
    await all.output.list(
      pagesOf({ items: rows.slice(0, 2), page: 1, perPage: 2 }, { items: rows.slice(2), page: 2, perPage: 2 }),
      {
        ...view,
        all: true,
      },
    );
    expect(all.io.err()).toBe('3 rows\n');
  });

  it('says "no … found" on stderr for an empty list', async () => {
    const { io, output } = setup({ tty: true });
    await output.list(pagesOf<Row>({ items: [], page: 1, perPage: 20 }), view);
    expect(io.out()).toBe('');
    expect(io.err()).toBe('no rows found\n');
  });

  it('truncates the widest column with … to fit the terminal width, keeping the gaps', async () => {
    const { io, output } = setup({ tty: true, columns: 60 });
    const long: Row[] = [
      {
        id: 'id-000000000001',
        name: 'A very long name that cannot possibly fit in sixty columns',
        created_at: '2026-01-15T10:00:00.000Z',
      },
      { id: 'id-000000000002', name: 'Short', created_at: '2026-01-15T10:00:00.000Z' },
    ];
    await output.list(pagesOf({ items: long, page: 1, perPage: 20, total: 2 }), view);
    expect(io.out()).toBe(
      'ID               NAME                       CREATED\n' +
        'id-000000000001  A very long name that ca…  2026-01-15 10:00\n' +
        'id-000000000002  Short                      2026-01-15 10:00\n',
    );
    for (const line of io.out().trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('drops the lowest-priority column whole before it cuts a name below a readable width', async () => {
    const { io, output } = setup({ tty: true, columns: 44 });
    const long: Row[] = [{ id: 'id-000000000001', name: 'A long name', created_at: '2026-01-15T10:00:00.000Z' }];
    await output.list(pagesOf({ items: long, page: 1, perPage: 20, total: 1 }), view);
    expect(io.out()).toBe('ID               NAME\n' + 'id-000000000001  A long name\n');
  });

  it('cuts a name down to a readable width, never an id or a header', async () => {
    const { io, output } = setup({ tty: true, columns: 50 });
    const long: Row[] = [
      { id: 'id-000000000001', name: 'A much longer name than fits', created_at: '2026-01-15T10:00:00.000Z' },
    ];
    await output.list(pagesOf({ items: long, page: 1, perPage: 20, total: 1 }), view);
    expect(io.out()).toBe(
      'ID               NAME             CREATED\n' + 'id-000000000001  A much longer …  2026-01-15 10:00\n',
    );
    const narrow = setup({ tty: true, columns: 30 });
    await narrow.output.list(pagesOf({ items: long, page: 1, perPage: 20, total: 1 }), view);
    expect(narrow.io.out()).toBe('ID               NAME\n' + 'id-000000000001  A much longe…\n');
  });

  it('keeps every row on one line, control characters shown as text', async () => {
    const { io, output } = setup({ tty: true });
    await output.list(pagesOf({ items: [rows[1]!], page: 1, perPage: 20 }), view);
    expect(io.out()).toBe(
      'ID  NAME                               CREATED\n' + //
        'a2  Second\\tTabbed\\nand two lines\\r\\n  2026-01-16 08:05\n',
    );
  });

  it('colors the header on a TTY unless NO_COLOR or --no-color', async () => {
    const colored = setup({ tty: true, env: {} });
    await colored.output.list(pagesOf({ items: rows.slice(0, 1), page: 1, perPage: 20 }), view);
    expect(colored.io.out()).toContain('\u001b[1mID');
    for (const options of [{ env: { NO_COLOR: '1' } }, { env: {}, noColor: true }]) {
      const plain = setup({ tty: true, ...options });
      await plain.output.list(pagesOf({ items: rows.slice(0, 1), page: 1, perPage: 20 }), view);
      expect(plain.io.out()).not.toContain('\u001b[');
    }
  });

  it('prints a record as aligned fields with nested records as a sub-table', async () => {
    const { io, output } = setup({ tty: true });
    await output.record({
      id: 'c1',
      name: 'Deal',
      created_at: '2026-01-15T10:00:00.000Z',
      royalties: [
        { id: 'r1', rate: 0.18, type: 'net' },
        { id: 'r2', rate: 0.5, type: 'sync' },
      ],
    });
    expect(io.out()).toBe(
      'id          c1\n' +
        'name        Deal\n' +
        'created_at  2026-01-15 10:00\n' +
        '\nroyalties (2)\n' +
        '  ID  RATE  TYPE\n' +
        '  r1  0.18  net\n' +
        '  r2  0.5   sync\n',
    );
  });
});

describe('human text', () => {
  it('goes to stderr, and -q silences it', () => {
    const loud = setup();
    loud.output.info('hello');
    loud.output.warn('careful');
    expect(loud.io.err()).toBe('hello\nwarning: careful\n');
    expect(loud.io.out()).toBe('');
    const quiet = setup({ quiet: true });
    quiet.output.info('hello');
    quiet.output.warn('careful');
    expect(quiet.io.err()).toBe('');
  });

  it('readableDate formats timestamps in the local zone (TZ=UTC in tests) and leaves the rest', () => {
    expect(readableDate('2026-01-15T10:00:00.000Z')).toBe('2026-01-15 10:00');
    expect(readableDate('2026-01-15')).toBe('2026-01-15');
    expect(readableDate(undefined)).toBe('');
  });
});

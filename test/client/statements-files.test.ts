// `--format xlsx|parquet -o FILE`: the lines and a report written as files, read back here by
// readers that are not the writers (read-excel-file for the cells, hyparquet for Parquet), checked
// against the emulator's own lines in integer cents.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import readXlsxFile from 'read-excel-file/node';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import ExcelJS from 'exceljs';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { deployedStatement, isProcessed, statementLines } from '../../src/emulator/deployed/statements.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const pds = (args: string[], options: { tty?: boolean } = {}) =>
  runCli(emulator, args, { ...options, env: { NO_COLOR: '1', PDS_PAGER: '' } });
const data = () => emulator.state.data[DEMO_PROJECT_ID]!;
const processed = () => data().statements.filter(isProcessed);
const dir = mkdtempSync(join(tmpdir(), 'pds-files-'));
const money = (c: number) => Number((c / 100).toFixed(2));

/** Every line's licensor cents by statement, and the count of lines. */
function expectedLines() {
  const byStatement = new Map<number, number>();
  let count = 0;
  for (const s of processed()) {
    const lines = statementLines(data(), s);
    count += lines.length;
    byStatement.set(
      s.id,
      lines.reduce((n, l) => n + l.licensorCents, 0),
    );
  }
  return { byStatement, count };
}

describe('--format parquet', () => {
  it('lines --all: a row per line, typed columns, DECIMAL(18,2) amounts that add up exactly', async () => {
    const path = join(dir, 'lines.parquet');
    const result = await pds(['statements', 'lines', '--all', '--format', 'parquet', '-o', path]);
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const file = await asyncBufferFromFile(path);
    const metadata = await parquetMetadataAsync(file);
    const types = Object.fromEntries(
      metadata.schema.slice(1).map((e) => [e.name, [e.type, e.converted_type, e.scale]]),
    );
    expect(types).toMatchObject({
      statement_id: ['INT64', undefined, undefined],
      territory: ['BYTE_ARRAY', 'UTF8', undefined],
      units: ['INT64', undefined, undefined],
      licensor_revenue: ['INT64', 'DECIMAL', 2],
      licensee_revenue: ['INT64', 'DECIMAL', 2],
    });
    const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    const { byStatement, count } = expectedLines();
    expect(rows).toHaveLength(count);
    const cents = new Map<number, number>();
    for (const row of rows) {
      const id = Number(row.statement_id);
      cents.set(id, (cents.get(id) ?? 0) + Math.round(Number(row.licensor_revenue) * 100));
    }
    expect(cents).toEqual(byStatement);
  });
});

describe('--format xlsx', () => {
  it('lines --all: numeric cells, a money format, a frozen header; the cents add up', async () => {
    const path = join(dir, 'lines.xlsx');
    const result = await pds(['statements', 'lines', '--all', '--format', 'xlsx', '-o', path]);
    expect(result.code).toBe(0);
    const [sheet] = await readXlsxFile(path);
    const [header, ...rows] = sheet!.data;
    expect(header).toEqual([
      'statement_id',
      'line',
      'territory',
      'isrc',
      'title',
      'units',
      'currency',
      'licensee_revenue',
      'licensor_revenue',
    ]);
    const { byStatement, count } = expectedLines();
    expect(rows).toHaveLength(count);
    const cents = new Map<number, number>();
    for (const row of rows) {
      expect(typeof row[0]).toBe('number');
      expect(typeof row[8]).toBe('number');
      expect(typeof row[2]).toBe('string');
      cents.set(Number(row[0]), (cents.get(Number(row[0])) ?? 0) + Math.round(Number(row[8]) * 100));
    }
    expect(cents).toEqual(byStatement);
    // The styles, read by exceljs: the header row frozen, amounts with two decimals.
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(path);
    const ws = book.worksheets[0]!;
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getRow(2).getCell(9).numFmt).toBe('#,##0.00');
  });

  it('totals --by payor --columns year: the pivot with numeric cells and its total row', async () => {
    const path = join(dir, 'pivot.xlsx');
    const result = await pds([
      'statements',
      'totals',
      '--by',
      'payor',
      '--columns',
      'year',
      '--currency',
      'EUR',
      '--format',
      'xlsx',
      '-o',
      path,
    ]);
    expect(result.code).toBe(0);
    const [sheet] = await readXlsxFile(path);
    const [header, ...rows] = sheet!.data;
    expect(header![0]).toBe('payor');
    expect(header!.at(-1)).toBe('total');
    const total = rows.at(-1)!;
    expect(total[0]).toBeNull();
    const eur = processed().filter((s) => s.currency_royalty === 'EUR');
    const cents = eur.reduce(
      (n, s) =>
        n +
        Math.round(
          Number((deployedStatement(data(), s).financials as { licensor_revenue: number }).licensor_revenue) * 100,
        ),
      0,
    );
    expect(total.at(-1)).toBe(money(cents));
  });

  it('is never written to a terminal or a pipe, nor over a file without --force: exit 2 before any request', async () => {
    const existing = join(dir, 'there.xlsx');
    writeFileSync(existing, 'keep');
    for (const [args, message] of [
      [['statements', 'lines', '--all', '--format', 'xlsx'], 'add -o FILE.xlsx'],
      [['statements', 'totals', '--format', 'parquet'], 'add -o FILE.parquet'],
      [['statements', 'totals', '--format', 'xlsx', '-o', existing], 'exists: --force replaces it'],
      [['statements', 'totals', '-o', join(dir, 'x.csv')], '-o FILE is for --format xlsx or parquet'],
    ] as const) {
      const before = emulator.requests.length;
      const result = await pds([...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(emulator.requests.length).toBe(before);
    }
    expect(readFileSync(existing, 'utf8')).toBe('keep');
    const before = emulator.requests.length;
    const list = await pds(['contracts', 'ls', '--format', 'parquet']);
    expect(list.code).toBe(2);
    expect(emulator.requests.length).toBe(before);
    expect(list.stderr).toContain('--format parquet is a file `pds contracts ls` does not write');
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
  });
});

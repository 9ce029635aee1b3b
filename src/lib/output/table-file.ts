// Tables written as files that spreadsheets and engines read with their types: `--format xlsx`
// (exceljs's streaming WorkbookWriter: numbers as numeric cells, money with two decimals, a frozen
// header row, at most Excel's 1,048,576 rows) and `--format parquet` (hyparquet-writer: text as
// UTF8, whole numbers as INT64, decimals as DECIMAL(18, scale) written from exact BigInt units, in
// row groups of ROW_GROUP rows). Both libraries are loaded only when such a file is written. Neither
// format goes to a terminal or a pipe: they need -o FILE.
import { rm } from 'node:fs/promises';
import { PdsError, UsageError } from '../errors.js';
import { requireFullBuild } from '../ci/action-build.js';
import { decimalOf, atScale } from '../money/decimal.js';

export const FILE_FORMATS = ['xlsx', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
export const isFileFormat = (format: string | undefined): format is FileFormat =>
  format !== undefined && (FILE_FORMATS as readonly string[]).includes(format);

/** What a column holds: text, whole numbers, or decimals of a scale (money: 2). */
export type FileColumn =
  | { name: string; kind: 'text' }
  | { name: string; kind: 'integer' }
  | { name: string; kind: 'decimal'; scale: number };

/** Excel's last row: the header and 1,048,575 rows. */
export const EXCEL_ROWS = 1_048_576;
const ROW_GROUP = 100_000;

export interface TableFile {
  /** One row: a value per column (text or a number; empty or null for none). */
  add(row: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
  /** Removes what was written (a failure part way). */
  abort(): Promise<void>;
}

/** The format the renderer prints in: a file format is written by its verb (from the settings), never printed. */
export const printedFormat = <F extends string>(format: F | undefined): Exclude<F, FileFormat> | undefined =>
  isFileFormat(format) ? undefined : (format as Exclude<F, FileFormat> | undefined);

/** xlsx or parquet asked of a verb that prints: only the verbs whose definitions say `files` write them. */
export const fileFormatRefused = (format: string, path?: string): UsageError =>
  new UsageError(
    `--format ${format} is a file${path ? ` \`${path}\` does not write` : ''}: \`pds statements lines … -o FILE\` and \`pds statements totals … -o FILE\` write one`,
  );

export async function openTableFile(format: FileFormat, path: string, columns: FileColumn[]): Promise<TableFile> {
  const file = format === 'xlsx' ? await xlsxFile(path, columns) : await parquetFile(path, columns);
  let failed = false;
  return {
    add: async (row) => {
      try {
        await file.add(row);
      } catch (error) {
        failed = true;
        await file.abort();
        throw error;
      }
    },
    close: () => file.close(),
    abort: async () => {
      if (!failed) await file.abort();
    },
  };
}

/** A cell's value for a typed column; a value that does not fit is an error naming it. */
function numberOf(value: unknown, column: FileColumn): number | bigint | string | null {
  if (value === null || value === undefined || value === '') return null;
  if (column.kind === 'text') return String(value);
  const decimal = decimalOf(value);
  if (
    decimal === undefined ||
    (column.kind === 'integer' && decimal.scale > 0) ||
    (column.kind === 'decimal' && decimal.scale > column.scale)
  )
    throw new PdsError(
      `column ${column.name}: '${String(value)}' is not ${column.kind === 'integer' ? 'a whole number' : `a decimal of at most ${column.kind === 'decimal' ? column.scale : 0} places`}, as its first values were; the file is not written`,
    );
  return column.kind === 'integer' ? decimal.units : atScale(decimal, column.scale);
}

async function xlsxFile(path: string, columns: FileColumn[]): Promise<TableFile> {
  requireFullBuild('--format xlsx');
  const { default: ExcelJS } = await import('exceljs');
  // The zip library under exceljs calls `new Buffer()` once per file it adds: Node's deprecation
  // warning for it would land on the user's stderr, about code that is not theirs nor pds's.
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('pds', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.name,
    key: c.name,
    width: Math.max(10, Math.min(40, c.name.length + 2)),
    ...(c.kind === 'decimal'
      ? { style: { numFmt: c.scale === 2 ? '#,##0.00' : `0.${'0'.repeat(Math.max(1, c.scale))}` } }
      : c.kind === 'integer'
        ? { style: { numFmt: '0' } }
        : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let rows = 1;
  return {
    add: async (row) => {
      if (++rows > EXCEL_ROWS)
        throw new UsageError(
          `more than Excel's ${EXCEL_ROWS.toLocaleString('en-US')} rows: write --format parquet or csv instead (or narrow with --period)`,
        );
      const values = columns.map((c, i) => {
        const value = numberOf(row[i], c);
        if (typeof value === 'bigint') return c.kind === 'decimal' ? Number(value) / 10 ** c.scale : Number(value);
        return value;
      });
      sheet.addRow(values).commit();
    },
    close: async () => {
      sheet.commit();
      await book.commit();
      process.noDeprecation = quiet;
    },
    abort: async () => {
      process.noDeprecation = quiet;
      await rm(path, { force: true });
    },
  };
}

async function parquetFile(path: string, columns: FileColumn[]): Promise<TableFile> {
  requireFullBuild('--format parquet');
  const { ParquetWriter, fileWriter } = await import('hyparquet-writer');
  const schema = [
    { name: 'root', num_children: columns.length },
    ...columns.map((c) =>
      c.kind === 'text'
        ? {
            name: c.name,
            type: 'BYTE_ARRAY' as const,
            converted_type: 'UTF8' as const,
            repetition_type: 'OPTIONAL' as const,
          }
        : c.kind === 'integer'
          ? { name: c.name, type: 'INT64' as const, repetition_type: 'OPTIONAL' as const }
          : {
              name: c.name,
              type: 'INT64' as const,
              converted_type: 'DECIMAL' as const,
              precision: 18,
              scale: c.scale,
              repetition_type: 'OPTIONAL' as const,
            },
    ),
  ];
  const writer = new ParquetWriter({ writer: fileWriter(path), schema });
  let held: (number | bigint | string | null)[][] = columns.map(() => []);
  let count = 0;
  const flush = async () => {
    if (count === 0) return;
    await writer.write({
      columnData: columns.map((c, i) => ({ name: c.name, data: held[i] as (bigint | string | null)[] })),
      rowGroupSize: count,
    });
    held = columns.map(() => []);
    count = 0;
  };
  return {
    add: async (row) => {
      columns.forEach((c, i) => {
        (held[i] as unknown[]).push(numberOf(row[i], c));
      });
      if (++count >= ROW_GROUP) await flush();
    },
    close: async () => {
      await flush();
      writer.finish();
    },
    abort: () => rm(path, { force: true }),
  };
}

/** Column kinds from sample values: whole numbers, decimals (their largest scale), else text. */
export function columnsOf(names: readonly string[], rows: readonly (readonly unknown[])[]): FileColumn[] {
  return names.map((name, i) => {
    let kind: 'integer' | 'decimal' | 'text' | undefined;
    let scale = 0;
    for (const row of rows) {
      const value = row[i];
      if (value === null || value === undefined || value === '') continue;
      const decimal = decimalOf(value);
      if (decimal === undefined) return { name, kind: 'text' };
      scale = Math.max(scale, decimal.scale);
      kind = scale > 0 ? 'decimal' : 'integer';
    }
    if (kind === 'decimal') return { name, kind, scale };
    return kind === 'integer' ? { name, kind } : { name, kind: 'text' };
  });
}

// `statements lines … --format xlsx|parquet -o FILE`: the lines of many statements, or the groups
// of a roll-up, as a file with typed columns (lib/output/table-file.ts). Each column's type is read
// from the first rows (SAMPLE of them): whole numbers, decimals of their largest scale (a money
// column at least 2), else text; a later cell that does not fit stops the file (exit 1) rather than
// change a number. Each export's rows are written together, once it is read.
import type { Context } from '../../lib/context.js';
import { IncompleteAnswerError, UsageError } from '../../lib/errors.js';
import {
  columnsOf,
  type FileColumn,
  type FileFormat,
  openTableFile,
  type TableFile,
} from '../../lib/output/table-file.js';
import type { LinesOptions } from './definitions.js';
import { readExports } from './exports.js';
import { unionOfHeaders } from './flat.js';
import type { GroupRecord } from './groups.js';
import { withProgress } from './progress.js';
import { MONEY_COLUMN } from './columns.js';
import type { Processed } from './select.js';
import { existsSync } from 'node:fs';

/** Rows read before the columns' types are fixed. */
const SAMPLE = 1000;

/** -o as given, checked: there, and no file replaced without --force. */
export function outputFile(format: FileFormat, output: string | undefined, force: boolean | undefined): string {
  if (output === undefined || output === '-')
    throw new UsageError(`--format ${format} writes a file, not a terminal or a pipe: add -o FILE.${format}`);
  if (existsSync(output) && force !== true) throw new UsageError(`${output} exists: --force replaces it`);
  return output;
}

/** Money columns keep at least cents, whatever the first rows had. */
const withMoney = (columns: FileColumn[]): FileColumn[] =>
  columns.map((c) =>
    MONEY_COLUMN.test(c.name) && c.kind !== 'text'
      ? { name: c.name, kind: 'decimal', scale: Math.max(2, c.kind === 'decimal' ? c.scale : 0) }
      : c,
  );

export async function runLinesFile(
  ctx: Context,
  statements: readonly Processed[],
  format: FileFormat,
  opts: LinesOptions,
  maxBytes: number | undefined,
): Promise<number> {
  const path = outputFile(format, opts.output, opts.force);
  const options = { ...(maxBytes === undefined ? {} : { maxBytes }), links: new Map<string | number, string>() };
  const names = ['statement_id', ...(await unionOfHeaders(ctx, statements, options))];
  const keys = names.map((name) => name.toLowerCase());
  let file: TableFile | undefined;
  const sample: unknown[][] = [];
  let written = 0;
  let chain: Promise<void> = Promise.resolve();
  const open = async () => {
    file ??= await openTableFile(format, path, withMoney(columnsOf(names, sample)));
    for (const row of sample.splice(0)) await file.add(row);
  };
  const take = async (rows: unknown[][]) => {
    if (file === undefined) {
      sample.push(...rows);
      if (sample.length < SAMPLE) return;
      await open();
      return;
    }
    for (const row of rows) await file.add(row);
  };
  const held = new Map<Processed, unknown[][]>();
  try {
    const problems = await withProgress(ctx, (update) =>
      readExports(
        ctx,
        statements,
        {
          header: (statement, header) => {
            const own = header.map((name) => name.trim().toLowerCase());
            const at = keys.map((key, i) => (i === 0 ? -1 : own.indexOf(key)));
            const rows: unknown[][] = [];
            held.set(statement, rows);
            return (row) => {
              rows.push(at.map((index, i) => (i === 0 ? statement.id : index < 0 ? '' : row[index])));
            };
          },
          chunkRead: () => chain,
          done: (statement) => {
            const rows = held.get(statement) ?? [];
            held.delete(statement);
            written += rows.length;
            chain = chain.then(() => take(rows));
          },
        },
        { ...options, onProgress: update },
      ),
    );
    await chain;
    if (file === undefined) await open();
    await (file as TableFile).close();
    ctx.output.info(`wrote ${written.toLocaleString('en-US')} lines of ${statements.length} statements to ${path}`);
    if (problems.length > 0) throw new IncompleteAnswerError(problems.map((p) => p.text));
    return 0;
  } catch (error) {
    await file?.abort();
    throw error;
  }
}

/** A report's records (groups, a comparison, a pivot) as a file: a column per field, typed from all of them. */
export async function writeRecordsFile(
  ctx: Context,
  records: readonly GroupRecord[],
  format: FileFormat,
  path: string,
): Promise<void> {
  const names: string[] = [];
  for (const r of records) for (const name of Object.keys(r)) if (!names.includes(name)) names.push(name);
  const rows = records.map((r) =>
    names.map((name) => {
      const value = r[name];
      return Array.isArray(value) ? value.join('; ') : value;
    }),
  );
  const file = await openTableFile(format, path, withMoney(columnsOf(names, rows)));
  try {
    for (const row of rows) await file.add(row);
    await file.close();
  } catch (error) {
    await file.abort();
    throw error;
  }
  ctx.output.info(`wrote ${records.length.toLocaleString('en-US')} rows to ${path}`);
}

// The lines of several statements as one table (or the lines of one in a data format): CSV by
// default with a leading statement_id column, TSV, or one record per line keyed by the header in
// JSON, NDJSON and YAML. Each export is written whole once read (the few being fetched are held,
// never all of them), under the first export's header; a later export's columns are matched to it
// by name.
import type { Context } from '../../lib/context.js';
import { isDecimal } from '../../lib/money/exact-sum.js';
import { csvRow } from '../../lib/output/formats.js';
import { safeText } from '../../lib/output/text.js';
import { readExports } from './exports.js';
import type { Processed } from './select.js';

export type FlatFormat = 'csv' | 'tsv' | 'json' | 'ndjson' | 'yaml';

export interface FlatInput {
  format: FlatFormat;
  /** The statement_id column leads (more than one statement, or --all). */
  withId: boolean;
  /** --csv-safe: cells that start like a formula get a leading '. */
  csvSafe: boolean;
  maxBytes?: number | undefined;
  /** --jq: the records are gathered and given to it. */
  gather?: Record<string, string>[];
}

/** A spreadsheet runs such a cell as a formula; a plain number (a negative amount) is no formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
export const startsFormula = (cell: string): boolean => FORMULA_START.test(cell) && !isDecimal(cell);
export const FORMULA_WARNING =
  'some cells start like a formula (= + - @): a spreadsheet would run them; --csv-safe neutralises them';

export async function writeFlat(
  ctx: Context,
  statements: readonly Processed[],
  input: FlatInput,
  onProgress: (read: number, total: number, lines: number) => void,
): Promise<void> {
  let columns: string[] | undefined;
  let warned = false;
  let records = 0;
  const onTerminal = ctx.io.stdoutIsTTY;
  const cellOf = (cell: string): string => {
    if (!startsFormula(cell)) return cell;
    if (input.csvSafe) return `'${cell}`;
    if (!warned && (input.format === 'csv' || input.format === 'tsv')) ctx.output.warn(FORMULA_WARNING);
    warned = true;
    return cell;
  };
  const line = (values: string[]): string => {
    const shown = onTerminal ? values.map((v) => safeText(v)) : values;
    if (input.format === 'csv') return csvRow(shown, { raw: true });
    return `${shown.map((v) => v.replace(/[\t\r\n]/g, ' ')).join('\t')}\n`;
  };
  const recordLine = (record: Record<string, string>): string => {
    const json = JSON.stringify(record);
    const text = onTerminal ? safeText(json) : json;
    if (input.format === 'json') return `${records++ === 0 ? '[\n' : ',\n'}${text}`;
    if (input.format === 'yaml') return `- ${text}\n`;
    return `${text}\n`;
  };
  const tabular = input.format === 'csv' || input.format === 'tsv';
  const held = new Map<string | number, string[]>();
  await readExports(
    ctx,
    statements,
    {
      header: (statement, header) => {
        const names = header.map((name) => name.trim());
        if (columns === undefined) {
          columns = names;
          if (tabular && input.gather === undefined)
            ctx.output.write(line(input.withId ? ['statement_id', ...names] : names));
        }
        const lower = names.map((name) => name.toLowerCase());
        const at = columns.map((name) => lower.indexOf(name.toLowerCase()));
        const id = String(statement.id);
        const chunks: string[] = [];
        held.set(statement.id, chunks);
        return (row) => {
          const cells = at.map((index) => cellOf(index < 0 ? '' : (row[index] ?? '')));
          if (input.gather !== undefined || !tabular) {
            const record: Record<string, string> = input.withId ? { statement_id: id } : {};
            (columns as string[]).forEach((name, i) => {
              record[name] = cells[i] as string;
            });
            if (input.gather !== undefined) input.gather.push(record);
            else chunks.push(recordLine(record));
          } else chunks.push(line(input.withId ? [id, ...cells] : cells));
        };
      },
      // An export's rows stay together: written once it is read whole, in the order exports end.
      done: (statement) => {
        const chunks = held.get(statement.id) ?? [];
        held.delete(statement.id);
        for (let start = 0; start < chunks.length; start += 1024)
          ctx.output.write(chunks.slice(start, start + 1024).join(''));
      },
    },
    { ...(input.maxBytes === undefined ? {} : { maxBytes: input.maxBytes }), onProgress },
  );
  if (input.format === 'json' && input.gather === undefined) ctx.output.write(records === 0 ? '[]\n' : '\n]\n');
}

// The lines of several statements as one table (or the lines of one in a data format): CSV by
// default with a leading statement_id column, TSV, or one record per line keyed by its export's
// header in JSON, NDJSON and YAML. A table's header is the union of every export's columns, in the
// order the statements are given and each header's own order: so every export's header is read
// first (each fetch stops after its first line), then the rows stream under it, a column an
// export lacks left empty. Rows come out in the statements' order, each export's together: the
// export whose turn it is writes as it is read, the few read beside it hold at most HELD_CHARS of
// text each before they wait for their turn. Nothing is held whole.
import type { Context } from '../../lib/context.js';
import { isPlainNumber } from '../../lib/money/amount.js';
import { csvRow, UTF8_BOM } from '../../lib/output/formats.js';
import { safeText } from '../../lib/output/text.js';
import { type ExportProblem, type ExportsOptions, readExports } from './exports.js';
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
export const startsFormula = (cell: string): boolean => FORMULA_START.test(cell) && !isPlainNumber(cell);
export const FORMULA_WARNING =
  'some cells start like a formula (= + - @): a spreadsheet would run them; --csv-safe neutralises them';

/** What an export read ahead of its turn may hold before it waits. */
const HELD_CHARS = 1024 * 1024;

/** How a column is matched across exports: its name trimmed, in any case. */
const columnKey = (name: string): string => name.trim().toLowerCase();

/** Answers the rows and exports left out (each named), having written all the others. */
export async function writeFlat(
  ctx: Context,
  statements: readonly Processed[],
  input: FlatInput,
  onProgress: (read: number, total: number, lines: number) => void,
): Promise<ExportProblem[]> {
  const tabular = (input.format === 'csv' || input.format === 'tsv') && input.gather === undefined;
  const options: ExportsOptions = {
    ...(input.maxBytes === undefined ? {} : { maxBytes: input.maxBytes }),
    links: new Map(),
  };
  const columns = tabular ? await unionOfHeaders(ctx, statements, options) : [];
  let warned = false;
  let records = 0;
  const onTerminal = ctx.io.stdoutIsTTY;
  const cellOf = (cell: string): string => {
    if (!startsFormula(cell)) return cell;
    if (input.csvSafe) return `'${cell}`;
    if (!warned && tabular) ctx.output.warn(FORMULA_WARNING);
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
  // --csv-bom: Excel reads the CSV as UTF-8 only when it starts with the mark (as every CSV pds writes).
  const bom = input.format === 'csv' && ctx.settings.csvBom ? UTF8_BOM : '';
  if (tabular) ctx.output.write(bom + line(input.withId ? ['statement_id', ...columns] : columns));
  const keys = columns.map(columnKey);
  const order = new InOrder(statements, (text) => ctx.output.write(text));
  const problems = await readExports(
    ctx,
    statements,
    {
      header: (statement, header) => {
        const names = header.map((name) => name.trim());
        const id = String(statement.id);
        if (tabular) {
          const own = names.map(columnKey);
          const at = keys.map((key) => own.indexOf(key));
          return (row) => {
            const cells = at.map((index) => cellOf(index < 0 ? '' : (row[index] as string)));
            order.write(statement, line(input.withId ? [id, ...cells] : cells));
          };
        }
        return (row) => {
          // Keys come from the service: `__proto__` or `constructor` is a column like any other.
          const record: Record<string, string> = Object.create(null);
          if (input.withId) record.statement_id = id;
          names.forEach((name, i) => {
            record[name] = cellOf(row[i] as string);
          });
          if (input.gather !== undefined) input.gather.push(record);
          else order.write(statement, recordLine(record));
        };
      },
      chunkRead: (statement) => order.wait(statement),
      done: (statement) => order.done(statement),
    },
    { ...options, onProgress },
  );
  if (input.format === 'json' && input.gather === undefined) ctx.output.write(records === 0 ? '[]\n' : '\n]\n');
  return problems;
}

/**
 * Every column of the exports' headers, each once (by its name in any case, spelled as first met),
 * in the statements' order: each export is fetched up to its header only. An export whose header is
 * refused adds nothing (its problem is said when its rows are read).
 */
export async function unionOfHeaders(
  ctx: Context,
  statements: readonly Processed[],
  options: ExportsOptions,
): Promise<string[]> {
  const headers = new Map<Processed, string[]>();
  await readExports(
    ctx,
    statements,
    {
      header: (statement, header) => {
        headers.set(statement, header);
        return () => undefined;
      },
    },
    { ...options, headerOnly: true },
  );
  const seen = new Set<string>();
  const union: string[] = [];
  for (const statement of statements)
    for (const name of headers.get(statement) ?? []) {
      const key = columnKey(name);
      if (seen.has(key)) continue;
      seen.add(key);
      union.push(name.trim());
    }
  return union;
}

/**
 * Writes what each export gives in the statements' order: the first export not yet ended writes
 * straight through; one read ahead of its turn keeps its text and, past HELD_CHARS, waits for it.
 */
class InOrder {
  private readonly index = new Map<Processed, number>();
  private readonly held: string[][];
  private readonly heldChars: number[];
  private readonly ended: boolean[];
  private readonly waiting = new Map<number, () => void>();
  private turn = 0;

  constructor(
    statements: readonly Processed[],
    private readonly out: (text: string) => void,
  ) {
    statements.forEach((statement, i) => {
      if (!this.index.has(statement)) this.index.set(statement, i);
    });
    this.held = statements.map(() => []);
    this.heldChars = statements.map(() => 0);
    this.ended = statements.map(() => false);
  }

  write(statement: Processed, text: string): void {
    const at = this.index.get(statement) as number;
    if (at === this.turn) {
      this.out(text);
      return;
    }
    (this.held[at] as string[]).push(text);
    this.heldChars[at] = (this.heldChars[at] as number) + text.length;
  }

  /** Resolves once `statement` may read on: at once, unless it holds too much ahead of its turn. */
  wait(statement: Processed): Promise<void> | undefined {
    const at = this.index.get(statement) as number;
    if (at === this.turn || (this.heldChars[at] as number) < HELD_CHARS) return undefined;
    return new Promise((resume) => this.waiting.set(at, resume));
  }

  done(statement: Processed): void {
    const at = this.index.get(statement) as number;
    this.ended[at] = true;
    while (this.turn < this.ended.length) {
      const held = this.held[this.turn] as string[];
      for (let start = 0; start < held.length; start += 1024) this.out(held.slice(start, start + 1024).join(''));
      this.held[this.turn] = [];
      this.heldChars[this.turn] = 0;
      if (!this.ended[this.turn]) {
        this.waiting.get(this.turn)?.();
        this.waiting.delete(this.turn);
        return;
      }
      this.turn++;
    }
  }
}

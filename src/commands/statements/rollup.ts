// `pds statements lines … --by COLUMN,…`: every line of the chosen statements added up by the
// columns the user names (found in each export's header whatever their case; pds assumes nothing
// else of the export), or by the statement's own id, period or payor; always by currency. Every
// numeric column is summed exactly. `--by isrc` names each ISRC's recording from the catalog.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import type { Group, GroupRecord, GroupShape } from './groups.js';
import { addCell, Groups, ordered, recordOf, topOf } from './groups.js';
import { type ExportProblem, readExports } from './exports.js';
import { payorOf, periodOfStatement, type Processed } from './select.js';
import { recordingsByIsrc, type Recording } from './recordings.js';
import { drawView } from './view.js';
import { CALENDAR_FIELDS } from './report.js';

/** --by names read from the statement rather than its lines. */
const STATEMENT_KEYS: Record<string, (s: Processed) => string> = {
  statement: (s) => String(s.id),
  period: (s) => periodOfStatement(s) ?? '',
  payor: (s) => payorOf(s) ?? '',
  ...CALENDAR_FIELDS,
};

export interface RollupInput {
  by: string[];
  top?: number | undefined;
  sort?: string | undefined;
  maxBytes?: number | undefined;
  projectId?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** Where each key and summed column of one export sits. */
interface Layout {
  keys: ((row: string[]) => string)[];
  currency: (row: string[]) => string;
  numeric: [column: string, index: number][];
}

/** Adds the lines of `statements` into groups; returns the records in order and the shape. */
export async function rollUp(
  ctx: Context,
  statements: readonly Processed[],
  input: RollupInput,
  onProgress: (read: number, total: number, lines: number) => void,
): Promise<{ records: GroupRecord[]; shape: GroupShape; problems: ExportProblem[] }> {
  const by = input.by;
  const groups = new Groups();
  /** Summed columns in the order first seen; a column with a cell that is not a number leaves it. */
  const seen: string[] = [];
  const notNumeric = new Set<string>();
  const missing = new Set<string>();
  const layoutOf = (statement: Processed, header: string[]): Layout => {
    const names = header.map((name) => name.trim().toLowerCase());
    const keys = by.map((name) => {
      const own = STATEMENT_KEYS[name];
      if (own && !names.includes(name)) {
        const value = own(statement);
        return () => value;
      }
      const at = names.indexOf(name);
      if (at < 0) missing.add(name);
      return (row: string[]) => (at < 0 ? '' : (row[at] ?? '').trim());
    });
    const currencyAt = names.indexOf('currency');
    const fallback = statement.financials.currency;
    const numeric: [string, number][] = [];
    names.forEach((name, index) => {
      if (by.includes(name) || name === 'currency' || notNumeric.has(name)) return;
      if (!seen.includes(name)) seen.push(name);
      numeric.push([name, index]);
    });
    return {
      keys,
      currency: (row) => (currencyAt < 0 ? fallback : (row[currencyAt] ?? '').trim().toUpperCase() || fallback),
      numeric,
    };
  };
  const problems = await readExports(
    ctx,
    statements,
    {
      header: (statement, header) => {
        const layout = layoutOf(statement, header);
        return (row) => {
          const currency = layout.currency(row);
          let key = '';
          for (const keyOf of layout.keys) key += `${keyOf(row)}\u0000`;
          const group = groups.at(key + currency, () => layout.keys.map((keyOf) => keyOf(row)), currency);
          group.statements.add(statement.id);
          group.lines++;
          for (const [column, index] of layout.numeric) {
            const cell = row[index] ?? '';
            if (cell !== '' && !addCell(group, column, cell)) notNumeric.add(column);
          }
        };
      },
    },
    {
      ...(input.maxBytes === undefined ? {} : { maxBytes: input.maxBytes }),
      projectId: input.projectId,
      signal: input.signal,
      onProgress,
    },
  );
  for (const name of missing)
    ctx.output.warn(`some exports have no column '${name}': their lines are grouped under an empty ${name}`);
  const columns = seen.filter((name) => !notNumeric.has(name));
  const sort = input.sort?.trim().toLowerCase() ?? 'licensor_revenue';
  if (input.sort !== undefined && !columns.includes(sort))
    throw new UsageError(
      `invalid --sort '${input.sort}': not a numeric column of these lines (they have ${columns.join(', ') || 'none'})`,
    );
  const shape: GroupShape = { by, columns, countsLines: true, periods: false };
  const chosen = topOf(ordered(groups.all(), shape, sort), input.top);
  const titles = by.includes('isrc') ? await recordingsByIsrc(ctx, input.projectId ?? ctx.project()) : undefined;
  const isrcAt = by.indexOf('isrc');
  const extra =
    titles === undefined
      ? undefined
      : (group: Group) => recordingFields(titles.get((group.values[isrcAt] ?? '').toUpperCase()));
  return { records: chosen.map((group) => recordOf(group, shape, extra)), shape, problems };
}

/** The recording an ISRC names, beside it; null for one no recording carries. */
function recordingFields(recording: Recording | undefined): GroupRecord {
  return { name: recording?.name ?? null, artists: recording?.artists ?? null };
}

/** Prints the roll-up: data formats as records, a terminal as a table with bars. */
export async function printRollup(
  ctx: Context,
  records: GroupRecord[],
  shape: GroupShape,
  sort: string,
  top?: number,
): Promise<void> {
  if (await ctx.output.asData(records)) return;
  if (ctx.output.mode !== 'table') {
    await ctx.output.data(records);
    return;
  }
  if (records.length === 0) {
    ctx.output.info('no lines');
    return;
  }
  const unmatched = shape.by.includes('isrc') ? records.filter((r) => r.name === null).length : 0;
  const keys = [...shape.by, ...(shape.by.includes('isrc') ? ['name'] : [])];
  ctx.output.write(
    await drawView(records, {
      // Every amount carries its currency: a column of it says something only when it is the key.
      keys: keys.length > 0 ? keys : ['currency'],
      counts: ['lines'],
      barColumn: sort,
      amounts: shape.columns.filter((c) => c !== sort),
      tail: [],
      columns: ctx.io.columns,
      ...(top === undefined ? {} : { totalLabel: `top ${top}` }),
    }),
  );
  if (unmatched > 0)
    ctx.output.info(`${unmatched} ISRC${unmatched === 1 ? '' : 's'} no recording carries: no recording name`, 'dim');
}

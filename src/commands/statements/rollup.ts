// `pds statements lines … --by COLUMN,…`: every line of the chosen statements added up by the
// columns the user names (found in each export's header whatever their case; pds assumes nothing
// else of the export), or by the statement's own id, period or payor; always by currency. Money and
// units columns are summed exactly (columns.ts says which, and why); an amount that cannot be read is
// named, never a zero. `--by isrc` names each ISRC's recording from the catalog.
import type { Context } from '../../lib/context.js';
import { IncompleteAnswerError, UsageError } from '../../lib/errors.js';
import { shownValue } from '../../lib/money/amount.js';
import { ExactSum, isDecimal } from '../../lib/money/exact-sum.js';
import { type ColumnReport, type ColumnRole, reasonOf, roleOf } from './columns.js';
import type { Group, GroupRecord, GroupShape } from './groups.js';
import { Groups, ordered, recordOf, topOf } from './groups.js';
import { type ExportProblem, readExports, type SomeCells } from './exports.js';
import { CALENDAR_FIELDS } from './report.js';
import { Incomplete } from './incomplete.js';
import { currencyCode, currencyOfStatement, payorOf, periodOfStatement, type Processed } from './select.js';
import { recordingsByIsrc, type Recording } from './recordings.js';
import { drawView } from './view.js';

/** --by names read from the statement rather than its lines (a map: `__proto__` is a column name like any). */
const STATEMENT_KEYS = new Map<string, (s: Processed) => string>([
  ['statement', (s) => String(s.id)],
  ['period', (s) => periodOfStatement(s) ?? ''],
  ['payor', (s) => payorOf(s) ?? ''],
  ...Object.entries(CALENDAR_FIELDS),
]);

export interface RollupInput {
  by: string[];
  top?: number | undefined;
  sort?: string | undefined;
  maxBytes?: number | undefined;
  projectId?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** A roll-up's answer: its records in order, their shape, the columns and why each was summed or not, what it left out. */
export interface Rollup {
  records: GroupRecord[];
  shape: GroupShape;
  columns: ColumnReport[];
  incomplete: Incomplete;
}

/** What is known of one column across every export: its role, and how many of its cells were amounts. */
interface ColumnState {
  role: ColumnRole;
  amounts: number;
  others: number;
}

/** Where each key and summed column of one export sits. */
interface Layout {
  keys: ((row: string[]) => string)[];
  /** The places of the --by columns the rows have (the others are the same for every row). */
  keyCells: number[];
  currencyAt: number;
  /** The currency a currency cell says (the statement's when the cell is empty). */
  currency: (cell: string) => string;
  summed: [column: string, index: number, state: ColumnState][];
}

/** A group as one export's rows find it: the group, and its sum of each summed column once made. */
interface Found {
  group: Group;
  sums: (ExactSum | undefined)[];
}

/** Everything a roll-up keeps while exports are read. */
class RollupState {
  readonly groups = new Groups();
  readonly incomplete = new Incomplete();
  /** Every column seen, in first-seen order, with its role and cell counts. */
  readonly columns = new Map<string, ColumnState>();
  /** --by names some export has (or the statement gives), and those some export lacks. */
  readonly found = new Set<string>();
  readonly missing = new Set<string>();

  constructor(readonly by: string[]) {}

  layoutOf(statement: Processed, header: string[]): Layout {
    const names = header.map((name) => name.trim().toLowerCase());
    const keyCells: number[] = [];
    const keys = this.by.map((name) => {
      const own = STATEMENT_KEYS.get(name);
      const at = names.indexOf(name);
      if (own && at < 0) {
        const value = own(statement);
        this.found.add(name);
        return () => value;
      }
      if (at < 0) this.missing.add(name);
      else {
        this.found.add(name);
        keyCells.push(at);
      }
      return (row: string[]) => (at < 0 ? '' : (row[at] ?? '').trim());
    });
    const currencyAt = names.indexOf('currency');
    const fallback = currencyOfStatement(statement);
    const summed: Layout['summed'] = [];
    names.forEach((name, index) => {
      if (this.by.includes(name) || name === 'currency') return;
      let state = this.columns.get(name);
      if (state === undefined) {
        state = { role: roleOf(name), amounts: 0, others: 0 };
        this.columns.set(name, state);
      }
      if (state.role === 'amount' || state.role === 'by content') summed.push([name, index, state]);
    });
    return {
      keys,
      keyCells,
      currencyAt,
      currency: (cell) => (cell.trim() === '' ? fallback : currencyCode(cell)),
      summed,
    };
  }

  /**
   * What takes the rows of one export: each into its group, each amount read by the one rule. Only
   * the cells of keys, currency and summed columns are read, and a row's group is found by its own
   * key cells among the groups this export has met (the currency cell is read again only when it
   * changes), so a row of a known group makes no string and no object.
   */
  sink(statement: Processed, header: string[]): SomeCells {
    const layout = this.layoutOf(statement, header);
    const { keyCells, currencyAt, summed } = layout;
    const byCurrency = new Map<string, Map<string, Found>>();
    let currencyCell: string | undefined;
    let currency = '';
    let found = new Map<string, Found>();
    const take = (row: string[], line: number) => {
      const cell = currencyAt < 0 ? '' : (row[currencyAt] ?? '');
      if (cell !== currencyCell) {
        currencyCell = cell;
        currency = layout.currency(cell);
        found = byCurrency.get(currency) ?? new Map<string, Found>();
        byCurrency.set(currency, found);
      }
      const own = ownKey(row, keyCells);
      let at = found.get(own);
      if (at === undefined) {
        at = { group: this.groupOf(layout, row, currency), sums: [] };
        at.group.statements.add(statement.id);
        found.set(own, at);
      }
      at.group.lines++;
      for (let k = 0; k < summed.length; k++) {
        const [column, index, state] = summed[k] as Layout['summed'][number];
        const amount = row[index] ?? '';
        if (amount === '') continue;
        const sum = at.sums[k] ?? sumOf(at, k, column, amount);
        if (sum?.add(amount)) {
          state.amounts++;
          continue;
        }
        state.others++;
        if (state.role === 'amount')
          this.incomplete.unreadable({ statement: statement.id, column, line }, shownValue(amount));
      }
    };
    const columns = [...keyCells, ...summed.map(([, index]) => index), ...(currencyAt < 0 ? [] : [currencyAt])];
    return { columns, take };
  }

  /** The group of a row's key values and currency (made on first use). */
  private groupOf(layout: Layout, row: string[], currency: string): Group {
    let key = '';
    for (const keyOf of layout.keys) key += `${keyOf(row)}\u0000`;
    return this.groups.at(key + currency, () => layout.keys.map((keyOf) => keyOf(row)), currency);
  }

  /** Each column seen, summed or not, and why. */
  report(): ColumnReport[] {
    return [...this.columns].map(([column, state]) => ({
      column,
      summed: state.role === 'amount' || (state.role === 'by content' && state.others === 0 && state.amounts > 0),
      why: reasonOf(state.role, state),
    }));
  }
}

/**
 * The group's sum of a column, made for its first amount; undefined when there is none yet and
 * `amount` is unreadable (a column of text makes no sum per row).
 */
function sumOf(at: Found, k: number, column: string, amount: string): ExactSum | undefined {
  let sum = at.group.sums.get(column);
  if (sum === undefined) {
    if (!isDecimal(amount)) return undefined;
    sum = new ExactSum();
    at.group.sums.set(column, sum);
  }
  at.sums[k] = sum;
  return sum;
}

/** A row's key cells as one text (the cell itself when there is one): its group among an export's. */
function ownKey(row: string[], keyCells: number[]): string {
  if (keyCells.length === 1) return row[keyCells[0] as number] ?? '';
  let key = '';
  for (const at of keyCells) key += `${row[at] ?? ''}\u0000`;
  return key;
}

/** Adds the lines of `statements` into groups; returns the records in order, their shape and columns. */
export async function rollUp(
  ctx: Context,
  statements: readonly Processed[],
  input: RollupInput,
  onProgress: (read: number, total: number, lines: number) => void,
): Promise<Rollup> {
  const by = input.by;
  const state = new RollupState(by);
  const problems = await readExports(
    ctx,
    statements,
    { header: (statement, header) => state.sink(statement, header) },
    {
      ...(input.maxBytes === undefined ? {} : { maxBytes: input.maxBytes }),
      projectId: input.projectId,
      signal: input.signal,
      onProgress,
    },
  );
  // Rows and exports the reader left out (ragged, a header refused) are named like unreadable amounts.
  for (const problem of problems) state.incomplete.add(problem.text);
  const report = state.report();
  checkBy(by, state, report, { statements: statements.length, problems });
  for (const name of state.missing)
    ctx.output.warn(`some exports have no column '${name}': their lines are grouped under an empty ${name}`);
  const columns = report.filter((c) => c.summed).map((c) => c.column);
  const sort = input.sort?.trim().toLowerCase() ?? 'licensor_revenue';
  if (input.sort !== undefined && !columns.includes(sort))
    throw new UsageError(
      `invalid --sort '${input.sort}': not a summed column of these lines (they have ${columns.join(', ') || 'none'})`,
    );
  const rank = columns.includes(sort) ? sort : (columns[0] ?? sort);
  const shape: GroupShape = { by, columns, countsLines: true, periods: false };
  const chosen = topOf(ordered(state.groups.all(), shape, rank), input.top, rank);
  const titles = by.includes('isrc') ? await recordingsByIsrc(ctx, input.projectId ?? ctx.project()) : undefined;
  const isrcAt = by.indexOf('isrc');
  const extra =
    titles === undefined
      ? undefined
      : (group: Group) => recordingFields(titles.get((group.values[isrcAt] ?? '').toUpperCase()));
  return {
    records: chosen.map((group) => recordOf(group, shape, extra)),
    shape,
    columns: report,
    incomplete: state.incomplete,
  };
}

/**
 * A --by column no export read has (and the statement does not give): exit 2 with the columns there
 * are. When an export was left out whole, it may be the one that has the column: pds cannot say the
 * column is nowhere, so the answer is not whole (exit 8), naming the exports left out.
 */
function checkBy(
  by: string[],
  state: RollupState,
  report: ColumnReport[],
  read: { statements: number; problems: readonly ExportProblem[] },
): void {
  if (read.statements === 0) return;
  const unknown = by.filter((name) => !state.found.has(name));
  if (unknown.length === 0) return;
  const names = `'${unknown.join(',')}'`;
  // A problem without a line is an export left out whole (its header refused, or none).
  const leftOut = read.problems.filter((p) => p.line === undefined);
  if (leftOut.length > 0) {
    const ids = [...new Set(leftOut.map((p) => String(p.statement)))];
    const readCount = read.statements - ids.length;
    throw new IncompleteAnswerError([
      ...leftOut.map((p) => p.text),
      `the column${unknown.length === 1 ? '' : 's'} ${names} (--by) ${unknown.length === 1 ? 'is' : 'are'} in none of the ${readCount} export${readCount === 1 ? '' : 's'} read; the ${ids.length === 1 ? 'export' : `${ids.length} exports`} left out (statement ${ids.join(', ')}) may have ${unknown.length === 1 ? 'it' : 'them'}`,
    ]);
  }
  const there = [...STATEMENT_KEYS.keys(), 'currency', ...report.map((c) => c.column)];
  throw new UsageError(
    `invalid --by ${names}: no export has ${unknown.length === 1 ? 'that column' : 'those columns'}`,
    { details: [`the columns there are: ${[...new Set(there)].join(', ')}`] },
  );
}

/** `--verbose`: which columns were summed and why, and which were not. */
export function sayColumns(ctx: Context, columns: readonly ColumnReport[]): void {
  if (!ctx.settings.verbose) return;
  const list = (summed: boolean) =>
    columns
      .filter((c) => c.summed === summed)
      .map((c) => `${c.column} (${c.why})`)
      .join(', ') || 'none';
  ctx.output.info(`summed: ${list(true)}`);
  ctx.output.info(`not summed: ${list(false)}`);
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

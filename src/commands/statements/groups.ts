// Groups of a roll-up: keyed by the values of the --by fields and always by currency (money of two
// currencies is never added), each with its statements, its line count and an exact sum per
// numeric column. Records come out flat, ordered, and cut to --top per currency.
import { currencyDecimals } from '../../lib/money/display.js';
import { ExactSum } from '../../lib/money/exact-sum.js';
import { NO_CURRENCY, spanOf } from './select.js';
import { PERIOD_KEYS } from './periods.js';

export interface Group {
  values: string[];
  currency: string;
  statements: Set<string | number>;
  lines: number;
  sums: Map<string, ExactSum>;
  firstPeriod?: string;
  lastPeriod?: string;
}

/** What the records of a roll-up hold beside the keys. */
export interface GroupShape {
  /** The --by names, lower case: the records' first fields. */
  by: string[];
  /** The summed columns in the order they are printed. */
  columns: string[];
  /** Lines are counted (the lines roll-up), or not (totals of financials). */
  countsLines: boolean;
  /** First and last period of each group (totals). */
  periods: boolean;
  /** Columns that are money whatever their cells (financials): written with at least their currency's decimals. */
  money?: readonly string[];
}

export type GroupRecord = Record<string, string | number | null | string[]>;

export class Groups {
  private readonly table = new Map<string, Group>();

  /** The group of these key values and currency, made on first use. */
  of(values: string[], currency: string): Group {
    return this.at(`${values.join('\u0000')}\u0000${currency}`, () => values, currency);
  }

  /**
   * The group whose key values and currency, each followed by a NUL, make `key` (the currency
   * last, with none after it); `values` gives them on first use, so a line of a known group
   * builds no array.
   */
  at(key: string, values: () => string[], currency: string): Group {
    let group = this.table.get(key);
    if (group === undefined) {
      group = { values: values(), currency, statements: new Set(), lines: 0, sums: new Map() };
      this.table.set(key, group);
    }
    return group;
  }

  get size(): number {
    return this.table.size;
  }

  all(): Group[] {
    return [...this.table.values()];
  }
}

/** Adds a cell to a group's column; false when the cell is not a number. */
export function addCell(group: Group, column: string, cell: string): boolean {
  let sum = group.sums.get(column);
  if (sum === undefined) {
    sum = new ExactSum();
    if (!sum.add(cell)) return false;
    group.sums.set(column, sum);
    return true;
  }
  return sum.add(cell);
}

/** Adds an amount already read (its plain decimal, amount.ts) to a group's column. */
export function addAmount(group: Group, column: string, decimal: string): void {
  let sum = group.sums.get(column);
  if (sum === undefined) {
    sum = new ExactSum();
    group.sums.set(column, sum);
  }
  sum.addPlain(decimal);
}

/** Widens a group's first and last period with one statement's. */
export function notePeriod(group: Group, period: string | undefined): void {
  if (period === undefined) return;
  const span = spanOf(period);
  if (span === undefined) return;
  const first = spanOf(group.firstPeriod);
  const last = spanOf(group.lastPeriod);
  if (first === undefined || span.from < first.from) group.firstPeriod = period;
  if (last === undefined || span.to > last.to) group.lastPeriod = period;
}

/**
 * Groups in their order: by currency, then in time order when grouped by period (periods are read,
 * not ranked), else largest first by the sort column; ties by their key text, so the order is stable.
 */
export function ordered(groups: Group[], shape: GroupShape, sortColumn: string): Group[] {
  const periodAt = shape.by.findIndex((name) => PERIOD_KEYS.includes(name));
  return groups.sort((a, b) => {
    if (a.currency !== b.currency) return a.currency < b.currency ? -1 : 1;
    if (periodAt >= 0) {
      const x = spanOf(a.values[periodAt]);
      const y = spanOf(b.values[periodAt]);
      const byTime = (x?.from ?? Infinity) - (y?.from ?? Infinity) || (x?.to ?? Infinity) - (y?.to ?? Infinity);
      if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
    }
    const byAmount = compareAmounts(b, a, sortColumn);
    if (byAmount !== 0) return byAmount;
    const ka = a.values.join('\u0000');
    const kb = b.values.join('\u0000');
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/**
 * The `top` largest groups of each currency by the sort column, kept in the order given (so
 * `--by period --top 4` is the four largest quarters, in time order).
 */
export function topOf(groups: Group[], top: number | undefined, sortColumn: string): Group[] {
  if (top === undefined) return groups;
  const largest = new Set<Group>();
  const byCurrency = new Map<string, Group[]>();
  for (const g of groups) byCurrency.set(g.currency, [...(byCurrency.get(g.currency) ?? []), g]);
  for (const own of byCurrency.values()) {
    const ranked = [...own].sort((a, b) => compareAmounts(b, a, sortColumn));
    for (const g of ranked.slice(0, top)) largest.add(g);
  }
  return groups.filter((g) => largest.has(g));
}

/** How two groups' sums of a column compare, exactly (a group without the column counts as 0). */
function compareAmounts(a: Group, b: Group, column: string): number {
  const x = a.sums.get(column);
  const y = b.sums.get(column);
  const scale = Math.max(x?.digits ?? 0, y?.digits ?? 0);
  const left = x?.unitsAt(scale) ?? 0n;
  const right = y?.unitsAt(scale) ?? 0n;
  return left === right ? 0 : left < right ? -1 : 1;
}

/**
 * A group as one flat record: keys, currency (null: no currency), counts, then every summed column
 * as its exact decimal text with the scale of its amounts (`30569.00`; null where the group has no
 * amount in that column). A record has no prototype: a column named `__proto__` is a field like any.
 */
export function recordOf(group: Group, shape: GroupShape, extra?: (g: Group) => GroupRecord): GroupRecord {
  const record: GroupRecord = Object.create(null);
  shape.by.forEach((name, i) => {
    record[name] = group.values[i] ?? null;
  });
  if (extra) Object.assign(record, extra(group));
  record.currency = group.currency === NO_CURRENCY ? null : group.currency;
  record.statements = group.statements.size;
  if (shape.countsLines) record.lines = group.lines;
  const decimals = currencyDecimals(group.currency);
  for (const column of shape.columns) {
    const sum = group.sums.get(column);
    record[column] = sum === undefined ? null : shape.money?.includes(column) ? sum.atScale(decimals) : sum.toString();
  }
  if (shape.periods) {
    record.first_period = group.firstPeriod ?? null;
    record.last_period = group.lastPeriod ?? null;
  }
  return record;
}

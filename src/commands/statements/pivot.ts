// `--columns FIELD`: a --by table turned into a pivot. One row per group of the other keys (and
// currency), one column per value of FIELD (periods in time order, anything else in text order), a
// total column and, where a currency has more than one row, a total row (keys empty). Money of two
// currencies is never added: pivoting by currency has no total column.
import { add, type Decimal, decimalOf, decimalValue, ZERO } from '../../lib/money/decimal.js';
import type { GroupRecord } from './groups.js';
import { PERIOD_KEYS, periodSpan } from './periods.js';

export interface PivotInput {
  /** The --by fields other than the pivoted one. */
  keys: string[];
  /** The field whose values become columns. */
  field: string;
  /** The amount in the cells. */
  amount: string;
}

export interface Pivot {
  records: GroupRecord[];
  /** The value columns, in order (the total column is `total`). */
  columns: string[];
  /** Whether there is a total column. */
  totalColumn: boolean;
}

interface Row {
  keys: GroupRecord;
  currency: string;
  cells: Map<string, Decimal>;
  total: Decimal;
}

/** The columns' values in order: periods by time, anything else by text. */
function columnOrder(values: Iterable<string>, field: string): string[] {
  const list = [...new Set(values)];
  if (!PERIOD_KEYS.includes(field)) return list.sort();
  const start = (v: string) => periodSpan(v)?.from ?? Infinity;
  const end = (v: string) => periodSpan(v)?.to ?? Infinity;
  return list.sort((a, b) => start(a) - start(b) || end(a) - end(b) || (a < b ? -1 : a > b ? 1 : 0));
}

export function pivotRecords(records: readonly GroupRecord[], input: PivotInput): Pivot {
  const byCurrency = input.field === 'currency';
  const rows = new Map<string, Row>();
  const values: string[] = [];
  for (const r of records) {
    const column = String(r[input.field] ?? '');
    values.push(column);
    const currency = byCurrency ? '' : String(r.currency ?? '');
    const key = [...input.keys.map((name) => String(r[name] ?? '')), currency].join('\u0000');
    let row = rows.get(key);
    if (row === undefined) {
      const keys: GroupRecord = {};
      for (const name of input.keys) keys[name] = r[name] ?? null;
      row = { keys, currency, cells: new Map(), total: ZERO };
      rows.set(key, row);
    }
    const amount = decimalOf(r[input.amount]) ?? ZERO;
    row.cells.set(column, add(row.cells.get(column) ?? ZERO, amount));
    row.total = add(row.total, amount);
  }
  const columns = columnOrder(values, input.field);
  // Rows keyed by a period read in time order, as `--by period` does; others by their total.
  const periodKey = input.keys.find((name) => PERIOD_KEYS.includes(name));
  const startOf = (row: Row) => periodSpan(String(row.keys[periodKey ?? ''] ?? ''))?.from ?? Infinity;
  const ordered = [...rows.entries()]
    .sort(
      ([ka, a], [kb, b]) =>
        (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0) ||
        (periodKey === undefined ? 0 : startOf(a) - startOf(b)) ||
        compareDecimals(b.total, a.total) ||
        (ka < kb ? -1 : ka > kb ? 1 : 0),
    )
    .map(([, row]) => row);
  const out: GroupRecord[] = [];
  const totals = new Map<string, Row>();
  for (const row of ordered) {
    out.push(recordOf(row, columns, input, !byCurrency));
    let total = totals.get(row.currency);
    if (total === undefined) {
      total = {
        keys: Object.fromEntries(input.keys.map((name) => [name, null])),
        currency: row.currency,
        cells: new Map(),
        total: ZERO,
      };
      totals.set(row.currency, total);
    }
    for (const [column, value] of row.cells) total.cells.set(column, add(total.cells.get(column) ?? ZERO, value));
    total.total = add(total.total, row.total);
  }
  // A currency's total row, where it adds something: more than one row of that currency.
  const counts = new Map<string, number>();
  for (const row of ordered) counts.set(row.currency, (counts.get(row.currency) ?? 0) + 1);
  const totalRows = [...totals.values()]
    .filter((t) => (counts.get(t.currency) ?? 0) > 1)
    .map((t) => recordOf(t, columns, input, !byCurrency));
  return { records: [...out, ...totalRows], columns, totalColumn: !byCurrency };
}

function compareDecimals(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * 10n ** BigInt(scale - a.scale);
  const y = b.units * 10n ** BigInt(scale - b.scale);
  return x === y ? 0 : x > y ? 1 : -1;
}

function recordOf(row: Row, columns: string[], input: PivotInput, totalColumn: boolean): GroupRecord {
  const record: GroupRecord = { ...row.keys };
  if (input.field !== 'currency') record.currency = row.currency;
  for (const column of columns) {
    const cell = row.cells.get(column);
    record[column] = cell === undefined ? null : decimalValue(cell);
  }
  if (totalColumn) record.total = decimalValue(row.total);
  return record;
}

// The terminal views of a comparison and of a pivot. A comparison shows each group's amount, the
// compared amount, the change signed (+1,234.50 / -12.00) and the change in percent, or `new` /
// `gone`: readable without colour, green and red only where stdout takes colour. A pivot shows one
// column per period and a total; when the terminal is too narrow, the oldest period columns give
// way first (the newest and the total stay), and a line on stderr says which are not shown.
import { formatAmount } from '../../lib/money/display.js';
import { loadCells } from '../../lib/output/cells.js';
import { KEEP, type LayoutColumn, layoutTable, planTable, type TableSpec } from '../../lib/output/table-layout.js';
import { safeText } from '../../lib/output/text.js';
import type { GroupRecord } from './groups.js';
import { headerOf } from './view.js';

export type Paint = (style: 'green' | 'red' | 'bold', text: string) => string;

/** A column of a report: its field's name (headed in the lists' words), its cells, how it gives way. */
interface Column {
  name: string;
  cells: string[];
  right: boolean;
  /** The lower, the sooner it goes when the terminal is too narrow (a pivot's oldest period). */
  priority?: number;
  /** A name (a payor, a title): cut at its end to fit, never dropped. Amounts and codes are never cut. */
  cut?: boolean;
  /** Painted after its width is measured. */
  paint?: (text: string, row: number) => string;
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : safeText(Array.isArray(value) ? value.join(', ') : String(value));

/**
 * The columns as the table layout takes them: an amount or a code is copied whole (a column goes,
 * never a digit); a name is cut at its end. `cutLast`: columns that may go go before any name is cut.
 */
function tableOf(columns: Column[], rows: number, width: number, cutLast: boolean): TableSpec {
  const layout = columns.map(
    (c): LayoutColumn => ({
      header: headerOf(c.name),
      overflow: c.cut ? 'cut-end' : 'never',
      priority: c.priority ?? KEEP,
      ...(c.right ? { align: 'right' } : {}),
    }),
  );
  const table = Array.from({ length: rows }, (_, row) => columns.map((c) => c.cells[row] ?? ''));
  const paint = (cell: string, column: number, row: number) => columns[column]?.paint?.(cell, row) ?? cell;
  // Its keys say what a row is, even when no row has one: a report keeps a column no row fills.
  return { columns: layout, rows: table, width, paintCell: paint, keepEmpty: true, cutLast };
}

/** A table fitted to its width, and the names of the columns that went for want of room. */
async function fitted(columns: Column[], rows: number, width: number, cutLast: boolean): Promise<Fitted> {
  const cells = await loadCells();
  const table = tableOf(columns, rows, width, cutLast);
  const plan = planTable(cells, table);
  const hidden = [...plan.dropped].sort((a, b) => a - b).map((i) => columns[i]?.name ?? '');
  return { text: layoutTable(cells, table, plan), hidden };
}

export interface Fitted {
  text: string;
  /** The columns not shown, left to right: the terminal is too narrow for them. */
  hidden: string[];
}

/** A key column: a name (a payor, a title) gives way by being cut; the currency, a code, never is. */
const keyColumn = (name: string, cells: string[]): Column => ({ name, cells, right: false, cut: name !== 'currency' });

const signed = (value: unknown, currency: unknown): string => {
  const shown = formatAmount(value, currency);
  return shown === '' || shown.startsWith('-') || Number(value) === 0 ? shown : `+${shown}`;
};

export interface CompareView {
  keys: string[];
  amount: string;
  /** The ranges compared, as headers; else `now` and `compared`, with the compared period in a column. */
  labels?: { current: string; compared: string };
  paint: Paint;
  /** The terminal's width in cells. */
  width: number;
}

/**
 * The comparison fitted to `width`: names are cut to a readable width first; then the percentage
 * goes, then the compared period's column; the amounts and the change always stay.
 */
export async function drawComparison(records: readonly GroupRecord[], view: CompareView): Promise<Fitted> {
  const cell = (name: string) => records.map((r) => text(r[name]));
  const money = (name: string) => records.map((r) => formatAmount(r[name], r.currency));
  const columns: Column[] = [...view.keys, 'currency'].map((name) => keyColumn(name, cell(name)));
  if (!view.labels) columns.push({ name: 'compared with', cells: cell('compared_period'), right: false, priority: 30 });
  const paintChange = (t: string, row: number) => {
    const status = records[row]?.status;
    if (status === 'new' || t.startsWith('+')) return view.paint('green', t);
    if (status === 'gone' || t.startsWith('-')) return view.paint('red', t);
    return t;
  };
  columns.push(
    { name: view.labels?.current ?? 'amount', cells: money(view.amount), right: true },
    { name: view.labels?.compared ?? 'compared', cells: money(`compared_${view.amount}`), right: true },
    { name: 'change', cells: records.map((r) => signed(r.change, r.currency)), right: true, paint: paintChange },
    {
      name: '%',
      cells: records.map((r) =>
        r.status !== null && r.status !== undefined
          ? String(r.status)
          : r.change_pct === null
            ? ''
            : `${Number(r.change_pct) > 0 ? '+' : ''}${Number(r.change_pct).toFixed(1)} %`,
      ),
      right: true,
      paint: paintChange,
      priority: 20,
    },
  );
  return fitted(columns, records.length, view.width, false);
}

export interface PivotView {
  keys: string[];
  columns: string[];
  totalColumn: boolean;
  /** The field pivoted: currency columns are each their own currency. */
  field: string;
  width: number;
}

/** The pivot fitted to `width`: oldest value columns go first, then names are cut. */
export async function drawPivot(records: readonly GroupRecord[], view: PivotView): Promise<Fitted> {
  const byCurrency = view.field === 'currency';
  const keyNames = byCurrency ? view.keys : [...view.keys, 'currency'];
  const keyColumns: Column[] = keyNames.map((name, i) =>
    keyColumn(
      name,
      records.map((r) =>
        i === 0 && view.keys.length > 0 && view.keys.every((k) => r[k] === null) ? 'total' : text(r[name]),
      ),
    ),
  );
  const amountCells = (name: string) => records.map((r) => formatAmount(r[name], byCurrency ? name : r.currency));
  // The newest value column stays with the keys and the total; the older ones go oldest first.
  const values: Column[] = view.columns.map((name, i) => ({
    name,
    cells: amountCells(name),
    right: true,
    priority: i === view.columns.length - 1 ? KEEP : i / view.columns.length,
  }));
  const total: Column[] = view.totalColumn ? [{ name: 'total', cells: amountCells('total'), right: true }] : [];
  return fitted([...keyColumns, ...values, ...total], records.length, view.width, true);
}

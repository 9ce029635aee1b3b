// The terminal views of a comparison and of a pivot. A comparison shows each group's amount, the
// compared amount, the change signed (+1,234.50 / -12.00) and the change in percent, or `new` /
// `gone`: readable without colour, green and red only where stdout takes colour. A pivot shows one
// column per period and a total; when the terminal is too narrow, the oldest period columns give
// way first (the newest and the total stay), and a line on stderr says which are not shown.
import stringWidth from 'string-width';
import { formatAmount } from '../../lib/money/display.js';
import { safeText } from '../../lib/output/text.js';
import type { GroupRecord } from './groups.js';
import { headerOf } from './view.js';

export type Paint = (style: 'green' | 'red' | 'bold', text: string) => string;

interface Column {
  header: string;
  cells: string[];
  right: boolean;
  /** Painted after its width is measured. */
  paint?: (text: string, row: number) => string;
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : safeText(Array.isArray(value) ? value.join(', ') : String(value));

/** Columns side by side, two spaces apart, each as wide as its widest cell; headers in the lists' words. */
function aligned(given: Column[], rows: number): string {
  const columns = given.map((c) => ({ ...c, header: headerOf(c.header) }));
  const widths = columns.map((c) => Math.max(stringWidth(c.header), ...c.cells.map((cell) => stringWidth(cell))));
  const line = (cells: string[], paint: boolean, row: number) =>
    cells
      .map((cell, i) => {
        const column = columns[i] as Column;
        const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - stringWidth(cell)));
        const shown = paint && column.paint ? column.paint(cell, row) : cell;
        return column.right ? pad + shown : shown + pad;
      })
      .join('  ')
      .trimEnd();
  const out = [
    line(
      columns.map((c) => c.header),
      false,
      -1,
    ),
  ];
  for (let row = 0; row < rows; row++)
    out.push(
      line(
        columns.map((c) => c.cells[row] ?? ''),
        true,
        row,
      ),
    );
  return out.map((l) => `${l}\n`).join('');
}

const width = (columns: Column[]): number =>
  columns.reduce(
    (sum, c) => sum + 2 + Math.max(stringWidth(c.header), ...c.cells.map((cell) => stringWidth(cell))),
    -2,
  );

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
}

export function drawComparison(records: readonly GroupRecord[], view: CompareView): string {
  const cell = (name: string) => records.map((r) => text(r[name]));
  const money = (name: string) => records.map((r) => formatAmount(r[name], r.currency));
  const columns: Column[] = [
    ...[...view.keys, 'currency'].map((name) => ({ header: name, cells: cell(name), right: false })),
  ];
  if (!view.labels) columns.push({ header: 'compared with', cells: cell('compared_period'), right: false });
  const paintChange = (t: string, row: number) => {
    const status = records[row]?.status;
    if (status === 'new' || t.startsWith('+')) return view.paint('green', t);
    if (status === 'gone' || t.startsWith('-')) return view.paint('red', t);
    return t;
  };
  columns.push(
    { header: view.labels?.current ?? 'amount', cells: money(view.amount), right: true },
    { header: view.labels?.compared ?? 'compared', cells: money(`compared_${view.amount}`), right: true },
    { header: 'change', cells: records.map((r) => signed(r.change, r.currency)), right: true, paint: paintChange },
    {
      header: '%',
      cells: records.map((r) =>
        r.status !== null && r.status !== undefined
          ? String(r.status)
          : r.change_pct === null
            ? ''
            : `${Number(r.change_pct) > 0 ? '+' : ''}${Number(r.change_pct).toFixed(1)} %`,
      ),
      right: true,
      paint: paintChange,
    },
  );
  return aligned(columns, records.length);
}

export interface PivotView {
  keys: string[];
  columns: string[];
  totalColumn: boolean;
  /** The field pivoted: currency columns are each their own currency. */
  field: string;
  width: number;
}

/** The pivot fitted to `width`: oldest value columns dropped first; the names of those dropped. */
export function drawPivot(records: readonly GroupRecord[], view: PivotView): { text: string; hidden: string[] } {
  const byCurrency = view.field === 'currency';
  const keyNames = byCurrency ? view.keys : [...view.keys, 'currency'];
  const keyColumns: Column[] = keyNames.map((name, i) => ({
    header: name,
    cells: records.map((r) =>
      i === 0 && view.keys.length > 0 && view.keys.every((k) => r[k] === null) ? 'total' : text(r[name]),
    ),
    right: false,
  }));
  const amountCells = (name: string) => records.map((r) => formatAmount(r[name], byCurrency ? name : r.currency));
  const values: Column[] = view.columns.map((name) => ({ header: name, cells: amountCells(name), right: true }));
  const total: Column[] = view.totalColumn ? [{ header: 'total', cells: amountCells('total'), right: true }] : [];
  const hidden: string[] = [];
  while (values.length > 1 && width([...keyColumns, ...values, ...total]) > view.width)
    hidden.push((values.shift() as Column).header);
  return { text: aligned([...keyColumns, ...values, ...total], records.length), hidden };
}

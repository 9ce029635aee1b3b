// The terminal view of a roll-up: one row per group, its money in the money format, and a bar
// beside the licensor revenue scaled to the largest group of the same currency, so a ranking or a
// quarter-by-quarter series is seen at a glance. Only ever drawn on a terminal.
import stringWidth from 'string-width';
import { formatAmount } from '../../lib/money/display.js';
import { safeText } from '../../lib/output/text.js';
import type { GroupRecord } from './groups.js';

/** Eighths of a cell, for the bar's last partial block. */
const PARTS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const BAR_CELLS = 12;

/** A sum for people: money in its currency's format, a count (units) as a grouped whole number. */
function amountText(value: unknown, currency: unknown, isMoney: boolean): string {
  if (isMoney) return formatAmount(value, currency);
  const text = String(value ?? '');
  return /^-?\d+$/.test(text) ? text.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : text;
}

/** A column's header in the view: `licensor_revenue` is `licensor` beside its currency. */
const label = (name: string): string => name.replace(/_revenue$/, '');

/** A bar of `value / max` of BAR_CELLS cells, in whole and eighth blocks. */
export function bar(value: number, max: number): string {
  if (!(max > 0) || !(value > 0)) return '';
  const eighths = Math.max(1, Math.round((value / max) * BAR_CELLS * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + (PARTS[eighths % 8] as string);
}

interface ViewColumn {
  header: string;
  cell: (record: GroupRecord) => string;
  right?: boolean;
}

export interface ViewOptions {
  /** Fields shown as text, left-aligned (the keys, currency, names). */
  keys: string[];
  /** Counts shown as numbers. */
  counts: string[];
  /** The amount the bar is drawn for. */
  barColumn: string;
  /** Other amounts, shown while the width allows. */
  amounts: string[];
  /** Trailing text fields (first and last period). */
  tail: string[];
  columns: number;
}

/** The rows of a roll-up as an aligned table with bars; the footer lines follow it. */
export function drawView(records: GroupRecord[], options: ViewOptions): string {
  const maxOf = new Map<string, number>();
  for (const r of records) {
    const amount = Number(r[options.barColumn] ?? 0);
    const currency = String(r.currency);
    maxOf.set(currency, Math.max(maxOf.get(currency) ?? 0, amount));
  }
  // A column is money when some sum has cents; a count (units) is shown as a whole number.
  const isMoney = (name: string) => records.some((r) => String(r[name]).includes('.'));
  const amount = (name: string) => {
    const money = isMoney(name);
    return (r: GroupRecord) => amountText(r[name], r.currency, money);
  };
  const text = (name: string) => (r: GroupRecord) => {
    const value = r[name];
    return value === null || value === undefined
      ? ''
      : safeText(Array.isArray(value) ? value.join(', ') : String(value));
  };
  const required: ViewColumn[] = [
    ...options.keys.map((name) => ({ header: name, cell: text(name) })),
    ...options.counts.map((name) => ({ header: name, cell: (r: GroupRecord) => String(r[name] ?? ''), right: true })),
    { header: label(options.barColumn), cell: amount(options.barColumn), right: true },
    {
      header: '',
      cell: (r) => bar(Number(r[options.barColumn] ?? 0), maxOf.get(String(r.currency)) ?? 0),
    },
  ];
  const optional: ViewColumn[] = [
    // Money first: of a lines export's numeric columns, the amounts matter more than the counts.
    ...[...options.amounts.filter(isMoney), ...options.amounts.filter((name) => !isMoney(name))].map((name) => ({
      header: label(name),
      cell: amount(name),
      right: true,
    })),
    ...options.tail.map((name) => ({ header: name, cell: text(name) })),
  ];
  const widthOf = (column: ViewColumn) =>
    Math.max(stringWidth(column.header), ...records.map((r) => stringWidth(column.cell(r))));
  const shown = [...required];
  let total = required.reduce((sum, c) => sum + widthOf(c) + 2, 0);
  for (const column of optional) {
    const width = widthOf(column) + 2;
    if (total + width > options.columns) break;
    shown.push(column);
    total += width;
  }
  const widths = shown.map(widthOf);
  const row = (cells: string[]) =>
    cells
      .map((cell, i) => {
        const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - stringWidth(cell)));
        return shown[i]?.right ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return [row(shown.map((c) => c.header)), ...records.map((r) => row(shown.map((c) => c.cell(r))))]
    .map((line) => `${line}\n`)
    .join('');
}

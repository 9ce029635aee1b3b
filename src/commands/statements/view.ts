// The terminal view of a roll-up, read as a report: word headers like the lists', one row per group
// with its money and currency (`15,264.58 EUR`), counts grouped, a total row per currency, and a
// bar beside the money it ranks, scaled to the largest group of the same currency. It holds to the
// terminal's width like every table: the bar goes first, then the least important column, and only
// then is a name cut. Only ever drawn on a terminal.
import { ExactSum } from '../../lib/money/exact-sum.js';
import { formatCount, formatMoney } from '../../lib/money/display.js';
import { type Cells, loadCells } from '../../lib/output/cells.js';
import { KEEP, type LayoutColumn, layoutTable, planTable } from '../../lib/output/table-layout.js';
import { safeText } from '../../lib/output/text.js';
import { SHOWN_AS_MONEY } from './columns.js';
import type { GroupRecord } from './groups.js';

/** Eighths of a cell, for the bar's last partial block. */
const PARTS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const BAR_CELLS = 12;
/** A bar narrower than this ranks nothing: the room goes unused instead. */
const BAR_MIN_CELLS = 6;
const GAP = 2;
/** A total row's mark: a key no field of a record can have. */
const TOTAL = '\u0000total';

/** Headers of the fields pds itself names; an export's own column is its name in upper case. */
const HEADERS: Record<string, string> = {
  licensor_revenue: 'LICENSOR REVENUE',
  licensee_revenue: 'LICENSEE REVENUE',
  first_period: 'FROM',
  last_period: 'TO',
  name: 'RECORDING',
};

/** A field's header in the lists' style: `net_eur` is `NET EUR`. */
export const headerOf = (name: string): string =>
  HEADERS[name] ??
  name
    .replace(/[_\s]+/g, ' ')
    .trim()
    .toUpperCase();

/** Keys that are codes: copied, never cut (a column of them goes whole instead). */
const CODES = new Set(['isrc', 'iswc', 'upc', 'ean', 'statement', 'period', 'currency', 'territory', 'country']);

/** A bar of `value / max` of `cells` cells, in whole and eighth blocks. */
export function bar(value: number, max: number, cells = BAR_CELLS): string {
  if (!(max > 0) || !(value > 0)) return '';
  const eighths = Math.max(1, Math.round((value / max) * cells * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + (PARTS[eighths % 8] as string);
}

export interface ViewOptions {
  /** Fields shown as text, left-aligned (the keys, names); the first holds a total row's label. */
  keys: string[];
  /** Counts shown as grouped whole numbers. */
  counts: string[];
  /** The amount the bar is drawn for. */
  barColumn: string;
  /** Other sums, shown while the width allows. */
  amounts: string[];
  /** Trailing text fields (first and last period). */
  tail: string[];
  columns: number;
  /** The total rows' label (`total`, or `total of the top 5` when --top cut the groups). */
  totalLabel?: string;
}

/** One column of the report: how its cell is read, and how it gives way. */
interface ReportColumn extends LayoutColumn {
  cell: (record: GroupRecord) => string;
  /** Summed into the total row (counts and amounts). */
  sum?: string;
}

/** Money when its name says so or a sum has cents; a count (units, lines) is a whole number. */
function moneyTest(records: GroupRecord[]): (name: string) => boolean {
  return (name) => SHOWN_AS_MONEY.test(name) || records.some((r) => String(r[name]).includes('.'));
}

function reportColumns(records: GroupRecord[], options: ViewOptions): ReportColumn[] {
  const isMoney = moneyTest(records);
  const sumCell = (name: string) =>
    isMoney(name) ? (r: GroupRecord) => formatMoney(r[name], r.currency) : (r: GroupRecord) => formatCount(r[name]);
  const text = (name: string) => (r: GroupRecord) => {
    const value = r[name];
    if (value === null || value === undefined) return '';
    return safeText(Array.isArray(value) ? value.join(', ') : String(value));
  };
  const sums = (name: string, priority: number): ReportColumn => ({
    header: headerOf(name),
    cell: sumCell(name),
    align: 'right',
    overflow: 'never',
    priority,
    sum: name,
  });
  // Of the other sums, money stays longer than a count (units); the first and last period go first.
  const others = [...options.amounts.filter(isMoney), ...options.amounts.filter((name) => !isMoney(name))];
  return [
    ...options.keys.map((name): ReportColumn => {
      const code = CODES.has(name);
      return { header: headerOf(name), cell: text(name), priority: KEEP, overflow: code ? 'never' : 'cut-end' };
    }),
    ...options.counts.map((name) => sums(name, 40)),
    sums(options.barColumn, KEEP),
    ...others.map((name, i) => sums(name, 30 - Math.min(i, 9))),
    ...options.tail.map((name, i): ReportColumn => ({ header: headerOf(name), cell: text(name), priority: 15 - i })),
  ];
}

/** A total row after each currency's rows that are more than one: the sums, exactly. */
function withTotals(records: GroupRecord[], columns: ReportColumn[], label: string): GroupRecord[] {
  const rows: GroupRecord[] = [];
  const summed = columns.flatMap((c) => (c.sum ? [c.sum] : []));
  let start = 0;
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as GroupRecord;
    rows.push(record);
    if (records[i + 1]?.currency === record.currency) continue;
    const group = records.slice(start, i + 1);
    start = i + 1;
    if (group.length < 2) continue;
    const total: GroupRecord = { currency: record.currency ?? null };
    for (const name of summed) {
      const sum = new ExactSum();
      for (const r of group) sum.add(String(r[name] ?? 0));
      total[name] = sum.toNumber();
    }
    total[TOTAL] = label;
    rows.push(total);
  }
  return rows;
}

/** The rows of a roll-up as a fitted table, total rows and bars included. */
export async function drawView(records: GroupRecord[], options: ViewOptions): Promise<string> {
  const cells = await loadCells();
  const columns = reportColumns(records, options);
  const rows = withTotals(records, columns, options.totalLabel ?? 'total');
  const cellsOf = (r: GroupRecord) =>
    columns.map((c, i) => (r[TOTAL] !== undefined ? (i === 0 ? String(r[TOTAL]) : c.sum ? c.cell(r) : '') : c.cell(r)));
  const table = rows.map(cellsOf);
  const plan = planTable(cells, { columns, rows: table, width: options.columns, cutLast: true });
  return layoutTable(
    cells,
    { columns, rows: table, width: options.columns },
    withBar(cells, plan, records, rows, options, table, columns),
  );
}

/**
 * The bar, in the room the plan leaves: after the column it ranks, as wide as the room allows up to
 * BAR_CELLS, or not at all. Its cells are added to the table's rows as a column of their own.
 */
function withBar(
  cells: Cells,
  plan: ReturnType<typeof planTable>,
  records: GroupRecord[],
  rows: GroupRecord[],
  options: ViewOptions,
  table: string[][],
  columns: ReportColumn[],
): ReturnType<typeof planTable> {
  const used = plan.shown.reduce((sum, i) => sum + (plan.widths[i] ?? 0), 0) + GAP * (plan.shown.length - 1);
  const room = Math.min(BAR_CELLS, options.columns - used - GAP);
  if (room < BAR_MIN_CELLS) return plan;
  const maxOf = new Map<string, number>();
  for (const r of records) {
    const currency = String(r.currency);
    maxOf.set(currency, Math.max(maxOf.get(currency) ?? 0, Number(r[options.barColumn] ?? 0)));
  }
  const at = columns.length;
  columns.push({ header: '', cell: () => '', priority: 0 });
  rows.forEach((r, n) => {
    const drawn =
      r[TOTAL] === undefined ? bar(Number(r[options.barColumn] ?? 0), maxOf.get(String(r.currency)) ?? 0, room) : '';
    table[n]?.push(drawn);
  });
  const ranked = columns.findIndex((c) => c.sum === options.barColumn && c.priority === KEEP);
  const shown = [...plan.shown];
  shown.splice(shown.indexOf(ranked) + 1, 0, at);
  const widths = [...plan.widths];
  widths[at] = Math.max(0, ...table.map((row) => cells.width(row[at] ?? '')));
  return { ...plan, shown, widths };
}

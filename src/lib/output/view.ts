// How a person sees a resource: the columns of its list, each with a format, an alignment, a
// priority and a way to give way. A verb hands a view to the renderer (output.ts), which draws it
// on a terminal or writes the data formats instead; TSV keeps each column's `header` and raw text.
import { personText, readableDate } from './cell-text.js';
import { formatAmount, formatCount, formatPercent } from '../money/display.js';
import { type ColumnFit, columnOfFit, KEEP, type LayoutColumn, type Overflow } from './table-layout.js';

/**
 * What a column holds, which says how it is drawn on a terminal: `id` (copied: never cut, never
 * goes), `code` (an ISRC, an ISWC: never cut), `file` (cut in the middle), `name` (what a row is
 * called: the last text to go), `money` (the currency's decimals, grouped, right-aligned), `percent`
 * (`18 %`), `count`, `duration`, `date` (local `YYYY-MM-DD HH:MM`), `score` (a number to three
 * decimals, so that a column of them aligns; TSV keeps the number as it came), `text` (anything else).
 */
export type CellFormat =
  | 'id'
  | 'code'
  | 'file'
  | 'name'
  | 'money'
  | 'percent'
  | 'count'
  | 'duration'
  | 'date'
  | 'score'
  | 'text';

export interface Column<T> {
  /** The column's name in TSV (upper-cased) and, unless `label` says more, on a terminal. */
  header: string;
  /** The terminal's header when it says more than `header` (`licensor rev`). */
  label?: string;
  value: (record: T) => unknown;
  /** What a terminal draws when it differs from the value TSV keeps (a dash for nothing yet). */
  shown?: (record: T) => unknown;
  format?: CellFormat;
  /** A money column's currency, per row: the header names it when every row has the same one. */
  currency?: (record: T) => unknown;
  align?: 'left' | 'right';
  /** The higher, the longer the column stays in a narrow table (an id: 100, never goes). */
  priority?: number;
  overflow?: Overflow;
  /** ISO timestamps shown as `YYYY-MM-DD HH:MM` on a TTY (the same as format `date`). */
  date?: boolean;
  /** The older way to say how a column gives way (table-layout.ts, ColumnFit); format wins. */
  fit?: ColumnFit;
  /** Left out of a table when no row fills it (TSV keeps it, so its header does not vary). */
  optional?: boolean;
  /** Only on a terminal: TSV leaves it out (a reading of fields TSV has already). */
  terminalOnly?: boolean;
}

export interface ListView<T> {
  columns: Column<T>[];
  id: (record: T) => string;
  /** Plural noun for messages: "artists". */
  noun: string;
  /** Whether every page is being followed (changes the footer). */
  all?: boolean;
  /** The fields `--fields` may name (src/lib/output/fields.ts). */
  fields?: readonly string[];
}

const FORMAT_LAYOUT: Record<CellFormat, Omit<LayoutColumn, 'header'>> = {
  id: { overflow: 'never', priority: KEEP },
  code: { overflow: 'never', priority: 60 },
  file: { overflow: 'cut-middle', priority: 50 },
  name: { overflow: 'cut-end', priority: 90 },
  money: { overflow: 'never', priority: 70, align: 'right' },
  percent: { overflow: 'never', priority: 60, align: 'right' },
  count: { overflow: 'never', priority: 45, align: 'right' },
  duration: { overflow: 'never', priority: 30, align: 'right' },
  date: { overflow: 'never', priority: 20 },
  score: { overflow: 'never', priority: 30, align: 'right' },
  text: { overflow: 'cut-end', priority: 40 },
};

/** The column's format: given, or `date`, or (an older column) by its place: the first is the id. */
export function formatOf(column: Column<never>, index: number): CellFormat | undefined {
  if (column.format) return column.format;
  if (column.date) return 'date';
  if (column.fit) return undefined;
  return index === 0 || column.header === 'id' ? 'id' : 'text';
}

/** How the column is laid out on a terminal, under `header`. */
export function layoutOf(column: Column<never>, index: number, header: string): LayoutColumn {
  const format = formatOf(column, index);
  const base = format ? { header, ...FORMAT_LAYOUT[format] } : columnOfFit(header, column.fit);
  return {
    ...base,
    ...(column.align ? { align: column.align } : {}),
    ...(column.priority !== undefined ? { priority: column.priority } : {}),
    ...(column.overflow ? { overflow: column.overflow } : {}),
  };
}

/** One value as its format draws it on a terminal. */
export function drawCell(format: CellFormat | undefined, value: unknown, currency?: unknown): string {
  switch (format) {
    case 'date':
      return readableDate(value);
    case 'money':
      return personText(formatAmount(value, currency));
    case 'percent':
      return personText(formatPercent(value));
    case 'count':
      return typeof value === 'number' ? formatCount(value) : personText(value);
    case 'score':
      return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(3) : personText(value);
    default:
      return personText(value);
  }
}

/**
 * The currencies of a money column's rows that hold an amount: one (the header names it), several
 * (each amount names its own) or none.
 */
export function currenciesOf<T>(column: Column<T>, items: readonly T[]): string[] {
  if (!column.currency) return [];
  const named = new Set<string>();
  for (const item of items) {
    const value = column.value(item);
    const currency = personText(column.currency(item));
    if (value !== undefined && value !== null && currency !== '') named.add(currency);
  }
  return [...named];
}

// A borderless table (gh's style) laid out for a terminal width, measured in cells. Pure: the cells'
// measure (string-width, loaded by the caller) and the header's style come in, a string goes out.
import type { Cells } from './cells.js';
import { safeText } from './text.js';

/**
 * How a table column gives way when the terminal is narrow: `text` (a name) is shortened with an
 * ellipsis, `whole` (a date) and `extra` (a detail) are dropped rather than cut, `command` (one to
 * copy) moves below the table, `copy` (an id, a file name) is never cut.
 */
export type ColumnFit = 'copy' | 'command' | 'whole' | 'extra' | 'text';

export interface TableSpec {
  headers: string[];
  rows: string[][];
  /** The terminal's width in cells. */
  width: number;
  /** Put before every line (an indent under a record's field). */
  prefix?: string;
  fits?: ColumnFit[];
  /** How a header is styled (bold on a colored terminal). */
  bold?: (text: string) => string;
}

const GAP = 2;
const MIN_TEXT_CELLS = 8;
const TINY_TEXT_CELLS = 3;

/**
 * The table as lines. A row is one line and never wraps. When the table is too wide: columns no
 * row fills are dropped, free text shrinks evenly (widest first, down to a few letters); then dates
 * and less important columns are dropped whole; then commands leave the table and are printed whole
 * as lines below it; only then does free text shrink further, and at last it is dropped. Ids are
 * never cut.
 */
export function layoutTable(cells: Cells, spec: TableSpec): string {
  const { headers, width, prefix = '', fits = [], bold = (text: string) => text } = spec;
  // A table row is one line: a newline inside a cell would split it, and an escape sequence would
  // act on the terminal. Cells from textCell are safe already; safeText leaves safe text as is.
  const rows = spec.rows.map((row) => row.map(safeText));
  const fitOf = (i: number): ColumnFit => fits[i] ?? 'text';
  const natural = headers.map((h, i) => Math.max(cells.width(h), ...rows.map((row) => cells.width(row[i] ?? ''))));
  let columns = headers.map((_, i) => i);
  let widths = [...natural];
  // Lays `columns` out from their natural widths, free text shrunk evenly down to `floor` cells.
  const fitsIn = (floor: number): boolean => {
    widths = [...natural];
    const room = width - prefix.length - GAP * (columns.length - 1);
    const total = () => columns.reduce((sum, i) => sum + (widths[i] ?? 0), 0);
    const text = columns.filter((i) => fitOf(i) === 'text');
    while (total() > room) {
      const widest = text.reduce<number | undefined>(
        (best, i) => (best === undefined || (widths[i] ?? 0) > (widths[best] ?? 0) ? i : best),
        undefined,
      );
      if (widest === undefined || (widths[widest] ?? 0) <= floor) return false;
      widths[widest] = (widths[widest] ?? 0) - 1;
    }
    return true;
  };
  const without = (i: number): void => {
    columns = columns.filter((c) => c !== i);
  };
  let below: number[] = [];
  if (!fitsIn(Infinity)) columns = columns.filter((i) => rows.some((row) => (row[i] ?? '') !== ''));
  if (!fitsIn(MIN_TEXT_CELLS)) {
    // Dropped rather than cut (a cut date is useless), last column first, until the rest fits.
    for (const i of [...columns].reverse()) {
      if (fitOf(i) !== 'whole' && fitOf(i) !== 'extra') continue;
      without(i);
      if (fitsIn(MIN_TEXT_CELLS)) break;
    }
  }
  if (!fitsIn(MIN_TEXT_CELLS)) {
    below = columns.filter((i) => fitOf(i) === 'command');
    for (const i of below) without(i);
  }
  if (!fitsIn(MIN_TEXT_CELLS) && !fitsIn(TINY_TEXT_CELLS)) {
    for (const i of [...columns].reverse()) {
      if (fitOf(i) !== 'text') continue;
      without(i);
      if (fitsIn(TINY_TEXT_CELLS)) break;
    }
    // Only ids are left: if even they do not fit, a row wraps rather than lose a digit.
    fitsIn(TINY_TEXT_CELLS);
  }
  const line = (row: string[], paint: (text: string) => string = (text) => text): string =>
    prefix +
    columns
      .map((i, n) => {
        const columnWidth = widths[i] ?? 0;
        const cell = fitOf(i) === 'text' ? cells.fit(row[i] ?? '', columnWidth) : (row[i] ?? '');
        const pad = n === columns.length - 1 ? '' : ' '.repeat(Math.max(0, columnWidth - cells.width(cell)) + GAP);
        return paint(cell) + pad;
      })
      .join('')
      .trimEnd();
  const lines = [line(headers, (text) => (text ? bold(text) : text)), ...rows.map((row) => line(row))];
  // A command that does not fit a row is printed whole on a line of its own, in the rows' order.
  for (const i of below) {
    lines.push('', prefix + bold(headers[i] ?? ''), ...rows.flatMap((row) => (row[i] ? [prefix + row[i]] : [])));
  }
  return `${lines.join('\n')}\n`;
}

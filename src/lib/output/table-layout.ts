// A borderless table (gh's style) laid out for a terminal width, measured in cells. Pure: the cells'
// measure (string-width, loaded by the caller) and the header's style come in, a string goes out.
// No line is wider than the width: columns give way by their priority, whole, before any text is
// cut below a readable width; a header is never cut; what is copied (ids, codes, amounts) never is.
import type { Cells } from './cells.js';
import { safeText } from './text.js';

/**
 * How a cell that does not fit gives way: `cut-end` (a name: `Glass Harb…`), `cut-middle` (a file
 * name keeps its start and extension), `wrap` (onto more lines of the row), `never` (an id, a code,
 * an amount, a date: the column goes whole instead), `below` (a command to copy: printed whole
 * under the table when a row cannot hold it).
 */
export type Overflow = 'cut-end' | 'cut-middle' | 'wrap' | 'never' | 'below';

export interface LayoutColumn {
  header: string;
  align?: 'left' | 'right';
  /** The higher, the longer the column stays; the lowest goes first. `KEEP` never goes. */
  priority?: number;
  overflow?: Overflow;
}

/** A column of this priority (an id) stays however narrow the terminal. */
export const KEEP = 100;

/**
 * The older way to say how a column gives way, still taken: `text` is cut at its end, `whole` (a
 * date) and `extra` (a detail) go whole, `command` moves below, `copy` (an id, a file) never goes.
 */
export type ColumnFit = 'copy' | 'command' | 'whole' | 'extra' | 'text';

export function columnOfFit(header: string, fit: ColumnFit = 'text'): LayoutColumn {
  switch (fit) {
    case 'copy':
      return { header, overflow: 'never', priority: KEEP };
    case 'command':
      return { header, overflow: 'below', priority: 30 };
    case 'whole':
    case 'extra':
      return { header, overflow: 'never', priority: 20 };
    case 'text':
      return { header, overflow: 'cut-end', priority: 40 };
  }
}

export interface TableSpec {
  columns: LayoutColumn[];
  rows: string[][];
  /** The terminal's width in cells. */
  width: number;
  /** Put before every line (an indent under a record's field). */
  prefix?: string;
  /** How a header is styled (bold on a colored terminal). */
  bold?: (text: string) => string;
  /**
   * Columns go whole before any text is cut (a report: its rows are read across, and a cut name
   * reads worse than a missing detail); a list cuts text to a readable width first.
   */
  cutLast?: boolean;
  /** Columns no row fills stay like the others (a report's keys); a list lets them go first. */
  keepEmpty?: boolean;
  /** How a body cell is painted, after its width is measured (a change in green or red). */
  paintCell?: (text: string, column: number, row: number) => string;
}

export interface TablePlan {
  /** The columns shown, by index, in order. */
  shown: number[];
  /** Each column's width (by index). */
  widths: number[];
  /** Commands printed below the table. */
  below: number[];
  /** Columns that went for want of room (not those no row fills). */
  dropped: number[];
  /** Some text is cut (or wrapped) below the readable width. */
  cramped: boolean;
}

const GAP = 2;
/** Text is not cut below this many cells while a column of lower priority can go instead. */
export const READABLE_CELLS = 12;
/** A file name cut in its middle needs more to be told from its neighbours. */
const READABLE_FILE_CELLS = 24;
const TINY_CELLS = 3;

const shrinks = (overflow: Overflow | undefined): boolean =>
  overflow === undefined || overflow === 'cut-end' || overflow === 'cut-middle' || overflow === 'wrap';

/** Which columns a table shows at a width, and how wide each is. */
export function planTable(cells: Cells, spec: Omit<TableSpec, 'bold' | 'paintCell'>): TablePlan {
  const { columns, rows, width, prefix = '', cutLast = false, keepEmpty = false } = spec;
  const headerWidth = columns.map((c) => cells.width(c.header));
  const natural = columns.map((_, i) => Math.max(headerWidth[i] ?? 0, ...rows.map((row) => cells.width(row[i] ?? ''))));
  let shown = columns.map((_, i) => i);
  const below: number[] = [];
  const dropped: number[] = [];
  let widths = [...natural];
  const room = () => width - cells.width(prefix) - GAP * Math.max(0, shown.length - 1);
  // From natural widths, the widest shrinkable text gives a cell at a time down to `floor`.
  const fitsAt = (floor: number): boolean => {
    widths = [...natural];
    const total = () => shown.reduce((sum, i) => sum + (widths[i] ?? 0), 0);
    const text = shown.filter((i) => shrinks(columns[i]?.overflow));
    const floorOf = (i: number) =>
      floor === READABLE_CELLS && columns[i]?.overflow === 'cut-middle' ? READABLE_FILE_CELLS : floor;
    const lowest = (i: number) => Math.min(natural[i] ?? 0, Math.max(floorOf(i), headerWidth[i] ?? 0));
    while (total() > room()) {
      let widest: number | undefined;
      for (const i of text) {
        if ((widths[i] ?? 0) <= lowest(i)) continue;
        if (widest === undefined || (widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i;
      }
      if (widest === undefined) return false;
      widths[widest] = (widths[widest] ?? 0) - 1;
    }
    return true;
  };
  if (!keepEmpty && !fitsAt(Number.POSITIVE_INFINITY))
    shown = shown.filter((i) => rows.some((row) => (row[i] ?? '') !== ''));
  const give = (floor: number) => {
    while (!fitsAt(floor)) {
      const next = lowestPriority(columns, shown);
      if (next === undefined) break;
      shown = shown.filter((i) => i !== next);
      if (columns[next]?.overflow === 'below') below.push(next);
      else dropped.push(next);
    }
  };
  if (cutLast) give(Number.POSITIVE_INFINITY);
  give(READABLE_CELLS);
  const readable = fitsAt(READABLE_CELLS);
  if (!readable) fitsAt(TINY_CELLS);
  const cramped =
    !readable || shown.some((i) => (widths[i] ?? 0) < (natural[i] ?? 0) && (widths[i] ?? 0) < READABLE_CELLS);
  return { shown, widths, below: below.sort((a, b) => a - b), dropped, cramped };
}

/** The column to go next: the lowest priority, the rightmost of equals; never a `KEEP` one. */
function lowestPriority(columns: LayoutColumn[], shown: number[]): number | undefined {
  let pick: number | undefined;
  for (const i of shown) {
    const priority = columns[i]?.priority ?? 40;
    if (priority >= KEEP) continue;
    if (pick === undefined || priority <= (columns[pick]?.priority ?? 40)) pick = i;
  }
  return pick;
}

/** The table as lines, laid out by planTable. */
export function layoutTable(cells: Cells, spec: TableSpec, plan?: TablePlan): string {
  const { columns, width, prefix = '', bold = (text: string) => text, paintCell } = spec;
  // A table row is one line: a newline inside a cell would split it, and an escape sequence would
  // act on the terminal. Cells from textCell are safe already; safeText leaves safe text as is.
  const rows = spec.rows.map((row) => row.map(safeText));
  const { shown, widths, below } =
    plan ??
    planTable(cells, {
      columns,
      rows,
      width,
      prefix,
      ...(spec.cutLast ? { cutLast: true } : {}),
      ...(spec.keepEmpty ? { keepEmpty: true } : {}),
    });
  const header = columns.map((c) => c.header);
  const lines = [drawRow(cells, header, columns, shown, widths, prefix, (text) => (text ? bold(text) : text), true)];
  rows.forEach((row, n) => {
    const paint = paintCell ? (text: string, column: number) => paintCell(text, column, n) : (text: string) => text;
    lines.push(drawRow(cells, row, columns, shown, widths, prefix, paint, false));
  });
  // A command that does not fit a row is printed whole on a line of its own, in the rows' order.
  for (const i of below) {
    lines.push('', prefix + bold(header[i] ?? ''), ...rows.flatMap((row) => (row[i] ? [prefix + row[i]] : [])));
  }
  return `${lines.join('\n')}\n`;
}

/** One row: one line, or more when a `wrap` cell needs them. */
function drawRow(
  cells: Cells,
  row: string[],
  columns: LayoutColumn[],
  shown: number[],
  widths: number[],
  prefix: string,
  paint: (text: string, column: number) => string,
  isHeader: boolean,
): string {
  const parts = shown.map((i) => {
    const text = row[i] ?? '';
    const width = widths[i] ?? 0;
    const overflow = columns[i]?.overflow ?? 'cut-end';
    if (isHeader || cells.width(text) <= width) return [text];
    if (overflow === 'wrap') return wrapCells(cells, text, width);
    if (overflow === 'cut-middle') return [cells.fitMiddle(text, width)];
    if (overflow === 'cut-end') return [cells.fit(text, width)];
    return [text];
  });
  const height = Math.max(1, ...parts.map((p) => p.length));
  const lines: string[] = [];
  for (let line = 0; line < height; line++) {
    const drawn = shown.map((i, n) => {
      const text = parts[n]?.[line] ?? '';
      const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - cells.width(text)));
      const right = columns[i]?.align === 'right';
      const cell = right ? pad + paint(text, i) : paint(text, i) + (n === shown.length - 1 ? '' : pad);
      return cell;
    });
    lines.push((prefix + drawn.join(' '.repeat(GAP))).trimEnd());
  }
  return lines.join('\n');
}

/** Text broken into lines of at most `width` cells, at spaces where it can. */
export function wrapCells(cells: Cells, text: string, width: number): string[] {
  if (width <= 0) return [text];
  const lines: string[] = [];
  let current = '';
  // A no-break space holds its two words on one line.
  for (const word of text.split(/[ \t\n\r]+/).filter((w) => w !== '')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (cells.width(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = word;
    while (cells.width(current) > width) {
      const head = cells.take(current, width);
      lines.push(head);
      current = current.slice(head.length);
    }
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines;
}

/**
 * Prose (a notice, a finding, a hint) broken into lines of at most `width` cells at spaces; a word
 * is never split: one longer than a line (a URL, a file name) gets a line of its own, cut in its
 * middle with an ellipsis. Lines after the first start with `indent`. A no-break space holds two
 * words together (an amount and its currency) and is drawn as a space.
 */
export function wrapProse(cells: Cells, text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let current = '';
  const room = () => Math.max(1, width - (lines.length === 0 ? 0 : cells.width(indent)));
  for (const word of text.split(/[ \t\n\r]+/).filter((w) => w !== '')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (cells.width(candidate) <= room()) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = cells.width(word) <= room() ? word : cells.fitMiddle(word, room());
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines.map((line, i) => (i === 0 ? line : indent + line).replace(/\u00a0/g, ' '));
}

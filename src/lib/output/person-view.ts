// A record as a person reads it on a terminal, from a view the resource declares: sections of
// `label  value` lines (long values wrapped at the terminal's width with a hanging indent), then
// its lists of terms as tables, or, when a table would cut their text below a readable width, as
// one short block per row (as `kubectl describe` does). Nothing here is ever wider than the width.
import type { Cells } from './cells.js';
import { personText } from './cell-text.js';
import { planTable, READABLE_CELLS } from './table-layout.js';
import { layoutTable } from './table-layout.js';
import { safeText } from './text.js';
import { type CellFormat, type Column, currenciesOf, drawCell, layoutOf } from './view.js';

type Record_ = Record<string, unknown>;

export interface Field {
  label: string;
  value: unknown;
  format?: CellFormat;
  /** A money field's currency. */
  currency?: unknown;
}

export interface Section {
  /** Shown above the fields (none for the first, the record's own). */
  title?: string;
  fields: Field[];
  /** Lines of text under the title (a statement's summary), wrapped. */
  lines?: string[];
}

export interface TermList {
  title: string;
  columns: Column<Record_>[];
  rows: Record_[];
  /** Lines under a row (what the service cited for it): a list with any is drawn as blocks. */
  notes?: (row: Record_) => string[];
}

export interface PersonView {
  sections: Section[];
  lists: TermList[];
}

export interface Drawing {
  cells: Cells;
  width: number;
  paint: (style: 'bold' | 'dim', text: string) => string;
}

const INDENT = '  ';

export function renderPersonView(view: PersonView, drawing: Drawing): string {
  const shown = view.sections
    .map((section) => ({ ...section, fields: section.fields.filter((field) => fieldText(field) !== '') }))
    .filter((section) => section.fields.length > 0 || (section.lines?.length ?? 0) > 0);
  const blocks: string[] = [];
  for (const section of shown) {
    const labelWidth = Math.max(0, ...section.fields.map((f) => drawing.cells.width(safeText(f.label))));
    const title = section.title ? `${drawing.paint('bold', safeText(section.title))}\n` : '';
    const lines = (section.lines ?? []).flatMap((line) =>
      wrapWords(drawing.cells, personText(line), drawing.width - INDENT.length).map((part) => INDENT + part),
    );
    blocks.push(title + [...fieldLines(section.fields, labelWidth, '', drawing), ...lines].join('\n'));
  }
  for (const list of view.lists) blocks.push(termList(list, drawing));
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

/** A field's value as drawn; an amount with its currency after it. */
function fieldText(field: Field): string {
  const text = drawCell(field.format, field.value, field.currency);
  const currency = field.format === 'money' ? personText(field.currency) : '';
  return text !== '' && currency !== '' ? `${text} ${currency}` : text;
}

/**
 * Text wrapped at spaces to `width` cells, never inside a word: a word wider than a line (a file
 * name, a MIME type, a URL) takes a line of its own, cut in its middle when even that is too narrow.
 */
export function wrapWords(cells: Cells, text: string, width: number): string[] {
  if (width <= 0) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (cells.width(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = cells.width(word) <= width ? word : cells.fitMiddle(word, width);
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines;
}

/** `label  value` lines, the value wrapped under itself (a hanging indent), never past the width. */
function fieldLines(fields: Field[], labelWidth: number, indent: string, drawing: Drawing): string[] {
  const { cells, width, paint } = drawing;
  const lines: string[] = [];
  for (const field of fields) {
    const text = fieldText(field);
    if (text === '') continue;
    const name = safeText(field.label);
    const hang = indent.length + labelWidth + 2;
    // On a very narrow terminal, or for one word wider than the room beside its label that a line
    // of its own holds whole (a long file name or URL), the value goes under its label rather than
    // be cut or broken; a word too long even there is cut in its middle beside its label.
    const room = width - hang;
    const oneWord = !/\s/.test(text) && cells.width(text) > room;
    const under = room < READABLE_CELLS || (oneWord && cells.width(text) <= width - indent.length - 2);
    const wrapped = wrapWords(cells, text, under ? Math.max(1, width - indent.length - 2) : room);
    const label = paint('dim', name + ' '.repeat(Math.max(0, labelWidth - cells.width(name))));
    if (under) {
      lines.push((indent + paint('dim', name)).trimEnd());
      for (const line of wrapped) lines.push(`${indent}  ${line}`);
      continue;
    }
    lines.push(`${indent}${label}  ${wrapped[0] ?? ''}`.trimEnd());
    for (const line of wrapped.slice(1)) lines.push(' '.repeat(hang) + line);
  }
  return lines;
}

/** A list of terms under its title: a table when its text reads whole enough, blocks otherwise. */
function termList(list: TermList, drawing: Drawing): string {
  const name = safeText(list.title);
  if (list.rows.length === 0) return drawing.paint('bold', `${name} (none)`);
  const title = drawing.paint('bold', `${name} (${list.rows.length})`);
  const { cells, width } = drawing;
  let indexes = list.columns.map((_, i) => i);
  const currencies = list.columns.map((c) => currenciesOf(c, list.rows));
  const drawn = list.rows.map((row) =>
    list.columns.map((c, i) => {
      const cell = drawCell(c.format, c.value(row), c.currency?.(row));
      // Several currencies in a column: each amount says its own.
      return cell !== '' && (currencies[i]?.length ?? 0) > 1 ? `${cell} ${personText(c.currency?.(row))}` : cell;
    }),
  );
  indexes = indexes.filter((i) => drawn.some((row) => row[i] !== ''));
  const columns = indexes.map((i) => {
    const column = list.columns[i] as Column<Record_>;
    const sole = currencies[i]?.length === 1 ? ` ${currencies[i]?.[0]}` : '';
    return layoutOf(column as Column<never>, i, safeText(`${(column.label ?? column.header).toUpperCase()}${sole}`));
  });
  const rows = drawn.map((row) => indexes.map((i) => row[i] ?? ''));
  const plan = planTable(cells, { columns, rows, width, prefix: INDENT });
  // A table only when every term reads on one line, whole: a cut or wrapped term reads better as a block.
  const whole = plan.shown.every(
    (i) => (plan.widths[i] ?? 0) >= Math.max(...rows.map((row) => cells.width(row[i] ?? ''))),
  );
  if (!plan.cramped && whole && plan.dropped.length === 0 && plan.below.length === 0) {
    const table = layoutTable(
      cells,
      { columns, rows, width, prefix: INDENT, bold: (t) => drawing.paint('dim', t) },
      plan,
    );
    return [`${title}\n${table.trimEnd()}`, ...citedUnder(list, rows, drawing)].join('\n');
  }
  return `${title}\n${termBlocks(list, indexes, drawing).join('\n\n')}`;
}

/** A table's citations under it, each by the name of its row: `Streaming  p. 3 §5.1 "…" (rate)`. */
function citedUnder(list: TermList, drawn: string[][], drawing: Drawing): string[] {
  const fields = list.rows.flatMap((row, i) =>
    (list.notes?.(row) ?? []).map((note): Field => ({ label: drawn[i]?.[0] ?? '', value: note })),
  );
  if (fields.length === 0) return [];
  const labelWidth = Math.max(0, ...fields.map((f) => drawing.cells.width(f.label)));
  return [`${INDENT}${drawing.paint('dim', 'Cited')}`, ...fieldLines(fields, labelWidth, `${INDENT}  `, drawing)];
}

/**
 * One block per row: its first column as a heading, a rate or an amount beside it (`sync · 50 %`),
 * the other columns as `label  value` lines under it.
 */
function termBlocks(list: TermList, indexes: number[], drawing: Drawing): string[] {
  const [head, ...others] = indexes.map((i) => list.columns[i] as Column<Record_>);
  const beside = others.filter((c) => c.format === 'percent' || c.format === 'money');
  const rest = others.filter((c) => !beside.includes(c));
  const labelOf = (c: Column<Record_>) => sentence(safeText(c.label ?? c.header));
  const fieldOf = (c: Column<Record_>, row: Record_): Field => ({
    label: labelOf(c),
    value: c.value(row),
    ...(c.format ? { format: c.format } : {}),
    currency: c.currency?.(row),
  });
  return list.rows.map((row) => {
    const heading = [head ? fieldText(fieldOf(head, row)) : '', ...beside.map((c) => fieldText(fieldOf(c, row)))]
      .filter((text) => text !== '')
      .join(' · ');
    const headLines = wrapWords(drawing.cells, heading, drawing.width - INDENT.length);
    const fields = [
      ...rest.map((c) => fieldOf(c, row)),
      ...(list.notes?.(row) ?? []).map((note): Field => ({ label: 'Cited', value: note })),
    ];
    const labelWidth = Math.max(0, ...fields.map((f) => drawing.cells.width(f.label)));
    return [
      ...headLines.map((line) => INDENT + drawing.paint('bold', line)),
      ...fieldLines(fields, labelWidth, `${INDENT}  `, drawing),
    ].join('\n');
  });
}

/** A column's header as a block's label: `applies to` → `Applies to` (`ISRC` stays). */
const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

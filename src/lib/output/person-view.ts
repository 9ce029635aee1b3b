// A record as a person reads it on a terminal, from a view the resource declares: sections of
// `label  value` lines (long values wrapped at the terminal's width with a hanging indent), then
// its lists of terms as tables, or, when a table would cut their text below a readable width, as
// one short block per row (as `kubectl describe` does). Nothing here is ever wider than the width.
import type { Cells } from './cells.js';
import { personText } from './cell-text.js';
import { planTable, READABLE_CELLS, wrapCells } from './table-layout.js';
import { layoutTable } from './table-layout.js';
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
    const labelWidth = Math.max(0, ...section.fields.map((f) => drawing.cells.width(f.label)));
    const title = section.title ? `${drawing.paint('bold', section.title)}\n` : '';
    const lines = (section.lines ?? []).flatMap((line) =>
      wrapCells(drawing.cells, personText(line), drawing.width - INDENT.length).map((part) => INDENT + part),
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

/** `label  value` lines, the value wrapped under itself (a hanging indent), never past the width. */
function fieldLines(fields: Field[], labelWidth: number, indent: string, drawing: Drawing): string[] {
  const { cells, width, paint } = drawing;
  const lines: string[] = [];
  for (const field of fields) {
    const text = fieldText(field);
    if (text === '') continue;
    const hang = indent.length + labelWidth + 2;
    // On a very narrow terminal the value goes under its label rather than into a sliver.
    const under = width - hang < READABLE_CELLS;
    const room = under ? Math.max(1, width - indent.length - 2) : width - hang;
    const wrapped = wrapCells(cells, text, room);
    const label = paint('dim', field.label + ' '.repeat(Math.max(0, labelWidth - cells.width(field.label))));
    if (under) {
      lines.push((indent + paint('dim', field.label)).trimEnd());
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
  const title = drawing.paint('bold', `${list.title} (${list.rows.length})`);
  if (list.rows.length === 0) return title;
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
    return layoutOf(column as Column<never>, i, `${(column.label ?? column.header).toUpperCase()}${sole}`);
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
    return `${title}\n${table.trimEnd()}`;
  }
  return `${title}\n${termBlocks(list, indexes, drawing).join('\n\n')}`;
}

/**
 * One block per row: its first column as a heading, a rate or an amount beside it (`sync · 50 %`),
 * the other columns as `label  value` lines under it.
 */
function termBlocks(list: TermList, indexes: number[], drawing: Drawing): string[] {
  const [head, ...others] = indexes.map((i) => list.columns[i] as Column<Record_>);
  const beside = others.filter((c) => c.format === 'percent' || c.format === 'money');
  const rest = others.filter((c) => !beside.includes(c));
  const labelWidth = Math.max(0, ...rest.map((c) => drawing.cells.width(c.label ?? c.header)));
  const fieldOf = (c: Column<Record_>, row: Record_): Field => ({
    label: c.label ?? c.header,
    value: c.value(row),
    ...(c.format ? { format: c.format } : {}),
    currency: c.currency?.(row),
  });
  return list.rows.map((row) => {
    const heading = [head ? fieldText(fieldOf(head, row)) : '', ...beside.map((c) => fieldText(fieldOf(c, row)))]
      .filter((text) => text !== '')
      .join(' · ');
    const headLines = wrapCells(drawing.cells, heading, drawing.width - INDENT.length);
    return [
      ...headLines.map((line) => INDENT + drawing.paint('bold', line)),
      ...fieldLines(
        rest.map((c) => fieldOf(c, row)),
        labelWidth,
        `${INDENT}  `,
        drawing,
      ),
    ].join('\n');
  });
}

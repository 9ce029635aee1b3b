// One record as a person reads it: aligned `field  value` lines, then each list of records in it as
// a table under its name; piped, `field<TAB>value` lines. The data formats never come here.
import { isRecordArray, looksLikeTimestamp, readableDate, textCell } from './cell-text.js';
import type { ColumnFit } from './table-layout.js';
import { safeText } from './text.js';
import { jsonText } from './deep-json.js';

export interface RecordDrawing {
  mode: 'table' | 'tsv';
  paint: (style: 'bold' | 'dim', text: string) => string;
  table: (headers: string[], rows: string[][], prefix: string, fits: ColumnFit[]) => Promise<string>;
}

export async function renderRecord(record: Record<string, unknown>, drawing: RecordDrawing): Promise<string> {
  const scalars = Object.entries(record).filter(([, value]) => !isRecordArray(value));
  const nested = Object.entries(record).filter(([, value]) => isRecordArray(value)) as [
    string,
    Record<string, unknown>[],
  ][];
  let text = '';
  if (drawing.mode === 'tsv') {
    for (const [key, value] of scalars) text += `${safeText(key)}\t${textCell(value)}\n`;
    for (const [key, value] of nested) text += `${safeText(key)}\t${safeText(jsonText(value))}\n`;
    return text;
  }
  const width = Math.max(...scalars.map(([key]) => safeText(key).length), 0);
  for (const [key, value] of scalars) {
    const shown = looksLikeTimestamp(value) ? readableDate(value) : textCell(value);
    text += `${drawing.paint('dim', safeText(key).padEnd(width))}  ${shown}\n`;
  }
  for (const [key, items] of nested) {
    text += `\n${drawing.paint('bold', `${safeText(key)} (${items.length})`)}\n`;
    if (items.length === 0) continue;
    text += await nestedTable(items, drawing);
  }
  return text;
}

/** A record's list of records as a table, indented under its name. */
function nestedTable(items: Record<string, unknown>[], drawing: RecordDrawing): Promise<string> {
  const headers = [...new Set(items.flatMap((item) => Object.keys(item)))];
  const rows = items.map((item) =>
    headers.map((h) => (looksLikeTimestamp(item[h]) ? readableDate(item[h]) : textCell(item[h]))),
  );
  const fits = headers.map(
    (h): ColumnFit =>
      h === 'id' || h.endsWith('_id') ? 'copy' : items.some((item) => looksLikeTimestamp(item[h])) ? 'whole' : 'text',
  );
  return drawing.table(
    headers.map((h) => safeText(h.toUpperCase())),
    rows,
    '  ',
    fits,
  );
}

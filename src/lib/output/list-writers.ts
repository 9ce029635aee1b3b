// The list forms that stream, page by page: JSON (one array), ndjson, CSV, TSV and ids. Each page is
// one write: a write per record was a system call per record on a pipe or file (measured: a sixth
// of an `--all -q` of 100,000 records). The table, which waits for every row, is output.ts's;
// streamPages picks the writer a mode streams with.
import type { ListPage } from '../api/catalog.js';
import { recordKeys, textCell } from './cell-text.js';
import { checkFields, fieldValue, pickFields } from './fields.js';
import { type CsvOptions, csvCell, csvRow, spreadKeys, spreadRecord, spreadValue, UTF8_BOM } from './formats.js';
import { isPlainObject } from '../shape.js';
import { safeText, singular } from './text.js';
import type { Column, ListView } from './view.js';
import { jsonText } from './deep-json.js';

type Out = { write(text: string | Uint8Array): unknown };

export async function ndjsonPages<T extends object>(out: Out, pages: AsyncIterable<ListPage<T>>): Promise<void> {
  for await (const page of pages) {
    if (page.items.length > 0) out.write(`${page.items.map((item) => jsonText(item)).join('\n')}\n`);
  }
}

export async function idPages<T extends object>(
  out: Out,
  pages: AsyncIterable<ListPage<T>>,
  id: (record: T) => string,
): Promise<void> {
  for await (const page of pages) {
    if (page.items.length > 0) out.write(page.items.map((item) => `${safeText(id(item))}\n`).join(''));
  }
}

/** TSV: the header waits for the first page, so a request that fails leaves stdout empty. */
export async function tsvPages<T extends object>(
  out: Out,
  pages: AsyncIterable<ListPage<T>>,
  columns: readonly Column<T>[],
): Promise<void> {
  let header = false;
  columns = columns.filter((c) => !c.terminalOnly);
  for await (const page of pages) {
    // A header can be the service's text (a record's own keys, --jq's output): escaped like the cells.
    const head = header ? '' : `${columns.map((c) => safeText(c.header.toUpperCase())).join('\t')}\n`;
    header = true;
    out.write(head + page.items.map((item) => `${columns.map((c) => textCell(c.value(item))).join('\t')}\n`).join(''));
  }
}

/**
 * Records as CSV: a header row of their columns, then one row each. A nested value is spread
 * (spreadRecord): `keys` naming `financials` gives its dotted columns.
 */
export function csvText(
  records: readonly Record<string, unknown>[],
  keys: readonly string[],
  options: CsvOptions & { bom: boolean },
): string {
  const spread = records.map(spreadRecord);
  const columns = spreadKeys(keys, spread);
  let text = options.bom ? UTF8_BOM : '';
  if (columns.length > 0) text += csvRow(columns, options);
  return text + csvRows(spread, columns, options);
}

/**
 * The records' rows as one text, cell by cell: an array of each record's values, then of its cells,
 * then of its rows, was most of what a CSV list allocated (its heap grew with the list).
 */
function csvRows(spread: readonly Record<string, unknown>[], columns: readonly string[], options: CsvOptions): string {
  let text = '';
  for (const record of spread) {
    for (let i = 0; i < columns.length; i++) {
      if (i > 0) text += ',';
      text += csvCell(spreadValue(record, columns[i] as string), options);
    }
    text += '\r\n';
  }
  return text;
}

/**
 * CSV: one column per field the records document (`documented`, in its order), then any other
 * field the first page holds, or the --fields asked for; a nested object is spread into the dotted
 * columns the first page shows of it. A field that first appears in a later page of a documented
 * resource is still a column. The header waits for the first page, so a request that fails leaves
 * stdout empty; a list with no records is the header alone.
 */
export async function csvPages<T extends object>(
  out: Out,
  pages: AsyncIterable<ListPage<T>>,
  options: CsvOptions & { bom: boolean; fields: readonly string[] | undefined; documented: readonly string[] },
): Promise<void> {
  let columns: readonly string[] | undefined;
  for await (const page of pages) {
    if (page.items.length === 0) continue;
    const spread = page.items.map(spreadRecord);
    if (!columns) {
      const keys = options.fields ?? [...new Set([...options.documented, ...recordKeys(spread)])];
      columns = spreadKeys(keys, spread);
      out.write((options.bom ? UTF8_BOM : '') + csvRow(columns, options));
    }
    out.write(csvRows(spread, columns, options));
  }
  const header = options.fields ?? options.documented;
  if (!columns && header.length > 0) out.write(csvText([], [...header], options));
}

/** TSV of --fields: the fields' columns, spread as CSV spreads them, headed by their names. */
export async function fieldTsvPages<T extends object>(
  out: Out,
  pages: AsyncIterable<ListPage<T>>,
  fields: readonly string[],
): Promise<void> {
  let columns: readonly string[] | undefined;
  for await (const page of pages) {
    const spread = page.items.map(spreadRecord);
    let text = '';
    if (!columns) {
      columns = spreadKeys(fields, spread);
      text = `${columns.map((column) => column.toUpperCase()).join('\t')}\n`;
    }
    const shown = columns;
    for (const record of spread) text += `${shown.map((column) => textCell(spreadValue(record, column))).join('\t')}\n`;
    out.write(text);
  }
}

/**
 * One JSON array, a page at a time: `JSON.stringify(items, null, 2)` indents the records as the
 * elements of the array they are, so its inside (without the brackets) is the page's part of the
 * whole array. Per record, the writes and the re-indenting made most of the garbage of an `--all`
 * (measured: ~1.2 KB per record), enough to grow V8's heap with the record count. The bytes go
 * out as a view of one buffer: slicing the string and joining it to the separator would copy it
 * twice more.
 */
export async function jsonPages<T extends object>(out: Out, pages: AsyncIterable<ListPage<T>>): Promise<void> {
  let count = 0;
  for await (const page of pages) {
    if (page.items.length === 0) continue;
    const array = Buffer.from(jsonText(page.items, 2));
    out.write(count === 0 ? '[\n' : ',\n');
    out.write(array.subarray(2, array.length - 2));
    count += page.items.length;
  }
  out.write(count === 0 ? '[]\n' : '\n]\n');
}

/**
 * The pages with only `fields`, checked first against the documented fields and those the first
 * page's records hold (exit 2 before any output, no later page asked for).
 */
export async function* pickFromPages<T extends object>(
  pages: AsyncIterable<ListPage<T>>,
  fields: readonly string[],
  documented: readonly string[],
  noun: string,
): AsyncGenerator<ListPage<Record<string, unknown>>> {
  let first = true;
  for await (const page of pages) {
    if (first) checkFields(fields, documented, noun, recordKeys(page.items));
    first = false;
    yield { ...page, items: page.items.map((item) => pickFields(item, fields)) };
  }
}

/**
 * A list cut to --fields: the records with only those fields (checked against the first page), in
 * the fields' columns. Its ids are drawn only in ids mode, which --fields leaves alone.
 */
export function pickedList<T extends object>(
  pages: AsyncIterable<ListPage<T>>,
  view: ListView<T>,
  fields: readonly string[],
): [AsyncIterable<ListPage<Record<string, unknown>>>, ListView<Record<string, unknown>>] {
  const picked = pickFromPages(pages, fields, view.fields ?? [], view.noun);
  return [picked, { ...view, columns: fieldColumns(fields), id: (record) => textCell(record.id) }];
}

/** `--fields`' columns: one per field, headed by its name; `…_at` fields are dates. */
export function fieldColumns(fields: readonly string[]): Column<Record<string, unknown>>[] {
  return fields.map((name) => ({
    header: name,
    value: (record) => fieldValue(record, name),
    ...(name.endsWith('_at') ? { date: true } : {}),
  }));
}

/** Where a page of a list lies in the whole list: what JSON leaves out (an agent's tool says it). */
export interface PageSeen {
  page: number;
  perPage: number;
  /** Known when the service said it. */
  total?: number;
  count: number;
}

/** The pages as they pass, each told to `seen` first. */
export async function* observedPages<T>(
  pages: AsyncIterable<ListPage<T>>,
  seen: (page: PageSeen) => void,
): AsyncGenerator<ListPage<T>> {
  for await (const page of pages) {
    const { page: number, perPage, total, items } = page;
    seen({ page: number, perPage, count: items.length, ...(total === undefined ? {} : { total }) });
    yield page;
  }
}

/** The line under a table: how many, or which page of how many. */
export function footer(last: ListPage<unknown>, count: number, view: ListView<never>): string {
  const counted = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? singular(view.noun) : view.noun}`;
  if (view.all) return counted(count);
  if (last.total !== undefined) {
    const pages = Math.max(1, Math.ceil(last.total / last.perPage));
    // One page of one says nothing a count does not.
    if (pages === 1 && last.page === 1) return counted(last.total);
    return `page ${last.page} of ${pages} (${last.total.toLocaleString('en-US')} total)`;
  }
  return count >= last.perPage ? `page ${last.page} (more with --page ${last.page + 1} or --all)` : `page ${last.page}`;
}

/** jq's results as one value: a single result as itself, several as a list. */
export function oneValue(results: unknown[]): unknown {
  return results.length === 1 ? results[0] : results;
}

/** What CSV makes rows of: an array's records, one record, or anything else as a one-column `value`. */
export function asRows(value: unknown): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => (isPlainObject(item) ? item : { value: item }));
}

/** The list modes that stream (the table waits for every row, and YAML for the whole list). */
export type StreamMode = 'json' | 'ndjson' | 'csv' | 'tsv' | 'ids';

/** The pages in a streaming mode, as they come; `fields` is --fields (none in ids mode). */
export async function streamPages<T extends object>(
  out: Out,
  pages: AsyncIterable<ListPage<T>>,
  mode: StreamMode,
  view: ListView<T>,
  options: { csv: CsvOptions & { bom: boolean }; fields: readonly string[] | undefined },
): Promise<void> {
  const { fields } = options;
  if (mode === 'ndjson') await ndjsonPages(out, pages);
  else if (mode === 'csv') await csvPages(out, pages, { ...options.csv, fields, documented: view.fields ?? [] });
  else if (mode === 'json') await jsonPages(out, pages);
  else if (mode === 'ids') await idPages(out, pages, view.id);
  else if (fields) await fieldTsvPages(out, pages, fields);
  else await tsvPages(out, pages, view.columns);
}

// A list as a person sees it on a terminal: every page collected (a table is fitted to all of its
// rows), each value drawn as its column says, the columns no row fills left out.
import type { ListPage } from './api/catalog.js';
import { readableDate, textCell } from './cell-text.js';
import type { ColumnFit } from './table-layout.js';
import type { ListView } from './view.js';

export interface CollectedTable {
  headers: string[];
  rows: string[][];
  fits: ColumnFit[];
  /** The last page (for the footer), undefined when none came. */
  last: ListPage<unknown> | undefined;
  count: number;
}

export async function collectTable<T extends object>(
  pages: AsyncIterable<ListPage<T>>,
  view: ListView<T>,
): Promise<CollectedTable> {
  let rows: string[][] = [];
  let last: ListPage<T> | undefined;
  let count = 0;
  for await (const page of pages) {
    last = page;
    count += page.items.length;
    for (const item of page.items) {
      rows.push(view.columns.map((c) => (c.date ? readableDate(c.value(item)) : textCell(c.value(item)))));
    }
  }
  let { columns } = view;
  const shown = columns.map((c, i) => !c.optional || rows.some((row) => row[i] !== ''));
  if (shown.includes(false)) {
    columns = columns.filter((_, i) => shown[i]);
    rows = rows.map((row) => row.filter((_, i) => shown[i]));
  }
  // The first column is the id: a cut id is useless, a cut name still reads.
  const fits = columns.map(
    (c, i): ColumnFit => c.fit ?? (i === 0 || c.header === 'id' ? 'copy' : c.date ? 'whole' : 'text'),
  );
  return { headers: columns.map((c) => c.header.toUpperCase()), rows, fits, last, count };
}

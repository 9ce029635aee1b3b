// A list as a person sees it on a terminal: every page collected (a table is fitted to all of its
// rows), each value drawn as its column's format says, the columns no row fills left out, and a
// money column's currency in its header when every row has the same one.
import type { ListPage } from '../api/catalog.js';
import { textCell } from './cell-text.js';
import type { LayoutColumn } from './table-layout.js';
import { safeText } from './text.js';
import { type Column, drawCell, formatOf, type ListView, layoutOf } from './view.js';

export interface CollectedTable {
  columns: LayoutColumn[];
  rows: string[][];
  /** The last page (for the footer), undefined when none came. */
  last: ListPage<unknown> | undefined;
  count: number;
}

export async function collectTable<T extends object>(
  pages: AsyncIterable<ListPage<T>>,
  view: ListView<T>,
): Promise<CollectedTable> {
  const formats = view.columns.map((c, i) => formatOf(c as Column<never>, i));
  const currencies = view.columns.map(() => new Set<string>());
  let rows: string[][] = [];
  /** Each row's currency of each money column. */
  const rowCurrencies: string[][] = [];
  let last: ListPage<T> | undefined;
  let count = 0;
  for await (const page of pages) {
    last = page;
    count += page.items.length;
    for (const item of page.items) {
      const named = view.columns.map((c) => (c.currency ? textCell(c.currency(item)) : ''));
      rowCurrencies.push(named);
      rows.push(
        view.columns.map((c, i) => {
          const value = c.value(item);
          if (c.currency && value !== undefined && value !== null) currencies[i]?.add(named[i] ?? '');
          return drawCell(formats[i], c.shown ? c.shown(item) : value, c.currency?.(item));
        }),
      );
    }
  }
  let indexes = view.columns.map((_, i) => i);
  indexes = indexes.filter((i) => !view.columns[i]?.optional || rows.some((row) => row[i] !== ''));
  const columns = indexes.map((i) => {
    const column = view.columns[i] as Column<T>;
    let header = (column.label ?? column.header).toUpperCase();
    const named = [...(currencies[i] ?? [])];
    // One currency for the column: the header says it. Several: each amount says its own.
    if (column.currency && named.length === 1 && named[0] !== '') header += ` ${named[0]}`;
    else if (column.currency && named.length > 1)
      rows.forEach((row, r) => {
        const currency = rowCurrencies[r]?.[i];
        if (row[i] && currency) row[i] = `${row[i]} ${currency}`;
      });
    // A header can be the service's text (a record's own keys): escaped like any cell.
    return layoutOf(column as Column<never>, i, safeText(header));
  });
  rows = rows.map((row) => indexes.map((i) => row[i] ?? ''));
  return { columns, rows, last, count };
}

// `statements lines … --format table`: the lines as a list is drawn, fitted to the terminal's width:
// a numeric column right-aligned, money in its currency's decimals and grouped, counts grouped; the
// text columns (a title) cut at their end before a number is ever touched.
import type { Context } from '../../lib/context.js';
import { formatAmount, formatCount } from '../../lib/money/display.js';
import { KEEP, type LayoutColumn } from '../../lib/output/table-layout.js';
import { SHOWN_AS_MONEY } from './columns.js';
import { headerOf } from './view.js';

const NUMBER = /^-?\d+(\.\d+)?$/;

export async function linesTable(ctx: Context, records: Record<string, string>[]): Promise<string> {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const numeric = new Set(keys.filter((k) => records.every((r) => (r[k] ?? '') === '' || NUMBER.test(r[k] ?? ''))));
  // The first column (the line's number, or the statement's id) stays; then the money and its currency.
  const columns: LayoutColumn[] = keys.map((key, i): LayoutColumn => {
    const header = headerOf(key);
    if (i === 0) return { header, overflow: 'never', priority: KEEP, ...(numeric.has(key) ? { align: 'right' } : {}) };
    if (key === 'currency') return { header, overflow: 'never', priority: 75 };
    if (numeric.has(key))
      return { header, align: 'right', overflow: 'never', priority: SHOWN_AS_MONEY.test(key) ? 80 : 50 };
    return { header, overflow: 'cut-end', priority: 60 };
  });
  const rows = records.map((r) =>
    keys.map((key) => {
      const value = r[key] ?? '';
      if (!numeric.has(key) || value === '') return value;
      return SHOWN_AS_MONEY.test(key) ? formatAmount(value, r.currency) : formatCount(value);
    }),
  );
  return ctx.output.tableOf(columns, rows);
}

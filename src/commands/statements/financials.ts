// The financials of processed statements, grouped and added exactly (always by currency too): what
// `pds statements totals` prints, and what a report or an MCP tool groups. Pure: statements in,
// records and what had to be left out (each named) out.
import { UsageError } from '../../lib/errors.js';
import { readField } from '../../lib/money/amount.js';
import { keyedByText } from '../../lib/shape.js';
import {
  addAmount,
  Groups,
  notePeriod,
  ordered,
  recordOf,
  topOf,
  type GroupRecord,
  type GroupShape,
} from './groups.js';
import { Incomplete } from './incomplete.js';
import { currencyOfStatement, payorOf, periodOfStatement, type Processed } from './select.js';
import { CALENDAR_FIELDS } from './report.js';

/** What --by takes, and where each is read in a statement (a map: `__proto__` is no field). */
export const TOTALS_FIELDS: Record<string, (s: Processed) => string | null | undefined> = keyedByText({
  period: periodOfStatement,
  payor: payorOf,
  currency: currencyOfStatement,
  type: (s: Processed) => s.statement_type,
  category: (s: Processed) => s.statement_category,
  stage: (s: Processed) => s.extraction_stage ?? s.processing_status,
  ...CALENDAR_FIELDS,
});

/** The financials that are amounts: what totals add, what --sort ranks by. */
export const AMOUNTS = ['licensor_revenue', 'licensee_revenue'] as const;

/** The --by names, checked: known, lower case, each once; currency is always a key of its own. */
export function byFields(by: string[] | undefined, known: readonly string[]): string[] {
  const names = [...new Set((by ?? []).map((name) => name.trim().toLowerCase()))];
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined)
    throw new UsageError(`invalid --by '${unknown}': expected any of ${known.join(', ')}, comma-separated`);
  return names.filter((name) => name !== 'currency');
}

/** The totals, and what they had to leave out (each named). */
export interface Totals {
  records: GroupRecord[];
  incomplete: Incomplete;
}

/**
 * The groups of the selected statements' financials, in order, cut to the `top` largest per
 * currency by `sort` (licensor revenue by default). An amount that cannot be read is left out of
 * its group's sum and named in `incomplete`, never added as a zero.
 */
export function totalsOf(
  statements: readonly Processed[],
  by: string[],
  top: number | undefined,
  sort: (typeof AMOUNTS)[number] = 'licensor_revenue',
): Totals {
  const groups = new Groups();
  const incomplete = new Incomplete();
  for (const s of statements) {
    const currency = currencyOfStatement(s);
    const group = groups.of(
      by.map((name) => String(TOTALS_FIELDS[name]?.(s) ?? '')),
      currency,
    );
    group.statements.add(s.id);
    for (const column of AMOUNTS) {
      const amount = readField(s.financials, column);
      if (amount.kind === 'amount') addAmount(group, column, amount.decimal);
      else if (amount.kind === 'unreadable') incomplete.unreadable({ statement: s.id, column }, amount.shown);
    }
    notePeriod(group, periodOfStatement(s));
  }
  const shape: GroupShape = { by, columns: [...AMOUNTS], countsLines: false, periods: true, money: AMOUNTS };
  const records = topOf(ordered(groups.all(), shape, sort), top, sort).map((g) => recordOf(g, shape));
  return { records, incomplete };
}

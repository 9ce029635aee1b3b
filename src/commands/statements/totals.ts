// `pds statements totals [--by FIELD,…]`: the `financials` of every processed statement of the
// project, added exactly and grouped (always by currency too); statements not processed yet are
// counted apart and said, never added as zero.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { readAmount } from '../../lib/money/amount.js';
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
import {
  currencyOfStatement,
  NO_CURRENCY,
  payorOf,
  periodOfStatement,
  selectStatements,
  pendingReason,
  sayPending,
  type Processed,
} from './select.js';
import { drawView } from './view.js';
import type { TotalsOptions } from './definitions.js';
import { isFileFormat } from '../../lib/output/table-file.js';
import { CALENDAR_FIELDS, needsReport, overlapNote } from './report.js';

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
      const amount = readAmount(s.financials[column]);
      if (amount.kind === 'amount') addAmount(group, column, amount.decimal);
      else if (amount.kind === 'unreadable') incomplete.unreadable({ statement: s.id, column }, s.financials[column]);
    }
    notePeriod(group, periodOfStatement(s));
  }
  const shape: GroupShape = { by, columns: [...AMOUNTS], countsLines: false, periods: true, money: AMOUNTS };
  const records = topOf(ordered(groups.all(), shape, sort), top, sort).map((g) => recordOf(g, shape));
  return { records, incomplete };
}

/** Statements whose currency is empty or not a code: said by id, their money grouped under no currency. */
export function sayNoCurrency(ctx: Context, statements: readonly Processed[]): void {
  const without = statements.filter((s) => currencyOfStatement(s) === NO_CURRENCY);
  if (without.length === 0) return;
  const ids = without.slice(0, 10).map((s) => s.id);
  ctx.output.warn(
    `${without.length} statement${without.length === 1 ? ' has' : 's have'} no currency (empty or not an ISO 4217 code): ${ids.join(', ')}${without.length > 10 ? ', …' : ''}; their money is a group of its own`,
  );
}

export async function run(opts: TotalsOptions, ctx: Context): Promise<number> {
  if (ctx.output.mode === 'ids') throw new UsageError('totals are groups of money, with no ids to print: drop -q');
  const by = byFields(opts.by, Object.keys(TOTALS_FIELDS));
  const sort = sortColumn(opts.sort);
  // Calendar buckets, comparisons, pivots and conversions: report-run.ts.
  if (needsReport(opts, by) || isFileFormat(ctx.settings.format) || opts.output !== undefined)
    return (await import('./report-run.js')).runTotalsReport(opts, ctx, by);
  const progress = await ctx.output.spinner('listing statements');
  let selection: Awaited<ReturnType<typeof selectStatements>>;
  try {
    selection = await selectStatements(ctx, { ...opts, args: [] }, [], (count) =>
      progress.update(`listing statements · ${count.toLocaleString('en-US')} so far`),
    );
  } finally {
    progress.stop();
  }
  const { records, incomplete } = totalsOf(selection.processed, by, opts.top, sort);
  const overlap = overlapNote(selection, opts.period);
  if (overlap !== undefined) ctx.output.info(overlap);
  sayNoCurrency(ctx, selection.processed);
  await printTotals(ctx, records, { by, sort, top: opts.top });
  // Said once, under the table it qualifies.
  await sayPending(ctx, selection);
  // A statement the service processed but gave no financials for is money the totals cannot hold
  // (one still processing is not: it is said, and counted when it is done).
  const withoutFinancials = selection.pending.filter((s) => pendingReason(s).startsWith('processed'));
  for (const s of withoutFinancials) incomplete.add(`statement ${s.id}: processed, but no financials given`);
  incomplete.throwIfAny();
  return 0;
}

/** --sort: one of the amounts (licensor revenue by default). */
function sortColumn(given: string | undefined): (typeof AMOUNTS)[number] {
  if (given === undefined) return 'licensor_revenue';
  const name = given.trim().toLowerCase();
  const found = AMOUNTS.find((amount) => amount === name);
  if (found === undefined) throw new UsageError(`invalid --sort '${given}': expected ${AMOUNTS.join(' or ')}`);
  return found;
}

async function printTotals(
  ctx: Context,
  records: GroupRecord[],
  view: { by: string[]; sort: string; top: number | undefined },
): Promise<void> {
  const { by, sort, top } = view;
  if (await ctx.output.asData(records)) return;
  if (ctx.output.mode !== 'table') {
    await ctx.output.data(records);
    return;
  }
  if (records.length === 0) ctx.output.info('no processed statement matches');
  else
    ctx.output.write(
      await drawView(records, {
        // Every amount carries its currency: a column of it says something only when it is the key.
        keys: by.length > 0 ? by : ['currency'],
        counts: ['statements'],
        barColumn: sort,
        amounts: AMOUNTS.filter((amount) => amount !== sort),
        // Grouped by period, a group's first and last period are its own: said once is enough.
        tail: by.includes('period') ? [] : ['first_period', 'last_period'],
        columns: ctx.io.columns,
        ...(top === undefined ? {} : { totalLabel: `top ${top}` }),
      }),
    );
}

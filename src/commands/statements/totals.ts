// `pds statements totals [--by FIELD,…]`: the `financials` of every processed statement of the
// project, added exactly and grouped (always by currency too); statements not processed yet are
// counted apart and said, never added as zero.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { AMOUNTS, byFields, TOTALS_FIELDS, totalsOf } from './financials.js';
import type { GroupRecord } from './groups.js';
import {
  currencyOfStatement,
  NO_CURRENCY,
  selectStatements,
  pendingReason,
  sayPending,
  type Processed,
} from './select.js';
import { drawView } from './view.js';
import type { TotalsOptions } from './definitions.js';
import { isFileFormat } from '../../lib/output/table-file.js';
import { needsReport, overlapNote } from './report.js';

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

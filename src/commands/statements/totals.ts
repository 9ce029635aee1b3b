// `pds statements totals [--by FIELD,…]`: the `financials` of every processed statement of the
// project, added exactly and grouped (always by currency too); statements not processed yet are
// counted apart and said, never added as zero.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { addCell, Groups, notePeriod, ordered, recordOf, topOf, type GroupRecord, type GroupShape } from './groups.js';
import { payorOf, periodOfStatement, selectStatements, sayPending, type Processed } from './select.js';
import { drawView } from './view.js';
import type { TotalsOptions } from './definitions.js';
import { CALENDAR_FIELDS, needsReport, overlapNote } from './report.js';

/** What --by takes, and where each is read in a statement. */
export const TOTALS_FIELDS: Record<string, (s: Processed) => string | null | undefined> = {
  period: periodOfStatement,
  payor: payorOf,
  currency: (s) => s.financials.currency,
  type: (s) => s.statement_type,
  category: (s) => s.statement_category,
  stage: (s) => s.extraction_stage ?? s.processing_status,
  ...CALENDAR_FIELDS,
};

const AMOUNTS = ['licensor_revenue', 'licensee_revenue'] as const;

/** The --by names, checked: known, lower case, each once; currency is always a key of its own. */
export function byFields(by: string[] | undefined, known: readonly string[]): string[] {
  const names = [...new Set((by ?? []).map((name) => name.trim().toLowerCase()))];
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined)
    throw new UsageError(`invalid --by '${unknown}': expected any of ${known.join(', ')}, comma-separated`);
  return names.filter((name) => name !== 'currency');
}

/** The groups of the selected statements' financials, in order, cut to `top` per currency. */
export function totalsOf(statements: readonly Processed[], by: string[], top: number | undefined): GroupRecord[] {
  const groups = new Groups();
  for (const s of statements) {
    const group = groups.of(
      by.map((name) => String(TOTALS_FIELDS[name]?.(s) ?? '')),
      s.financials.currency,
    );
    group.statements.add(s.id);
    for (const column of AMOUNTS) {
      const value = s.financials[column];
      if (value !== null && value !== undefined) addCell(group, column, String(value));
    }
    notePeriod(group, periodOfStatement(s));
  }
  const shape: GroupShape = { by, columns: [...AMOUNTS], countsLines: false, periods: true };
  return topOf(ordered(groups.all(), shape, 'licensor_revenue'), top).map((g) => recordOf(g, shape));
}

export async function run(opts: TotalsOptions, ctx: Context): Promise<number> {
  const by = byFields(opts.by, Object.keys(TOTALS_FIELDS));
  // Calendar buckets, comparisons, pivots and conversions: report-run.ts.
  if (needsReport(opts, by)) return (await import('./report-run.js')).runTotalsReport(opts, ctx, by);
  const progress = await ctx.output.spinner('listing statements');
  let selection: Awaited<ReturnType<typeof selectStatements>>;
  try {
    selection = await selectStatements(ctx, { ...opts, args: [] }, [], (count) =>
      progress.update(`listing statements · ${count.toLocaleString('en-US')} so far`),
    );
  } finally {
    progress.stop();
  }
  const records = totalsOf(selection.processed, by, opts.top);
  const overlap = overlapNote(selection, opts.period);
  if (overlap !== undefined) ctx.output.info(overlap);
  if (await ctx.output.asData(records)) {
    await sayPending(ctx, selection);
    return 0;
  }
  if (ctx.output.mode !== 'table') {
    await sayPending(ctx, selection);
    await ctx.output.data(records);
    return 0;
  }
  if (records.length === 0) ctx.output.info('no processed statement matches');
  else
    ctx.output.write(
      await drawView(records, {
        // Every amount carries its currency: a column of it says something only when it is the key.
        keys: by.length > 0 ? by : ['currency'],
        counts: ['statements'],
        barColumn: 'licensor_revenue',
        amounts: ['licensee_revenue'],
        // Grouped by period, a group's first and last period are its own: said once is enough.
        tail: by.includes('period') ? [] : ['first_period', 'last_period'],
        columns: ctx.io.columns,
        ...(opts.top === undefined ? {} : { totalLabel: `top ${opts.top}` }),
      }),
    );
  // Said once, under the table it qualifies.
  await sayPending(ctx, selection);
  return 0;
}

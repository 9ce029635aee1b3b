// `statements totals` and `statements lines --by` when they make a report (a calendar bucket,
// --compare, --columns, --rates/--to): the statements chosen, grouped by the verb's own roll-up,
// then handed to report.ts; printed as data, or as a table on a terminal.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import type { LinesOptions, TotalsOptions } from './definitions.js';
import type { GroupRecord, GroupShape } from './groups.js';
import { Incomplete } from './incomplete.js';
import { withProgress } from './progress.js';
import {
  buildReport,
  type Grouped,
  overlapNote,
  planReport,
  type Report,
  type ReportPlan,
  sidesOf,
  throwIfNotWhole,
} from './report.js';
import { drawComparison, drawPivot } from './report-view.js';
import { printRollup, rollUp } from './rollup.js';
import { MONEY_COLUMN } from './columns.js';
import { isFileFormat } from '../../lib/output/table-file.js';
import { type Processed, sayPending, type SelectInput, type Selection, selectStatements } from './select.js';
import { totalsOf } from './financials.js';
import { drawView } from './view.js';

/** The statements chosen: without --period when a comparison reads periods outside it. */
async function choose(ctx: Context, plan: ReportPlan, input: SelectInput, ids: string[]) {
  const progress = await ctx.output.spinner('listing statements');
  let pool: Selection;
  try {
    pool = await selectStatements(ctx, { ...input, period: plan.compare ? undefined : input.period }, ids, (count) =>
      progress.update(`listing statements · ${count.toLocaleString('en-US')} so far`),
    );
  } finally {
    progress.stop();
  }
  const sides = plan.compare ? sidesOf(pool, plan) : { current: pool, compared: [] };
  await sayPending(ctx, sides.current);
  const overlap = overlapNote(sides.current, input.period);
  if (overlap !== undefined) ctx.output.info(overlap);
  return sides;
}

/** The file a data file format goes to (-o), checked before any request; undefined for printed output. */
async function fileOf(ctx: Context, output: string | undefined, force: boolean | undefined) {
  const format = ctx.settings.format;
  if (!isFileFormat(format)) {
    if (output !== undefined)
      throw new UsageError('-o FILE is for --format xlsx or parquet; other formats print (> file)');
    return undefined;
  }
  const { outputFile } = await import('./lines-file.js');
  return { format, path: outputFile(format, output, force) };
}

export async function runTotalsReport(opts: TotalsOptions, ctx: Context, by: string[]): Promise<number> {
  const plan = await planReport(opts, by, opts.period);
  const file = await fileOf(ctx, opts.output, opts.force);
  const sides = await choose(ctx, plan, { ...opts, args: [] }, []);
  const unread = new Incomplete();
  const run = await buildReport(plan, sides, 'licensor_revenue', totalsGrouping(opts.top, unread));
  for (const note of run.notes) ctx.output.info(note);
  if (file) await (await import('./lines-file.js')).writeRecordsFile(ctx, run.report.records, file.format, file.path);
  else
    await printReport(ctx, run.report, plan, (records) =>
      drawView(records, {
        keys: plan.by.length > 0 ? plan.by : ['currency'],
        counts: ['statements'],
        barColumn: 'licensor_revenue',
        amounts: ['licensee_revenue'],
        tail: ['first_period', 'last_period'],
        columns: ctx.io.columns,
      }),
    );
  throwIfNotWhole(run.leftOut, unread);
  return 0;
}

/** How a report groups statements by their financials (what totals adds); problems go to `unread`. */
export const totalsGrouping =
  (top: number | undefined, unread: Incomplete) =>
  async (statements: Processed[], groupBy: string[]): Promise<Grouped> => {
    const totals = totalsOf(statements, groupBy, top);
    for (const problem of totals.incomplete.list()) unread.add(problem);
    return { records: totals.records, amounts: ['licensor_revenue', 'licensee_revenue'], counts: ['statements'] };
  };

/** A lines roll-up as a report groups it: its money columns converted by --to, its other numbers counted. */
export function linesGrouped(rolled: Awaited<ReturnType<typeof rollUp>>, unread: Incomplete): Grouped {
  for (const problem of rolled.incomplete.list()) unread.add(problem);
  return {
    records: rolled.records,
    amounts: rolled.shape.columns.filter((c) => MONEY_COLUMN.test(c)),
    counts: ['statements', 'lines', ...rolled.shape.columns.filter((c) => !MONEY_COLUMN.test(c))],
  };
}

export interface LinesReportInput {
  by: string[];
  ids: string[];
  maxBytes: number | undefined;
}

export async function runLinesReport(opts: LinesOptions, ctx: Context, input: LinesReportInput): Promise<number> {
  const plan = await planReport(opts, input.by, opts.period);
  const file = await fileOf(ctx, opts.output, opts.force);
  const sides = await choose(ctx, plan, { ...opts, args: input.ids }, input.ids);
  if (ctx.settings.dryRun) {
    const count = sides.current.processed.length + sides.compared.length;
    ctx.output.info(`would read the lines of ${count} statements; nothing was fetched (--dry-run)`);
    return 0;
  }
  let shape: GroupShape | undefined;
  const unread = new Incomplete();
  const sort = opts.sort?.trim().toLowerCase() ?? 'licensor_revenue';
  const group = async (statements: Parameters<typeof rollUp>[1], groupBy: string[]): Promise<Grouped> => {
    const rolled = await withProgress(ctx, (update) =>
      rollUp(ctx, statements, { by: groupBy, top: opts.top, sort: opts.sort, maxBytes: input.maxBytes }, update),
    );
    shape = rolled.shape;
    return linesGrouped(rolled, unread);
  };
  const run = await buildReport(plan, sides, sort, group);
  for (const note of run.notes) ctx.output.info(note);
  if (file) await (await import('./lines-file.js')).writeRecordsFile(ctx, run.report.records, file.format, file.path);
  else if (run.report.kind === 'groups') {
    const columns = shape?.columns ?? [];
    const shown: GroupShape = { by: plan.by, columns, countsLines: true, periods: false };
    await printRollup(ctx, run.report.records, shown, columns.includes(sort) ? sort : (columns[0] ?? sort));
  } else await printReport(ctx, run.report, plan, async () => '');
  throwIfNotWhole(run.leftOut, unread);
  return 0;
}

/** Data formats get the records; a terminal the comparison, the pivot or the groups' view. */
async function printReport(
  ctx: Context,
  report: Report,
  plan: ReportPlan,
  groupsView: (records: GroupRecord[]) => Promise<string>,
): Promise<void> {
  if (await ctx.output.asData(report.records)) return;
  if (ctx.output.mode !== 'table') {
    await ctx.output.data(report.records);
    return;
  }
  if (report.records.length === 0) {
    ctx.output.info('no processed statement matches');
    return;
  }
  await ctx.output.prepareColor();
  if (report.kind === 'groups') {
    ctx.output.write(await groupsView(report.records));
    return;
  }
  const { text, hidden } =
    report.kind === 'compare'
      ? await drawComparison(report.records, {
          keys: plan.by,
          amount: report.amount,
          ...(report.labels ? { labels: report.labels } : {}),
          paint: (style, text) => ctx.output.paint(style, text),
          width: ctx.io.columns,
        })
      : await drawPivot(report.records, {
          keys: report.keys,
          columns: report.columns,
          totalColumn: report.totalColumn,
          field: plan.columns ?? '',
          width: ctx.io.columns,
        });
  ctx.output.write(text);
  if (hidden.length > 0)
    ctx.output.info(
      `(${namesOf(hidden, report.kind === 'pivot')} not shown at ${ctx.io.columns} columns${report.kind === 'pivot' ? ', counted in TOTAL' : ''}; --json has them)`,
    );
}

/** Columns not shown: a pivot's are a run of periods (`2022H1–2023H2`); a comparison's are named. */
function namesOf(hidden: string[], run: boolean): string {
  if (hidden.length === 1) return hidden[0] ?? '';
  return run ? `${hidden[0]}–${hidden.at(-1)}` : hidden.join(', ');
}

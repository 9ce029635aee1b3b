// From totals to a report: the calendar buckets (--by year|half|quarter|month), --compare, the
// --columns pivot and a reporting currency (--rates/--to), on top of the groups `statements totals`
// and `statements lines --by` make. The flags are checked (and the rates read) before anything is
// asked of the service; statements a bucket cannot hold are named and left out (exit 8).
import { IncompleteAnswerError, UsageError } from '../../lib/errors.js';
import { compareRecords } from './compare.js';
import type { GroupRecord } from './groups.js';
import type { Incomplete } from './incomplete.js';
import {
  BUCKETS,
  type BucketName,
  bucketOf,
  cadenceName,
  type Cadence,
  labelOf,
  PERIOD_KEYS,
  parseRange,
  type PeriodRange,
  periodAt,
  periodSpan,
  previousRange,
  type Span,
  within,
} from './periods.js';
import { pivotRecords } from './pivot.js';
import { convertRecords, type RateTable, rateLabel, readRateTable } from './rates.js';
import { periodOfStatement, type Processed, type Selection, type Statement } from './select.js';

export interface ReportFlags {
  compare?: string | undefined;
  columns?: string | undefined;
  rates?: string | undefined;
  to?: string | undefined;
  top?: number | undefined;
}

export type ComparePlan =
  | { mode: 'ranges'; current: PeriodRange; compared: PeriodRange }
  | { mode: 'series'; field: string; fixed?: PeriodRange };

export interface ReportPlan {
  /** The --by fields as the records hold them (the pivoted field among them). */
  by: string[];
  /** What the groups are made by: `by`, and the statement's period when rates depend on it. */
  groupBy: string[];
  /** The field rates read a record's period from, when any. */
  periodField: string | undefined;
  compare?: ComparePlan;
  columns?: string;
  rates?: RateTable;
  /** The --period range, when given. */
  range?: PeriodRange;
}

/** The calendar buckets among the --by fields. */
const bucketsIn = (by: readonly string[]): BucketName[] => by.filter((name): name is BucketName => name in BUCKETS);

/** Whether the command takes the report's path: a calendar bucket, --compare, --columns or --rates/--to. */
export const needsReport = (flags: ReportFlags, by: readonly string[]): boolean =>
  bucketsIn(by).length > 0 ||
  flags.compare !== undefined ||
  flags.columns !== undefined ||
  flags.rates !== undefined ||
  flags.to !== undefined;

/** The flags checked together, the rates read (or given, for an MCP call); a usage error before any request. */
export async function planReport(
  flags: ReportFlags,
  by: string[],
  period: string | undefined,
  rates?: RateTable,
): Promise<ReportPlan> {
  if (bucketsIn(by).length > 1) throw new UsageError(`--by takes one calendar bucket: ${bucketsIn(by).join(' or ')}`);
  if (flags.compare !== undefined && flags.columns !== undefined)
    throw new UsageError('--compare and --columns make two different tables: give one');
  if (flags.top !== undefined && (flags.compare ?? flags.columns ?? flags.to) !== undefined)
    throw new UsageError('--top ranks the groups of a plain table: not with --compare, --columns or --to');
  if ((flags.rates === undefined) !== (flags.to === undefined) && rates === undefined)
    throw new UsageError(
      flags.to === undefined ? '--rates needs --to CUR, the currency to convert to' : '--to needs --rates FILE',
    );
  const columns = flags.columns?.trim().toLowerCase();
  if (columns === '') throw new UsageError('invalid --columns: empty');
  // Every record has its currency: pivoting by it adds no key.
  const all = columns === undefined || columns === 'currency' || by.includes(columns) ? [...by] : [...by, columns];
  const range = period === undefined ? undefined : parseRange(period);
  const plan: ReportPlan = { by: all, groupBy: all, periodField: undefined };
  if (range) plan.range = range;
  if (columns !== undefined) plan.columns = columns;
  const table = rates ?? (flags.rates !== undefined ? await readRateTable(flags.rates, flags.to as string) : undefined);
  if (table) {
    plan.rates = table;
    // Grouped by each statement's own period too (then added back together): a rate may depend on
    // it, and a missing rate is named with the period it is missing for.
    plan.periodField = 'period';
    if (!all.includes('period')) plan.groupBy = [...all, 'period'];
  }
  if (flags.compare !== undefined) plan.compare = comparePlan(flags.compare, all, range);
  return plan;
}

function comparePlan(text: string, by: string[], range: PeriodRange | undefined): ComparePlan {
  const value = text.trim().toLowerCase();
  const field = by.find((name) => PERIOD_KEYS.includes(name));
  const fixed = value === 'previous' ? undefined : parseRange(text, '--compare');
  if (field !== undefined) {
    if (fixed && fixed.span.from !== fixed.span.to - spanLength(fixed.cadence) + 1)
      throw new UsageError(`invalid --compare '${text}': with --by ${field}, compare with one period, e.g. 2024Q1`);
    const bucket = BUCKETS[field as BucketName] as Cadence | undefined;
    if (fixed && bucket !== undefined && fixed.cadence !== bucket)
      throw new UsageError(
        `invalid --compare '${text}': the rows are ${cadenceName(bucket)}s; compare with a ${cadenceName(bucket)}, e.g. ${labelOf(periodAt(bucket, fixed.span.from))}`,
      );
    return fixed ? { mode: 'series', field, fixed } : { mode: 'series', field };
  }
  if (range === undefined)
    throw new UsageError(
      '--compare needs the period it compares: --period (e.g. --period 2025H1 --compare previous) or --by period|year|half|quarter',
    );
  return { mode: 'ranges', current: range, compared: fixed ?? previousRange(range) };
}

const spanLength = (cadence: Cadence): number => ({ Y: 12, H: 6, Q: 3, M: 1 })[cadence];

/** A statement a bucket cannot hold, and why. */
export interface LeftOut {
  statement: Statement;
  reason: string;
}

/** The statements the calendar buckets hold; the others named (a coarser period is never split). */
export function bucketed(
  statements: readonly Processed[],
  by: readonly string[],
): { kept: Processed[]; leftOut: LeftOut[] } {
  const [bucket] = bucketsIn(by);
  if (bucket === undefined) return { kept: [...statements], leftOut: [] };
  const cadence = BUCKETS[bucket];
  const kept: Processed[] = [];
  const leftOut: LeftOut[] = [];
  for (const s of statements) {
    const period = periodOfStatement(s);
    const place = bucketOf(period, cadence);
    if ('bucket' in place) kept.push(s);
    else if ('coarser' in place)
      leftOut.push({
        statement: s,
        reason: `statement ${s.id} (${period}) is a ${cadenceName(place.coarser)}: not split into ${cadenceName(cadence)}s, left out`,
      });
    else
      leftOut.push({
        statement: s,
        reason: `statement ${s.id} has no period a ${cadenceName(cadence)} can hold: left out`,
      });
  }
  return { kept, leftOut };
}

/** The --by values of the calendar buckets, for the verbs' field tables. */
export const CALENDAR_FIELDS: Record<BucketName, (s: Statement) => string> = Object.fromEntries(
  Object.entries(BUCKETS).map(([name, cadence]) => [
    name,
    (s: Statement) => {
      const place = bucketOf(periodOfStatement(s), cadence);
      return 'bucket' in place ? place.bucket : '';
    },
  ]),
) as Record<BucketName, (s: Statement) => string>;

/** The statements of each side: the current one (within --period) and the compared one. */
export interface Sides {
  current: Selection;
  compared: Processed[];
}

/**
 * A selection made without --period split into the statements within it and those the comparison
 * reads: the compared range, or in a series the periods before (or the fixed one).
 */
export function sidesOf(pool: Selection, plan: ReportPlan): Sides {
  const range = plan.range?.span;
  const inRange = (s: Statement) => range === undefined || within(periodSpan(periodOfStatement(s)), range);
  const current: Selection = {
    processed: pool.processed.filter(inRange),
    pending: pool.pending.filter(inRange),
    overlapping: [...pool.processed, ...pool.pending].filter((s) => {
      const own = periodSpan(periodOfStatement(s));
      return range !== undefined && own !== undefined && !inRange(s) && own.from <= range.to && range.from <= own.to;
    }),
  };
  const compare = plan.compare;
  if (compare === undefined) return { current, compared: [] };
  if (compare.mode === 'ranges') {
    const span = compare.compared.span;
    return { current, compared: pool.processed.filter((s) => within(periodSpan(periodOfStatement(s)), span)) };
  }
  const periodIn = fieldValue(compare.field);
  const base = baseOf(compare);
  const wanted = new Set(current.processed.map((s) => spanKey(base(periodSpan(periodIn(s))))));
  return { current, compared: pool.processed.filter((s) => wanted.has(spanKey(periodSpan(periodIn(s))))) };
}

const spanKey = (span: Span | undefined): string => (span === undefined ? '?' : `${span.from}-${span.to}`);

/** The period a statement has in a field: its own, or its calendar bucket. */
const fieldValue =
  (field: string) =>
  (s: Statement): string | undefined =>
    field === 'period' ? periodOfStatement(s) : CALENDAR_FIELDS[field as BucketName]?.(s);

/** What each period of a series is compared with: the period before of its length, or the fixed one. */
function baseOf(compare: Extract<ComparePlan, { mode: 'series' }>): (span: Span | undefined) => Span | undefined {
  const fixed = compare.fixed;
  if (fixed) return () => fixed.span;
  return (span) => {
    if (span === undefined) return undefined;
    const length = span.to - span.from + 1;
    return { from: span.from - length, to: span.to - length };
  };
}

/** A span as a period of its length: 2024Y, 2024H1, 2024Q3, 2024M11. */
function labelIn(span: Span): string {
  const length = span.to - span.from + 1;
  const cadence: Cadence = length === 12 ? 'Y' : length === 6 ? 'H' : length === 3 ? 'Q' : 'M';
  return labelOf(periodAt(cadence, span.from));
}

/** What grouping gives: the records, which of their numbers are money and which are counts. */
export interface Grouped {
  records: GroupRecord[];
  amounts: string[];
  counts: string[];
}

export type Report =
  | { kind: 'groups'; records: GroupRecord[] }
  | { kind: 'compare'; records: GroupRecord[]; amount: string; labels?: { current: string; compared: string } }
  | { kind: 'pivot'; records: GroupRecord[]; columns: string[]; keys: string[]; totalColumn: boolean };

export interface ReportRun {
  report: Report;
  /** Said on stderr: the rates used, what --period left out. */
  notes: string[];
  /** What made the answer not whole (exit 8 once it is printed). */
  leftOut: LeftOut[];
}

/**
 * The report: the groups of each side (`group` makes them, as the verb does), converted, then
 * compared or pivoted. `amount` is the column compared or pivoted.
 */
export async function buildReport(
  plan: ReportPlan,
  sides: Sides,
  amount: string,
  group: (statements: Processed[], by: string[]) => Promise<Grouped>,
): Promise<ReportRun> {
  const now = bucketed(sides.current.processed, plan.by);
  const then = bucketed(sides.compared, plan.by);
  const leftOut = [
    ...now.leftOut,
    ...then.leftOut.filter((l) => !now.leftOut.some((n) => n.statement === l.statement)),
  ];
  const series = plan.compare?.mode === 'series';
  // A series groups both sides at once: the periods before are often periods shown too.
  const union = series ? [...new Set([...now.kept, ...then.kept])] : now.kept;
  const main = await group(union, plan.groupBy);
  const other = plan.compare && !series ? await group(then.kept, plan.groupBy) : undefined;
  const notes: string[] = [];
  const convert = (g: Grouped) =>
    plan.rates
      ? convertRecords(g.records, plan.rates, {
          keys: plan.by,
          periodField: plan.periodField,
          amounts: g.amounts,
          counts: g.counts,
        })
      : g.records;
  const records = convert(main);
  const compared = other ? convert(other) : records;
  if (plan.rates) notes.push(ratesNote(plan.rates, [...records, ...(other ? compared : [])]));
  if (plan.compare?.mode === 'ranges') {
    const labels = { current: plan.compare.current.label, compared: plan.compare.compared.label };
    const rows = compareRecords(records, compared, { keys: plan.by, amount, ranges: labels });
    return { report: { kind: 'compare', records: rows, amount, labels }, notes, leftOut };
  }
  if (plan.compare?.mode === 'series') {
    const field = plan.compare.field;
    const base = baseOf(plan.compare);
    const shown = new Set(now.kept.map((s) => spanKey(periodSpan(fieldValue(field)(s)))));
    const current = records.filter((r) => shown.has(spanKey(periodSpan(String(r[field] ?? '')))));
    const rows = compareRecords(current, compared, {
      keys: plan.by,
      amount,
      series: { field, base: (span) => base(span), label: labelIn },
    });
    return { report: { kind: 'compare', records: rows, amount }, notes, leftOut };
  }
  if (plan.columns !== undefined) {
    const keys = plan.by.filter((name) => name !== plan.columns);
    const pivot = pivotRecords(records, { keys, field: plan.columns, amount });
    return { report: { kind: 'pivot', ...pivot, keys }, notes, leftOut };
  }
  return { report: { kind: 'groups', records }, notes, leftOut };
}

/** `converted to EUR at USD 0.92, GBP 1.17 (1 unit = rate EUR); rounded once, half away from zero`. */
function ratesNote(table: RateTable, records: readonly GroupRecord[]): string {
  const used = new Set<string>();
  for (const r of records) for (const label of (r.rates as string[] | undefined) ?? []) used.add(label);
  const listed = table.rates.map(rateLabel).filter((label) => used.has(label));
  const identity = [...used].filter((label) => !listed.includes(label));
  return `converted to ${table.to} at ${[...listed, ...identity].join(', ') || 'no rate (nothing to convert)'} (1 unit = rate ${table.to}); each amount added exactly, then rounded once to ${table.to}'s minor unit, half away from zero`;
}

/** What --period left out because the statement's period overlaps it but is longer (never split). */
export function overlapNote(selection: Selection, period: string | undefined): string | undefined {
  const count = selection.overlapping.length;
  if (count === 0 || period === undefined) return undefined;
  const periods = [...new Set(selection.overlapping.map((s) => periodOfStatement(s) ?? ''))].sort();
  const shown = periods.slice(0, 4).join(', ') + (periods.length > 4 ? ', …' : '');
  return `${count} statement${count === 1 ? '' : 's'} of ${shown} overlap --period ${period} but cover more (a period is never split): not counted; try --period ${periods[0]}`;
}

/** Every reason a report is not whole, each once: the statements its buckets left out, then what could not be read. */
export function notWholeOf(leftOut: readonly LeftOut[], unread: Incomplete): string[] {
  return [...new Set([...leftOut.map((l) => l.reason), ...unread.list()])];
}

/** After the answer is printed: exit 8 naming each statement left out and each thing that could not be read. */
export function throwIfNotWhole(leftOut: readonly LeftOut[], unread: Incomplete): void {
  if (leftOut.length === 0) {
    unread.throwIfAny();
    return;
  }
  const reasons = notWholeOf(leftOut, unread);
  const statements = `${leftOut.length} statement${leftOut.length === 1 ? '' : 's'} left out`;
  if (unread.count === 0) throw new IncompleteAnswerError(reasons, `the answer is not whole: ${statements}`);
  const count = new Set(leftOut.map((l) => l.reason)).size + unread.count;
  throw new IncompleteAnswerError(reasons, 'the answer is not whole', count);
}

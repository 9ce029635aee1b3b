// `--compare previous|PERIOD`: each group beside the same group in the compared period, with the
// change and the change in percent. Two ways: the whole --period against another range (the groups
// are keyed without the period), or a series (--by period|year|half|quarter) where each period's
// group meets the same group of the period before, or of one fixed period. A group found on one side
// only is `new` or `gone`. Amounts are compared exactly.
import { type Decimal, decimalOf, decimalValue, percentChange, subtract, ZERO } from '../../lib/money/decimal.js';
import type { GroupRecord } from './groups.js';
import { periodSpan, type Span } from './periods.js';

export interface CompareInput {
  /** The --by fields, the period field too in a series. */
  keys: string[];
  /** The column compared (licensor_revenue unless --sort names another). */
  amount: string;
  /** A series: the field holding each row's period, and the span each period is compared with. */
  series?: { field: string; base: (span: Span) => Span | undefined; label: (span: Span) => string };
  /** The whole range against another: their labels, written into each row. */
  ranges?: { current: string; compared: string };
}

export type Status = 'new' | 'gone' | null;

const spanKey = (span: Span | undefined) => (span === undefined ? '?' : `${span.from}-${span.to}`);

/** The records of both sides joined: one row per group of either, in time, then currency, then amount order. */
export function compareRecords(
  current: readonly GroupRecord[],
  compared: readonly GroupRecord[],
  input: CompareInput,
): GroupRecord[] {
  const series = input.series;
  const others = input.keys.filter((name) => name !== series?.field);
  const keyOf = (r: GroupRecord, span?: Span) =>
    [...others.map((name) => String(r[name] ?? '')), String(r.currency ?? ''), spanKey(span)].join('\u0000');
  const spanOfRow = (r: GroupRecord) => (series ? periodSpan(String(r[series.field] ?? '')) : undefined);
  const before = new Map<string, GroupRecord>();
  for (const r of compared) before.set(keyOf(r, spanOfRow(r)), r);
  const rows: { row: GroupRecord; span: Span | undefined }[] = [];
  const met = new Set<string>();
  const shown = new Map<string, Span>();
  for (const r of current) {
    const span = spanOfRow(r);
    if (span !== undefined) shown.set(spanKey(span), span);
    const base = series && span ? series.base(span) : undefined;
    const key = keyOf(r, base);
    const other = before.get(key);
    if (other) met.add(`${key}\u0000${spanKey(span)}`);
    rows.push({ row: joined(r, other, input, base), span });
  }
  // A group of the compared side that no current row met is gone: once per period it is compared with.
  for (const r of compared) {
    const ownSpan = spanOfRow(r);
    const targets = series
      ? [...shown.values()].filter((s) => spanKey(series.base(s)) === spanKey(ownSpan))
      : [undefined];
    for (const target of targets) {
      const key = keyOf(r, ownSpan);
      if (met.has(`${key}\u0000${spanKey(target)}`)) continue;
      const row: GroupRecord = {};
      for (const name of input.keys) row[name] = r[name] ?? null;
      if (series && target) row[series.field] = series.label(target);
      row.currency = r.currency ?? null;
      rows.push({ row: joined(row, r, input, ownSpan, true), span: target });
    }
  }
  return rows.sort(byTimeCurrencyAmount(input.amount)).map(({ row }) => row);
}

/** One row: the keys, the current amount, the compared amount, the change, the change in %, new or gone. */
function joined(
  row: GroupRecord,
  other: GroupRecord | undefined,
  input: CompareInput,
  base: Span | undefined,
  gone = false,
): GroupRecord {
  const out: GroupRecord = {};
  for (const name of input.keys) out[name] = row[name] ?? null;
  out.currency = row.currency ?? null;
  if (input.ranges) {
    out.period = input.ranges.current;
    out.compared_period = input.ranges.compared;
  } else if (input.series) out.compared_period = base ? input.series.label(base) : null;
  const now: Decimal | undefined = gone ? undefined : (decimalOf(row[input.amount]) ?? ZERO);
  const then: Decimal | undefined = other === undefined ? undefined : (decimalOf(other[input.amount]) ?? ZERO);
  out[input.amount] = now === undefined ? null : decimalValue(now);
  out[`compared_${input.amount}`] = then === undefined ? null : decimalValue(then);
  const change = subtract(now ?? ZERO, then ?? ZERO);
  out.change = decimalValue(change);
  const percent = now !== undefined && then !== undefined ? percentChange(now, then) : undefined;
  out.change_pct = percent === undefined ? null : decimalValue(percent);
  const status: Status = then === undefined ? 'new' : now === undefined ? 'gone' : null;
  out.status = status;
  return out;
}

function byTimeCurrencyAmount(amount: string) {
  const size = (r: GroupRecord) => Math.abs(Number(r[amount] ?? r[`compared_${amount}`] ?? 0));
  return (a: { row: GroupRecord; span: Span | undefined }, b: { row: GroupRecord; span: Span | undefined }) => {
    const time = (a.span?.from ?? 0) - (b.span?.from ?? 0) || (a.span?.to ?? 0) - (b.span?.to ?? 0);
    if (time !== 0) return time;
    const x = String(a.row.currency ?? '');
    const y = String(b.row.currency ?? '');
    if (x !== y) return x < y ? -1 : 1;
    const gone = Number(a.row.status === 'gone') - Number(b.row.status === 'gone');
    return gone || size(b.row) - size(a.row);
  };
}

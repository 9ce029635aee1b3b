// What `pds statements check` finds: the kinds of finding and which of them fail the check or leave
// it not whole (shared by the verb, its views and its MCP tool); and beside sums that disagree,
// statements that look like the same statement twice, and periods missing from a payor's run.
import { readField } from '../../lib/money/amount.js';
import {
  currencyOfStatement,
  payorOf,
  periodOfStatement,
  spanOf,
  type Processed,
  type Span,
  type Statement,
} from './select.js';

export type Finding =
  | {
      check: 'lines';
      statement: string | number;
      currency: string;
      column: string;
      financials: string;
      lines: string;
      difference: string;
    }
  | { check: 'not checkable'; statement: string | number; reason: string }
  | { check: 'duplicate'; statements: (string | number)[]; reason: string }
  | { check: 'gap'; payor: string; missing: string[]; from: string; to: string };

/** What a check found, and how many statements it compared. */
export interface CheckResult {
  /** Failures first (lines that disagree, duplicates), then what could not be checked, then gaps. */
  findings: Finding[];
  /** Statements whose lines were compared with their financials. */
  checked: number;
  /** Statements chosen (processed or not). */
  chosen: number;
}

/** A disagreement or a duplicate fails the check (exit 1); what was not checked makes it incomplete (exit 8). */
export const fails = (f: Finding): boolean => f.check === 'lines' || f.check === 'duplicate';

/** The named reasons the check is not whole: statements not checked, or nothing checked at all. */
export function notWhole(result: CheckResult): string[] {
  const unchecked = result.findings.flatMap((f) =>
    f.check === 'not checkable' ? [`statement ${f.statement}: not checked (${f.reason})`] : [],
  );
  if (result.chosen === 0) return ['no statement matches: nothing was checked', ...unchecked];
  if (result.checked === 0) return ['no statement could be checked', ...unchecked];
  return unchecked;
}

/** Statements sharing a key, two or more: each such set once, in the order first seen. */
function sharing(statements: readonly Processed[], keyOf: (s: Processed) => string | undefined): Processed[][] {
  const sets = new Map<string, Processed[]>();
  for (const s of statements) {
    const key = keyOf(s);
    if (key === undefined) continue;
    const set = sets.get(key);
    if (set) set.push(s);
    else sets.set(key, [s]);
  }
  return [...sets.values()].filter((set) => set.length > 1);
}

/** A statement's amount as a key: its exact decimal (`100` and `100.0` are one), or what it said. */
const amountKey = (financials: object, field: string): string => {
  const amount = readField(financials, field);
  return amount.kind === 'amount'
    ? amount.decimal.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')
    : amount.kind === 'unreadable'
      ? amount.shown
      : 'null';
};

/**
 * Sets of statements that look alike, split by their lines' content where pds read it: two with
 * the same totals but other lines are no duplicates. Statements whose lines were not read stay
 * together (nothing tells them apart).
 */
function byContent(
  set: Processed[],
  digests: ReadonlyMap<string | number, string | undefined>,
): { set: Processed[]; sameLines: boolean }[] {
  const parts = new Map<string, Processed[]>();
  for (const s of set) {
    const key = digests.get(s.id) ?? '';
    parts.set(key, [...(parts.get(key) ?? []), s]);
  }
  return [...parts].filter(([, part]) => part.length > 1).map(([key, part]) => ({ set: part, sameLines: key !== '' }));
}

/**
 * Likely duplicates: same payor, period, currency and totals; or the same file name and size; in
 * either case with the same lines when pds read them (`digests`, by statement id).
 */
export function duplicates(
  statements: readonly Processed[],
  digests: ReadonlyMap<string | number, string | undefined> = new Map(),
): Finding[] {
  const byTotals = sharing(statements, (s) => {
    const payor = payorOf(s);
    const period = periodOfStatement(s);
    if (payor === undefined || period === undefined) return undefined;
    const f = s.financials;
    return JSON.stringify([
      payor.toLowerCase(),
      period,
      currencyOfStatement(s),
      amountKey(f, 'licensor_revenue'),
      amountKey(f, 'licensee_revenue'),
    ]);
  }).flatMap((set) => byContent(set, digests));
  const byFile = sharing(statements, (s) =>
    s.file_name && typeof s.file_size === 'number' ? JSON.stringify([s.file_name, s.file_size]) : undefined,
  ).flatMap((set) => byContent(set, digests));
  const lines = (same: boolean) => (same ? ' and lines' : '');
  const found: Finding[] = byTotals.map(({ set, sameLines }) => ({
    check: 'duplicate',
    statements: set.map((s) => s.id),
    reason: `same payor, period, currency, totals${lines(sameLines)}`,
  }));
  const named = new Set(found.map((f) => (f.check === 'duplicate' ? f.statements.join(',') : '')));
  for (const { set, sameLines } of byFile) {
    const ids = set.map((s) => s.id);
    if (named.has(ids.join(','))) continue;
    found.push({ check: 'duplicate', statements: ids, reason: `same file name and size${lines(sameLines)}` });
  }
  return found;
}

/** The kind of a period (Y, H, Q or M) and its index within its year. */
function kindOf(period: string): { kind: string; length: number } | undefined {
  const span = spanOf(period);
  if (span === undefined) return undefined;
  const length = span.to - span.from + 1;
  return { kind: { 12: 'Y', 6: 'H', 3: 'Q', 1: 'M' }[length] ?? '', length };
}

/** The period of `kind` that starts at month `from` (months since year 0, January = 1). */
function periodAt(from: number, kind: string, length: number): string {
  const year = Math.floor((from - 1) / 12);
  const month = from - year * 12;
  const index = Math.floor((month - 1) / length) + 1;
  return kind === 'Y' ? `${year}Y` : `${year}${kind}${index}`;
}

/**
 * Periods missing from a payor's run: its cadence is the period kind most of its statements have
 * (quarters, halves, years, months); every period of that kind between its first and last is
 * expected once at least.
 */
export function gaps(statements: readonly Processed[], processing: readonly Statement[] = []): Finding[] {
  // A period with a statement still processing is not missing: its statement is on its way.
  const coming = new Map<string, Span[]>();
  for (const s of processing) {
    const payor = payorOf(s);
    const span = spanOf(periodOfStatement(s));
    if (payor !== undefined && span !== undefined) coming.set(payor, [...(coming.get(payor) ?? []), span]);
  }
  const byPayor = new Map<string, string[]>();
  for (const s of statements) {
    const payor = payorOf(s);
    const period = periodOfStatement(s);
    if (payor === undefined || period === undefined || spanOf(period) === undefined) continue;
    const periods = byPayor.get(payor) ?? [];
    periods.push(period);
    byPayor.set(payor, periods);
  }
  const found: Finding[] = [];
  for (const [payor, periods] of byPayor) {
    const counts = new Map<string, number>();
    for (const p of periods) {
      const kind = kindOf(p)?.kind ?? '';
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    const cadence = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    const length = { Y: 12, H: 6, Q: 3, M: 1 }[cadence ?? ''];
    if (cadence === undefined || length === undefined) continue;
    const starts = new Set(periods.filter((p) => kindOf(p)?.kind === cadence).map((p) => spanOf(p)?.from ?? 0));
    const sorted = [...starts].sort((a, b) => a - b);
    const first = sorted[0];
    const last = sorted[sorted.length - 1];
    if (first === undefined || last === undefined) continue;
    const missing: string[] = [];
    const isComing = (from: number) =>
      (coming.get(payor) ?? []).some((span) => span.from <= from + length - 1 && span.to >= from);
    for (let from = first; from <= last; from += length)
      if (!starts.has(from) && !isComing(from)) missing.push(periodAt(from, cadence, length));
    if (missing.length > 0)
      found.push({
        check: 'gap',
        payor,
        missing,
        from: periodAt(first, cadence, length),
        to: periodAt(last, cadence, length),
      });
  }
  return found;
}

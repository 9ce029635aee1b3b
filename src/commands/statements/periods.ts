// The royalty calendar: the periods statements carry (2024Y, 2024H1, 2024Q3, 2024M11, and a bare
// 2024 for the calendar year), the buckets a roll-up puts them in (--by year|half|quarter|month), the
// period before one, and the ranges --period and --compare take. A finer period rolls into a coarser
// bucket (2024Q1 and 2024Q2 are 2024H1); a coarser one is never split into finer buckets by guess.
import { UsageError } from '../../lib/errors.js';

export type Cadence = 'Y' | 'H' | 'Q' | 'M';

/** The --by names of the calendar buckets, and the cadence each stands for. */
export const BUCKETS = { year: 'Y', half: 'H', quarter: 'Q', month: 'M' } as const satisfies Record<string, Cadence>;
export type BucketName = keyof typeof BUCKETS;

/** The --by names that hold a period (the statement's own, or a calendar bucket). */
export const PERIOD_KEYS: readonly string[] = ['period', ...Object.keys(BUCKETS)];

const LENGTH: Record<Cadence, number> = { Y: 12, H: 6, Q: 3, M: 1 };
const NAME: Record<Cadence, string> = { Y: 'year', H: 'half-year', Q: 'quarter', M: 'month' };

/** A period as months since year 0: its first and last month. */
export interface Span {
  from: number;
  to: number;
}

export interface Period {
  year: number;
  cadence: Cadence;
  /** 1-based: H2 is 2, Q3 is 3, M11 is 11; 1 for a year. */
  index: number;
}

const FORM = /^(\d{4})(?:[-\s]?(y|h[12]|q[1-4]|m\d{1,2}))?$/i;

/** A period in any form the service or a user writes (2024, 2024Y, 2024-H1, 2024q3, 2024M11). */
export function parsePeriod(text: string | null | undefined): Period | undefined {
  const match = text === null || text === undefined ? null : FORM.exec(text.trim());
  if (!match) return undefined;
  const year = Number(match[1]);
  const part = (match[2] ?? 'Y').toUpperCase();
  const cadence = part[0] as Cadence;
  const index = cadence === 'Y' ? 1 : Number(part.slice(1));
  if (index < 1 || index > 12 / LENGTH[cadence]) return undefined;
  return { year, cadence, index };
}

export function spanOfPeriod(p: Period): Span {
  const from = p.year * 12 + (p.index - 1) * LENGTH[p.cadence] + 1;
  return { from, to: from + LENGTH[p.cadence] - 1 };
}

/** The months a period covers; undefined for a text that is no period. */
export const periodSpan = (text: string | null | undefined): Span | undefined => {
  const p = parsePeriod(text);
  return p === undefined ? undefined : spanOfPeriod(p);
};

/** The period of `cadence` that holds the month. */
export function periodAt(cadence: Cadence, month: number): Period {
  const zero = month - 1;
  return { year: Math.floor(zero / 12), cadence, index: Math.floor((zero % 12) / LENGTH[cadence]) + 1 };
}

/** A period in the service's form: 2024Y, 2024H1, 2024Q3, 2024M11 (a year is never a bare number: as a key it would sort first). */
export const labelOf = (p: Period): string => `${p.year}${p.cadence}${p.cadence === 'Y' ? '' : p.index}`;

/** The period `steps` periods of its cadence after it (before it when negative). */
export function shifted(p: Period, steps: number): Period {
  return periodAt(p.cadence, spanOfPeriod(p).from + steps * LENGTH[p.cadence]);
}

export const cadenceName = (cadence: Cadence): string => NAME[cadence];

/** Where a statement's period goes among buckets of one cadence. */
export type Bucketed = { bucket: string } | { coarser: Cadence } | { unreadable: true };

/**
 * The bucket of `cadence` a period rolls into: a finer or equal period lies inside exactly one; a
 * coarser period (a half-year asked by quarter) is named, never split.
 */
export function bucketOf(text: string | null | undefined, cadence: Cadence): Bucketed {
  const p = parsePeriod(text);
  if (p === undefined) return { unreadable: true };
  if (LENGTH[p.cadence] > LENGTH[cadence]) return { coarser: p.cadence };
  return { bucket: labelOf(periodAt(cadence, spanOfPeriod(p).from)) };
}

/** A range of periods of one cadence, as --period and --compare give it. */
export interface PeriodRange {
  span: Span;
  cadence: Cadence;
  /** As a person reads it: `2024Q1..2024Q4`, or one period. */
  label: string;
}

/** The range from the first period to the last, in the first's cadence. */
export function rangeOf(first: Period, last: Period): PeriodRange {
  const span = { from: spanOfPeriod(first).from, to: spanOfPeriod(last).to };
  const start = labelOf(first);
  const end = labelOf(periodAt(first.cadence, span.to));
  const aligned = spanOfPeriod(periodAt(first.cadence, span.to)).to === span.to;
  return { span, cadence: first.cadence, label: start === end ? start : `${start}..${aligned ? end : labelOf(last)}` };
}

/** `--period FROM..TO` (or one period, `2024` the calendar year); a usage error naming `flag` when it is not one. */
export function parseRange(text: string, flag = '--period'): PeriodRange {
  const [first = '', last = first, ...rest] = text.split('..');
  const from = parsePeriod(first);
  const to = parsePeriod(last);
  if (rest.length > 0 || from === undefined || to === undefined)
    throw new UsageError(
      `invalid ${flag} '${text}': expected a period or FROM..TO, e.g. 2025Q1..2025Q4, 2025H2, 2024 or 2023..2025`,
    );
  const range = rangeOf(from, to);
  if (spanOfPeriod(to).to < range.span.from)
    throw new UsageError(`invalid ${flag} '${text}': it ends before it starts`);
  return range;
}

/** The range of the same length just before: 2025H1 → 2024H2, 2024Q1..2024Q4 → 2023Q1..2023Q4. */
export function previousRange(range: PeriodRange): PeriodRange {
  const months = range.span.to - range.span.from + 1;
  const first = periodAt(range.cadence, range.span.from - months);
  const last = periodAt(range.cadence, range.span.to - months);
  return rangeOf(first, last);
}

/** Whether a period lies within a span (its every month). */
export const within = (span: Span | undefined, range: Span): boolean =>
  span !== undefined && span.from >= range.from && span.to <= range.to;

/** Whether two spans share a month. */
export const overlaps = (a: Span, b: Span): boolean => a.from <= b.to && b.from <= a.to;

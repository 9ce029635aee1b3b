// Which statements a roll-up covers: every statement of the project (listed page by page) or the
// ids given, narrowed by period, payor, currency and tag, and split into those the service has
// processed (they carry `financials`) and the others, which are counted apart and never summed.
import type { Statement } from '../../lib/api/catalog.js';
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { normalizeCurrency } from '../../lib/transfer/formats.js';
import { checkResourceId } from '../catalog/get.js';
import { overlaps, parseRange, periodSpan, type Span } from './periods.js';

export type { Span } from './periods.js';

/**
 * A statement as the service documents it (lib/api/shapes.ts, the one definition). Only its id is
 * checked: the roll-ups read every other field as it came (amounts through readAmount, whatever
 * their type), so each is optional and nullable here.
 */
export type { Statement };

/** A statement's financials, as documented. */
type Financials = NonNullable<Statement['financials']>;

/** A statement the service processed: it carries its financials. */
export type Processed = Statement & { financials: Financials };

export interface SelectInput {
  args: string[];
  all?: boolean | undefined;
  period?: string | undefined;
  payor?: string | undefined;
  currency?: string | undefined;
  tag?: string | undefined;
  /** The project (an MCP call's); else the context's. */
  projectId?: string | undefined;
}

export interface Selection {
  processed: Processed[];
  /** Chosen but not processed yet: said, never summed. */
  pending: Statement[];
  /** Left out by --period alone: their period overlaps it but is longer (never split). */
  overlapping: Statement[];
}

/** The months a period (2025Q1, 2025H2, 2025Y, 2025M11, 2025) covers; undefined for another form. */
export const spanOf = periodSpan;

/** `--period FROM..TO` (or one period, 2024 the calendar year) as a span of months; a usage error when it is not one. */
export const periodRange = (flag: string): Span => parseRange(flag).span;

/** The period a statement accounts for: its financials', else its accounting period. */
export const periodOfStatement = (s: Statement): string | undefined =>
  s.financials?.period ?? s.accounting_period ?? undefined;

/** Who pays: the payor, else the producer the service read from the statement. */
export const payorOf = (s: Statement): string | undefined => s.payor || s.statement_producer || undefined;

/** Processed: the service gave its financials (whatever their currency says: an empty one is "no currency"). */
const isProcessed = (s: Statement): s is Processed =>
  typeof s.financials === 'object' && s.financials !== null && !Array.isArray(s.financials);

/** The group key of money with no currency code the rules can read (empty, missing, not three letters). */
export const NO_CURRENCY = '';

/**
 * A currency code as money is grouped by it: trimmed and upper-cased (`EUR`, `eur` and ` EUR` are
 * one); NO_CURRENCY for an empty, missing or malformed one, which is named apart, never merged into
 * a code.
 */
export function currencyCode(value: unknown): string {
  return typeof value === 'string' ? (normalizeCurrency(value) ?? NO_CURRENCY) : NO_CURRENCY;
}

/** A statement's own currency, as grouped. */
export const currencyOfStatement = (s: Statement): string => currencyCode(s.financials?.currency);

/** Checks the filters before anything is asked of the service; the predicate they make. */
export function filterOf(input: SelectInput): (s: Statement) => boolean {
  const span = input.period === undefined ? undefined : periodRange(input.period);
  const currency = input.currency === undefined ? undefined : normalizeCurrency(input.currency);
  if (input.currency !== undefined && currency === undefined)
    throw new UsageError(`invalid --currency '${input.currency}': expected an ISO 4217 code such as EUR`);
  const payor = input.payor?.trim().toLowerCase();
  if (payor === '') throw new UsageError('invalid --payor: empty');
  const tag = input.tag?.trim();
  if (tag === '') throw new UsageError('invalid --tag: empty');
  return (s) => {
    if (span) {
      const own = spanOf(periodOfStatement(s));
      if (own === undefined || own.from < span.from || own.to > span.to) return false;
    }
    if (currency !== undefined && currencyOfStatement(s) !== currency) return false;
    if (payor !== undefined && (payorOf(s) ?? '').toLowerCase() !== payor) return false;
    if (tag !== undefined && !(s.tags ?? []).includes(tag)) return false;
    return true;
  };
}

/** Statements every filter but --period keeps whose period overlaps it without lying within it. */
function overlapOf(input: SelectInput): ((s: Statement) => boolean) | undefined {
  if (input.period === undefined) return undefined;
  const span = periodRange(input.period);
  const others = filterOf({ ...input, period: undefined });
  return (s) => {
    const own = spanOf(periodOfStatement(s));
    return own !== undefined && overlaps(own, span) && others(s);
  };
}

/** Checks ids and flags (a usage error before any request): either --all or ids, not both. */
export function checkChoice(input: SelectInput, verb: string): string[] {
  if (input.all === true && input.args.length > 0)
    throw new UsageError(`give statement ids or --all, not both (pds statements ${verb})`);
  return input.args.map((id) => checkResourceId('statements', id));
}

/** The chosen statements, fetched; `onListed` hears each page (progress). */
export async function selectStatements(
  ctx: Context,
  input: SelectInput,
  ids: string[],
  onListed?: (count: number) => void,
): Promise<Selection> {
  const keep = filterOf(input);
  const projectId = input.projectId ?? ctx.project();
  ctx.requireToken();
  const overlapping = overlapOf(input);
  const selection: Selection = { processed: [], pending: [], overlapping: [] };
  // Each statement once, by id: one the service lists twice or the user gives twice counts once.
  const seen = new Set<string>();
  const take = (s: Statement) => {
    const id = String(s.id);
    if (seen.has(id)) return;
    seen.add(id);
    if (!keep(s)) {
      if (overlapping?.(s)) selection.overlapping.push(s);
      return;
    }
    if (isProcessed(s)) selection.processed.push(s);
    else selection.pending.push(s);
  };
  if (ids.length > 0) {
    for (const id of new Set(ids)) take(await ctx.api.catalog.get('statements', projectId, id));
    onListed?.(ids.length);
    return selection;
  }
  let listed = 0;
  for await (const page of ctx.api.catalog.allPages('statements', { projectId, page: 1, perPage: 100 })) {
    for (const s of page.items) take(s);
    listed += page.items.length;
    onListed?.(listed);
  }
  return selection;
}

/**
 * Why a chosen statement has no financials to add: still being processed, or processed by a
 * service that gave none (the spec's form carries none): two different things to be told.
 */
export function pendingReason(s: Statement): string {
  const stage = s.extraction_stage ?? s.processing_status;
  if (stage === 'completed' || (stage === undefined && s.processed_at)) return 'processed, but no financials given';
  return `not processed yet (${stage ?? 'no stage'})`;
}

/** Says on stderr what was chosen and left out: not processed yet, or processed without financials. */
export async function sayPending(ctx: Context, selection: Selection): Promise<void> {
  const withoutFinancials = selection.pending.filter((s) => pendingReason(s).startsWith('processed'));
  const notYet = selection.pending.filter((s) => !withoutFinancials.includes(s));
  const say = async (chosen: Statement[], what: string) => {
    const count = chosen.length;
    if (count === 0) return;
    const ids = chosen.map((s) => String(s.id));
    // Short unless --verbose: a count and the first ids say it; every id is one flag away.
    const all = ctx.settings.verbose || count <= 3;
    const named = all ? ids.join(', ') : `${ids.slice(0, 2).join(', ')}, … — see --verbose`;
    await ctx.output.note(`${count} statement${count === 1 ? '' : 's'} ${what} (${named})`, { indent: '  ' });
  };
  await say(notYet, 'not processed');
  await say(withoutFinancials, `processed without financials, not counted`);
}

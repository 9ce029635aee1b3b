// What a person reads of a contract's includes on a terminal: the terms, not the plumbing. Each
// include says which of a row's fields show and how (a rate as `18 %`, a base in words, a split's
// parties with their shares, an amount with its currency), reading both the spec's forms and the
// deployed service's (docs/service.md); a row's ids, internal uuid and timestamps stay out
// (the data formats, --fields and --verbose keep them), its citations go under it. Whatever a row
// carries that no column reads (an include this file does not know, a field the service added)
// still shows, under its name in words: never a bare count.
import { looksLikeTimestamp, personText } from '../../lib/output/cell-text.js';
import { fieldLabel, isPlumbing, valueInUnits } from '../../lib/output/field-words.js';
import { formatMoney, formatPercent } from '../../lib/money/display.js';
import { isPlainObject } from '../../lib/shape.js';
import type { Column } from '../../lib/output/view.js';

type Record_ = Record<string, unknown>;

/** A row's fields that are bookkeeping, not terms: its ids, when it was written, its citations (drawn apart). */
export const PLUMBING = new Set(['id', 'internal_uuid', 'created_at', 'updated_at', 'citations']);

const field = (key: string) => (row: Record_) => row[key];
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** The values' texts, each once, by commas. */
const joined = (...values: unknown[]): string =>
  [...new Set(values.map(personText).filter((text) => text !== ''))].join(', ');
/** `net_receipts` → `net receipts` (a hyphen stays: `co-writer`); an all-capitals code (`PPD`) as it is. */
const inWords = (value: unknown): string =>
  typeof value === 'string' && value !== value.toUpperCase()
    ? personText(value.replace(/_+/g, ' '))
    : personText(value);
/** `60 days` from a value and its unit. */
const amountOf = (value: unknown, unit: unknown): string =>
  value === null || value === undefined ? '' : `${personText(value)} ${personText(unit)}`.trim();

/**
 * A rate in percent: percentage points when the row says so (or writes `%`); a bare number up to 1
 * with no type is a fraction (`0.56` is 56 %); any other rate as it came, with its type in words.
 */
function rate(row: Record_): string {
  const { rate: value, rate_type: type } = row;
  if (type === 'percentage' || (typeof value === 'string' && value.trim().endsWith('%'))) return formatPercent(value);
  if ((type === undefined || type === null) && typeof value === 'number' && value >= 0 && value <= 1)
    return formatPercent(Math.round(value * 1e6) / 1e4);
  return joined(value, inWords(type));
}

function base(row: Record_): string {
  const calculation = row.calculation_base ?? row.cost_base ?? row.basis;
  if (!isPlainObject(calculation)) return inWords(calculation);
  const kind = inWords(calculation.type);
  const definition = personText(calculation.definition);
  const same = definition.toLowerCase() === kind.toLowerCase() || definition === personText(calculation.type);
  return definition && !same ? `${kind}: ${definition}` : kind;
}

function parties(row: Record_): string {
  if (!Array.isArray(row.parties) && row.party !== undefined)
    return row.share === undefined || row.share === null
      ? personText(row.party)
      : `${personText(row.party)} ${formatPercent(row.share)}`;
  return list(row.parties)
    .map((party) => {
      if (!isPlainObject(party)) return personText(party);
      const share = party.percentage ?? party.share;
      return share === undefined || share === null
        ? personText(party.name)
        : `${personText(party.name)} ${formatPercent(share)}`;
    })
    .join(', ');
}

/** What a split or a commitment covers: its asset's code, or each asset's kind and id. */
function covers(row: Record_): string {
  const assets = [...list(row.assets), ...list(row.linked_assets)].map((asset) => {
    if (!isPlainObject(asset)) return personText(asset);
    const id = asset.isrc ?? asset.iswc ?? asset.recording_id ?? asset.composition_id ?? asset.product_id;
    return joined(`${personText(asset.type)} ${personText(id)}`.trim(), asset.coverage);
  });
  return joined(row.asset_identifier, ...assets);
}

function deliverables(row: Record_): string {
  return list(row.linked_deliverables)
    .map((item) => {
      if (!isPlainObject(item)) return personText(item);
      const quantity = item.quantity === undefined || item.quantity === null ? '' : `${personText(item.quantity)} × `;
      const done =
        item.fulfilled === undefined || item.fulfilled === null ? '' : ` (${personText(item.fulfilled)} done)`;
      return `${quantity}${personText(item.type ?? item.description)}${done}`;
    })
    .join(', ');
}

/** Payments (advances, fees) as `78,500.00 USD advance on signature`, by semicolons. */
function payments(value: unknown, currency: unknown): string {
  return list(value)
    .map((item) => (isPlainObject(item) ? payment(item, item.currency ?? currency) : personText(item)))
    .join('; ');
}

function payment(item: Record_, currency: unknown): string {
  const due = item.payable_on ?? item.due;
  return [formatMoney(item.amount, currency), inWords(item.type), due ? `on ${personText(due)}` : '']
    .filter((text) => text !== '')
    .join(' ');
}

/** A compensation's payments: the seed's row is one; the deployed service's lists advances and fees. */
function compensationPayments(c: Record_): string {
  // The TYPE column names a lone payment's kind already.
  if (c.amount !== undefined) return payment({ ...c, type: undefined }, c.currency);
  const all = [...list(c.advances), ...list(c.fixed_fees)];
  if (all.length === 1 && isPlainObject(all[0]))
    return payment({ ...all[0], type: undefined }, all[0].currency ?? c.currency);
  return [payments(c.advances, c.currency), payments(c.fixed_fees, c.currency)].filter(Boolean).join('; ');
}

/** What a row's money is, as a seed's row says it (`amount` and `currency`). */
const money = (header: string, priority = 75): Column<Record_> => ({
  header,
  value: (r) => r.amount,
  currency: (r) => r.currency,
  format: 'money',
  priority,
});

const typed = (items: unknown): string =>
  list(items)
    .map((item) =>
      isPlainObject(item)
        ? `${inWords(item.type)} ${personText(item.date ?? item.value ?? '')}`.trim()
        : personText(item),
    )
    .join(', ');

const name = (header = 'name', key = header): Column<Record_> => ({
  header,
  value: field(key),
  format: 'name',
  overflow: 'wrap',
});
const text = (header: string, value: (row: Record_) => unknown, priority = 40): Column<Record_> => ({
  header,
  value,
  priority,
  overflow: 'wrap',
});

export const INCLUDE_COLUMNS: Record<string, Column<Record_>[]> = {
  royalties: [
    { ...name('title'), value: (r) => r.title ?? inWords(r.type) },
    { header: 'rate', value: rate, format: 'percent', priority: 85 },
    text('applies to', (r) => r.applies_to, 70),
    text('territory', (r) => r.territory, 55),
    text('base', base, 60),
    text('description', field('description'), 50),
    { header: 'rule', value: field('rule_id'), priority: 10, overflow: 'never' },
  ],
  splits: [
    { ...text('parties', parties, 90), format: 'name' },
    text('type', (s) => joined(inWords(s.split_type), inWords(s.rights_type), inWords(s.revenue_type ?? s.basis)), 60),
    text('covers', covers, 70),
  ],
  'accounting-periods': [
    { header: 'cadence', value: (a) => inWords(a.accounting_period ?? a.name), format: 'name', overflow: 'never' },
    text('period', (a) => (a.start || a.end ? `${personText(a.start)} to ${personText(a.end)}` : ''), 75),
    text('statement due', field('statement_due'), 72),
    text('reporting delay', (a) => amountOf(a.reporting_delay_value, a.reporting_delay_unit), 70),
    text('payment', (a) => amountOf(a.payment_period_value, a.payment_period_unit), 60),
    {
      header: 'threshold',
      value: (a) => a.payout_threshold_value,
      currency: (a) => a.payout_threshold_currency,
      format: 'money',
      priority: 65,
    },
    text('cross-collateralized', (a) => a.cross_collateralizes, 30),
    text('audit rights', (a) => joined(a.audit_rights, a.audit_rights_condition), 30),
  ],
  commitments: [
    name('title'),
    text('type', (c) => inWords(c.type), 50),
    text('deliverables', deliverables, 80),
    text('description', field('description'), 60),
    text('recurring', (c) => amountOf(c.recurring_quantity, c.recurring_unit), 30),
    text('covers', covers, 40),
  ],
  costs: [
    { ...name('title'), value: (c) => c.title ?? inWords(c.type) },
    money('amount'),
    text('description', field('description'), 60),
    { header: 'recoupment', value: field('recoupment_rate'), format: 'percent', priority: 70 },
    text('recoupable', field('recoupable'), 68),
    text('approval needed', field('requires_approval'), 30),
    text('base', base, 40),
  ],
  compensations: [
    {
      ...name('type'),
      value: (c) =>
        c.type !== undefined
          ? inWords(c.type)
          : joined(
              ...[...list(c.advances), ...list(c.fixed_fees)].map((p) => (isPlainObject(p) ? inWords(p.type) : '')),
            ),
    },
    text('payments', compensationPayments, 85),
    text('recurring', (c) => inWords(c.recurring_payment_type), 40),
    text('currency estimated', (c) => (c.currency_estimated === true ? 'yes' : ''), 20),
  ],
  dates: [
    // The deployed service's row holds lists of typed dates; the seed's row is one typed date.
    { ...text('dates', (d) => (d.type !== undefined ? typed([d]) : typed(d.extracted_dates)), 90), format: 'name' },
    text('terms', (d) => typed(d.extracted_terms), 70),
    text('end dates', (d) => typed(d.calculated_end_dates), 60),
    text('missing', (d) => typed(d.missing_dates), 40),
  ],
  entities: [
    name(),
    text('role', (e) => inWords(e.role), 70),
    text('email', field('email'), 50),
    text('phone', field('phone'), 30),
  ],
  relations: [
    name(),
    text('role', (e) => inWords(e.role), 70),
    text('department', field('department'), 40),
    text('email', field('email'), 50),
  ],
  artists: [name(), text('role', (a) => inWords(a.role), 50)],
  writers: [name(), text('role', (w) => inWords(w.role), 50)],
  types: [{ ...name('type'), value: (t) => t.type ?? t.name }, text('note', (t) => t.note ?? t.category, 40)],
  signatures: [
    { ...name(), value: (s) => s.name ?? s.signatory },
    text('title', (s) => (s.signatory !== undefined ? s.title : undefined), 40),
    text('entity', (s) => s.entity ?? s.party, 70),
    text('signed', field('signed'), 50),
    {
      header: 'date',
      value: (s) => s.signing_date ?? s.effective_date ?? s.signed_on,
      priority: 60,
      overflow: 'never',
    },
  ],
  'control-areas': [
    {
      ...text('description', (c) => c.description ?? inWords(c.rights), 90),
      format: 'name',
    },
    text('control', (c) => joined(inWords(c.control_type), inWords(c.exclusivity)), 70),
    text('territories', (c) => c.territories ?? c.territory, 60),
  ],
  'creative-approvals': [
    { ...name('title'), value: (a) => a.title ?? a.subject },
    text('approver', (a) => inWords(a.approval_party ?? a.approver), 70),
    text('description', field('description'), 60),
    text(
      'deemed approved after',
      (a) => amountOf(a.deemed_after_days, a.deemed_after_days === undefined ? '' : 'days'),
      60,
    ),
    { header: 'ref', value: field('approval_id'), priority: 10, overflow: 'never' },
  ],
  balances: [
    { ...name('title'), value: (b) => b.title ?? inWords(b.type) },
    money('amount'),
    { header: 'as of', value: field('as_of'), priority: 60, overflow: 'never' },
    text('description', field('description'), 60),
    text('reasoning', field('reasoning'), 40),
  ],
  recordings: [
    name(),
    { header: 'isrc', label: 'ISRC', value: (r) => identifiers(r, 'isrc'), format: 'code' },
    text('artists', field('artists'), 60),
  ],
  compositions: [
    name(),
    { header: 'iswc', label: 'ISWC', value: (c) => identifiers(c, 'iswc'), format: 'code' },
    text('writers', (c) => c.writers ?? c.creators, 60),
    text('artists', field('artists'), 50),
  ],
  languages: [name('language')],
  merged: [
    name(),
    { header: 'id', value: field('id'), format: 'id' },
    { header: 'merged', value: field('merged_at'), format: 'date', priority: 50 },
  ],
  custom_extractions: [name('extractor', 'extractor_name'), text('found', field('data'), 80)],
  triggered_rules: [
    { header: 'rule', value: field('rule_id'), format: 'name', overflow: 'never' },
    text('status', (r) => joined(r.status, r.severity), 70),
    text('message', field('message'), 80),
    text('section', (r) => joined(r.section, r.item_id), 40),
  ],
};

/** A recording's ISRCs or a composition's ISWCs, from its identifiers. */
function identifiers(row: Record_, type: string): string {
  return list(row.identifiers)
    .filter((i) => isPlainObject(i) && String(i.type).toLowerCase() === type)
    .map((i) => personText((i as Record_).value))
    .join(', ');
}

/** The fields that can name a row, in the order one is taken as its heading. */
const NAMING = ['name', 'title', 'subject', 'type', 'label', 'description'];

/**
 * Columns for fields no column read: each under its name in words, a timestamp as a date, the
 * field that best names a row first (never an id). Plumbing only with --verbose.
 */
export function fallbackColumns(rows: Record_[], keys: string[], verbose = false): Column<Record_>[] {
  const shown = keys.filter(
    (key) =>
      (verbose || !(PLUMBING.has(key) || key.endsWith('_id') || rows.some((r) => isPlumbing(key, r[key])))) &&
      key !== 'citations',
  );
  const naming = NAMING.find((key) => shown.includes(key));
  const ordered = naming === undefined ? shown : [naming, ...shown.filter((key) => key !== naming)];
  return ordered.map((key, i) => {
    const dates = rows.every((row) => row[key] === null || row[key] === undefined || looksLikeTimestamp(row[key]));
    return {
      header: key,
      label: fieldLabel(key),
      value: (row: Record_) => valueInUnits(key, row[key]) ?? row[key],
      ...(dates ? { format: 'date' as const } : i === 0 && key === naming ? { format: 'name' as const } : {}),
      overflow: dates ? ('never' as const) : ('wrap' as const),
      ...(key.endsWith('_id') || key === 'id' ? { priority: 10 } : {}),
    };
  });
}

/** The keys of the rows each column reads (when it draws them), found by drawing every row once. */
function keysRead(columns: Column<Record_>[], rows: Record_[]): Set<string> {
  const read = new Set<string>();
  for (const row of rows) {
    const watched = new Proxy(row, {
      get(target, key) {
        if (typeof key === 'string') read.add(key);
        return target[key as string];
      },
    });
    for (const column of columns) {
      column.value(watched);
      column.currency?.(watched);
    }
  }
  return read;
}

/**
 * An include's columns: those this file defines for it, then one for each field with a value that
 * none of them read; every field (but plumbing) for an include it does not know.
 */
export function includeColumns(include: string, rows: Record_[], verbose = false): Column<Record_>[] {
  const known = INCLUDE_COLUMNS[include] ?? [];
  const read = keysRead(known, rows);
  const filled = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter(
    (key) => !read.has(key) && rows.some((row) => !empty(row[key])),
  );
  return [...known, ...fallbackColumns(rows, filled, verbose)];
}

const empty = (value: unknown): boolean =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A row's citations as a person reads them: `p. 4 §7.2 "twenty-two percent" (rate)`. */
export function citationLines(row: Record_): string[] {
  return list(row.citations).flatMap((c) => {
    if (!isPlainObject(c)) return personText(c) === '' ? [] : [personText(c)];
    const where = [
      c.page === null || c.page === undefined ? '' : `p. ${personText(c.page)}`,
      c.section_number ? `§${personText(c.section_number)}` : personText(c.section_title),
    ].filter(Boolean);
    const quote = c.citation === null || c.citation === undefined ? '' : `"${personText(c.citation)}"`;
    const text = [where.join(' '), quote].filter(Boolean).join(' ');
    if (text === '') return [];
    return [c.field ? `${text} (${fieldLabel(String(c.field)).toLowerCase()})` : text];
  });
}

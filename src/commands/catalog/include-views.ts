// What a person reads of a contract's includes on a terminal: the terms, not the plumbing. Each
// include says which of a row's fields show and how (a rate as `18 %`, a base in words, a split's
// parties with their shares); a row's internal uuid, timestamps and citations stay out (the data
// formats and --fields keep them). An include this file does not know shows every field but those.
import { personText } from '../../lib/output/cell-text.js';
import { formatMoney, formatPercent } from '../../lib/money/display.js';
import { isPlainObject } from '../../lib/shape.js';
import type { Column } from '../../lib/output/view.js';

type Record_ = Record<string, unknown>;

/** A row's fields that are bookkeeping, not terms (a row's own id too, where its terms are known). */
export const PLUMBING = new Set(['internal_uuid', 'created_at', 'updated_at', 'citations']);

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

function payments(value: unknown, currency: unknown): string {
  return list(value)
    .map((item) =>
      isPlainObject(item)
        ? joined(
            `${formatMoney(item.amount, currency)}`,
            inWords(item.type),
            item.payable_on && `on ${personText(item.payable_on)}`,
          )
        : personText(item),
    )
    .join('; ');
}

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
    { header: 'cadence', value: (a) => inWords(a.accounting_period), format: 'name', overflow: 'never' },
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
    name('title'),
    text('description', field('description'), 60),
    { header: 'recoupment', value: field('recoupment_rate'), format: 'percent', priority: 70 },
    text('approval needed', field('requires_approval'), 30),
    text('base', base, 40),
  ],
  compensations: [
    { header: 'currency', value: field('currency'), format: 'name', overflow: 'never' },
    text('advances', (c) => payments(c.advances, c.currency), 80),
    text('fixed fees', (c) => payments(c.fixed_fees, c.currency), 70),
    text('recurring', (c) => inWords(c.recurring_payment_type), 40),
  ],
  dates: [
    { ...text('dates', (d) => typed(d.extracted_dates), 90), format: 'name' },
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
  artists: [name(), text('role', (a) => inWords(a.role), 50)],
  writers: [name(), text('role', (w) => inWords(w.role), 50)],
  types: [name('type'), text('note', field('note'), 40)],
  signatures: [
    name(),
    text('entity', field('entity'), 70),
    text('signed', field('signed'), 50),
    { header: 'date', value: (s) => s.signing_date ?? s.effective_date, priority: 60, overflow: 'never' },
  ],
  'control-areas': [
    { ...text('description', field('description'), 90), format: 'name' },
    text('control', (c) => joined(inWords(c.control_type), inWords(c.exclusivity)), 70),
    text('territories', field('territories'), 60),
  ],
  recordings: [
    name(),
    {
      header: 'isrc',
      value: (r) =>
        list(r.identifiers)
          .filter((i) => isPlainObject(i) && String(i.type).toLowerCase() === 'isrc')
          .map((i) => (i as Record_).value)
          .join(', '),
      format: 'code',
    },
    text('artists', field('artists'), 60),
  ],
  languages: [name('language')],
  custom_extractions: [name('extractor', 'extractor_name'), text('found', field('data'), 80)],
  triggered_rules: [
    { header: 'rule', value: field('rule_id'), format: 'name', overflow: 'never' },
    text('status', (r) => joined(r.status, r.severity), 70),
    text('message', field('message'), 80),
    text('section', (r) => joined(r.section, r.item_id), 40),
  ],
};

/** The columns of an include this file does not know: every field a row has but the plumbing. */
export function fallbackColumns(rows: Record_[]): Column<Record_>[] {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((key) => !PLUMBING.has(key));
  return keys.map((key) => ({
    header: key,
    value: field(key),
    ...(key === 'id' || key.endsWith('_id') ? { format: 'id' as const } : { overflow: 'wrap' as const }),
  }));
}

export function includeColumns(include: string, rows: Record_[]): Column<Record_>[] {
  return INCLUDE_COLUMNS[include] ?? fallbackColumns(rows);
}

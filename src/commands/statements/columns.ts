// Which columns of a lines export are summed, and why: a roll-up declares it (`--verbose`), never
// guesses it silently. By the words of a column's name (split at `_`, spaces, dashes and case):
// an identifier or ordinal (`line`, `row`, `year`, `isrc`, `upc`, `…_id`, `track_number`) is never
// summed; a rate or price per unit is never summed (adding them means nothing); money and units
// (`licensor_revenue`, `royalty`, `amount`, `units`, `quantity`) are always summed, and a cell of
// theirs that cannot be read is named, never dropped with its column. A column whose name says
// neither is summed when every cell it has is an amount, and said not to be otherwise.
// Of what is summed, the names that say money: shown in a currency, converted by --to.

export type ColumnRole = 'amount' | 'identifier' | 'rate' | 'by content';

const IDENTIFIER_WORDS = new Set([
  'id',
  'ids',
  'uuid',
  'line',
  'row',
  'no',
  'nr',
  'num',
  'number',
  'index',
  'idx',
  'seq',
  'sequence',
  'position',
  'pos',
  'year',
  'month',
  'day',
  'week',
  'quarter',
  'period',
  'date',
  'isrc',
  'upc',
  'ean',
  'iswc',
  'isni',
  'ipi',
  'grid',
  'code',
  'catalog',
  'catalogue',
  'track',
  'disc',
  'volume',
  'account',
  'contract',
  'invoice',
  'reference',
  'ref',
]);
const RATE_WORDS = new Set(['rate', 'percent', 'percentage', 'pct', 'share', 'ratio', 'split', 'price']);
const AMOUNT_WORDS = new Set([
  'revenue',
  'revenues',
  'royalty',
  'royalties',
  'amount',
  'amounts',
  'gross',
  'net',
  'units',
  'unit',
  'quantity',
  'qty',
  'income',
  'earnings',
  'payable',
  'payment',
  'paid',
  'fee',
  'fees',
  'tax',
  'taxes',
  'deduction',
  'deductions',
  'commission',
  'cost',
  'costs',
  'total',
  'streams',
  'plays',
  'downloads',
  'sales',
]);

/** The words of a column's name, lower case: `trackNumber` and `track_number` are `track number`. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * What a column's name says it is. The last word decides first (`track_number` numbers tracks,
 * `line_total` is a total), then a rate word anywhere, then an amount word, then an identifier word.
 */
export function roleOf(name: string): ColumnRole {
  const words = wordsOf(name);
  const last = words[words.length - 1];
  if (last !== undefined && IDENTIFIER_WORDS.has(last)) return 'identifier';
  if (words.some((word) => RATE_WORDS.has(word))) return 'rate';
  if (words.some((word) => AMOUNT_WORDS.has(word))) return 'amount';
  if (words.some((word) => IDENTIFIER_WORDS.has(word))) return 'identifier';
  return 'by content';
}

/** A column as a roll-up declares it: summed or not, and why. */
export interface ColumnReport {
  column: string;
  summed: boolean;
  why: string;
}

/** Why a column is summed or not, in words, from its role and (for one read by content) its cells. */
export function reasonOf(role: ColumnRole, cells: { amounts: number; others: number }): ColumnReport['why'] {
  if (role === 'amount') return 'its name says money or units';
  if (role === 'identifier') return 'its name says an identifier or ordinal';
  if (role === 'rate') return 'its name says a rate or a price per unit';
  if (cells.others === 0 && cells.amounts > 0) return 'every cell is an amount';
  if (cells.amounts === 0) return 'text';
  return `${cells.others.toLocaleString('en-US')} of its cells are not amounts`;
}

/** Words that name money in a column's name, wherever they stand (`royalt` is royalty and royalties). */
const MONEY_WORDS = ['revenue', 'amount', 'royalt', 'gross', 'net', 'fee', 'cost', 'price', 'payable'];

/**
 * A summed column shown as money on a terminal (its currency's decimals, grouped); a sum with cents
 * is money too, whatever its name. Taxes and payments are not named here: a whole-number one reads
 * as a count.
 */
export const SHOWN_AS_MONEY = new RegExp(MONEY_WORDS.join('|'), 'i');

/** A lines export's money columns (converted by --to, kept to cents in files); its other numbers (units) are counts. */
export const MONEY_COLUMN = new RegExp([...MONEY_WORDS, 'tax', 'paid', 'earn'].join('|'), 'i');

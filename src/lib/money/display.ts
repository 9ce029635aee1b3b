// Amounts and rates as a person reads them on a terminal: `72,603.20` (the currency's own
// decimals, grouped) and `18 %`. Only the terminal views use this: pipes and the data formats keep
// the number exactly as the service sent it.
import { readDecimal } from './amount.js';

/** A number from the service: a JSON number, or a numeric string (`"63170.18"`). */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const number = Number(value.trim());
  return Number.isFinite(number) ? number : undefined;
}

const decimalsByCurrency = new Map<string, number>();

/** How many decimals the currency's amounts have (2 for EUR, 0 for JPY); 2 when it is unknown. */
export function currencyDecimals(currency: unknown): number {
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) return 2;
  const code = currency.toUpperCase();
  let decimals = decimalsByCurrency.get(code);
  if (decimals === undefined) {
    try {
      decimals =
        new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().minimumFractionDigits ??
        2;
    } catch {
      decimals = 2;
    }
    decimalsByCurrency.set(code, decimals);
  }
  return decimals;
}

/**
 * An amount with its currency's decimals and grouping, without the currency (a header or a column
 * says it): `72,603.20`. A value that is not a number is given back as text, unchanged.
 */
export function formatAmount(value: unknown, currency?: unknown): string {
  const number = asNumber(value);
  if (number === undefined) return value === undefined || value === null ? '' : String(value);
  const decimals = currencyDecimals(currency);
  // An exact decimal's text is formatted as the decimal it is (Intl reads a string exactly): a sum
  // past 2^53 prints every digit, never the nearest double's.
  const exact = typeof value === 'string' ? readDecimal(value) : undefined;
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    exact === undefined ? number : (exact as `${number}`),
  );
}

/** An amount and its currency: `72,603.20 EUR` (the amount alone when there is no currency). */
export function formatMoney(value: unknown, currency?: unknown): string {
  const amount = formatAmount(value, currency);
  return amount !== '' && typeof currency === 'string' && currency !== '' ? `${amount} ${currency}` : amount;
}

/**
 * A rate in percent as `18 %`: a number of percentage points, or a string the service wrote with
 * its sign (`"15%"`). Anything else is given back as text.
 */
export function formatPercent(value: unknown): string {
  const points = asNumber(typeof value === 'string' ? value.replace(/\s*%\s*$/, '') : value);
  if (points === undefined) return value === undefined || value === null ? '' : String(value);
  return `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 }).format(points)} %`;
}

/** A count grouped: `12,345`. */
export function formatCount(value: unknown): string {
  const number = asNumber(value);
  if (number === undefined) return value === undefined || value === null ? '' : String(value);
  return new Intl.NumberFormat('en-US').format(number);
}

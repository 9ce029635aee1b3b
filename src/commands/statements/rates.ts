// A reporting currency, explicitly: `--rates FILE --to CUR`. The file is CSV, `currency,rate[,period]`
// (an optional header line), where 1 unit of `currency` is `rate` units of CUR; a rate with a period
// applies to statements whose period lies within it (the narrowest such rate wins), one without to
// every other. Amounts are multiplied exactly, added exactly, and rounded once at the end to CUR's
// minor unit, half away from zero. A currency with no rate for a period is refused (exit 2).
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../lib/errors.js';
import { currencyDecimals } from '../../lib/money/display.js';
import { type Decimal, decimalOf, decimalText, decimalValue, multiply, add, rounded } from '../../lib/money/decimal.js';
import { normalizeCurrency } from '../../lib/transfer/formats.js';
import type { GroupRecord } from './groups.js';
import { periodSpan, parseRange, type PeriodRange, within } from './periods.js';

export interface Rate {
  currency: string;
  rate: Decimal;
  period?: PeriodRange;
}

export interface RateTable {
  to: string;
  rates: Rate[];
  /** Where they came from, for messages: the file's name, or `rates` (an MCP call's). */
  source: string;
}

/** One rate's line as the answer names it: `USD 0.92` or `USD 0.92 (2024Q1)`. */
export const rateLabel = (rate: Rate): string =>
  `${rate.currency} ${decimalText(rate.rate)}${rate.period ? ` (${rate.period.label})` : ''}`;

/** Checks one rate as given (file line or MCP pair); `where` names it in the error. */
export function rateOf(currency: string, rate: string, period: string | undefined, where: string): Rate {
  const code = normalizeCurrency(currency);
  if (code === undefined) throw new UsageError(`${where}: '${currency}' is not a currency code such as USD`);
  const value = decimalOf(rate);
  if (value === undefined || value.units <= 0n)
    throw new UsageError(`${where}: the rate '${rate}' is not a positive decimal number such as 0.92`);
  if (period === undefined || period.trim() === '') return { currency: code, rate: value };
  return { currency: code, rate: value, period: parseRange(period.trim(), `${where}: period`) };
}

/** The rates of a CSV text; a usage error naming the line of the first bad one. */
export function parseRates(text: string, source: string): Rate[] {
  const rates: Rate[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/^\uFEFF/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    const cells = line.split(',').map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
    if (i === 0 && cells[0]?.toLowerCase() === 'currency') return;
    const where = `${source} line ${i + 1}`;
    if (cells.length < 2 || cells.length > 3) throw new UsageError(`${where}: expected currency,rate[,period]`);
    const rate = rateOf(cells[0] as string, cells[1] as string, cells[2], where);
    const key = `${rate.currency} ${rate.period?.label ?? ''}`;
    if (seen.has(key)) throw new UsageError(`${where}: a second rate for ${key.trim()}`);
    seen.add(key);
    rates.push(rate);
  });
  if (rates.length === 0) throw new UsageError(`${source}: no rates (expected lines of currency,rate[,period])`);
  return rates;
}

/** `--rates FILE --to CUR`, read and checked before anything is asked of the service. */
export async function readRateTable(file: string, to: string): Promise<RateTable> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    throw new UsageError(`cannot read --rates '${file}'${code ? ` (${code})` : ''}`);
  }
  return { to: checkTo(to), rates: parseRates(text, file), source: file };
}

export function checkTo(to: string): string {
  const code = normalizeCurrency(to);
  if (code === undefined) throw new UsageError(`invalid --to '${to}': expected an ISO 4217 code such as EUR`);
  return code;
}

/** The rate for a currency in a period: the narrowest rate whose period holds it, else the one without. */
export function findRate(table: RateTable, currency: string, period: string | undefined): Rate | undefined {
  const span = periodSpan(period);
  let best: Rate | undefined;
  for (const rate of table.rates) {
    if (rate.currency !== currency) continue;
    if (rate.period === undefined) {
      best ??= rate;
      continue;
    }
    if (!within(span, rate.period.span)) continue;
    const width = rate.period.span.to - rate.period.span.from;
    const bestWidth = best?.period === undefined ? Infinity : best.period.span.to - best.period.span.from;
    if (width < bestWidth) best = rate;
  }
  if (best === undefined && currency === table.to) return { currency, rate: { units: 1n, scale: 0 } };
  return best;
}

export interface ConvertInput {
  /** The fields that key a converted group (currency and the period read for rates excluded). */
  keys: string[];
  /** Where each record's period is read (a key, or a field added only for the rates). */
  periodField: string | undefined;
  /** The money columns, converted; every other number is a count, added as it is. */
  amounts: string[];
  counts: string[];
}

interface Merged {
  record: GroupRecord;
  sums: Map<string, Decimal>;
  used: Set<string>;
}

/**
 * Every record's amounts in the reporting currency, records that now share their keys added
 * together, each amount rounded once at the end; each record names the rates it used (`rates`).
 */
export function convertRecords(records: readonly GroupRecord[], table: RateTable, input: ConvertInput): GroupRecord[] {
  const groups = new Map<string, Merged>();
  const scale = currencyDecimals(table.to);
  for (const record of records) {
    const currency = String(record.currency ?? '');
    const period = input.periodField === undefined ? undefined : (record[input.periodField] as string | undefined);
    const rate = findRate(table, currency, period ?? undefined);
    if (rate === undefined)
      throw new UsageError(
        `no rate for ${currency || 'an empty currency'}${period ? ` in ${period}` : ''} in ${table.source}: add a line ${currency},RATE${period ? `,${period}` : ''} (1 ${currency} = RATE ${table.to})`,
      );
    const key = input.keys.map((name) => String(record[name] ?? '')).join('\u0000');
    let merged = groups.get(key);
    if (merged === undefined) {
      merged = { record: emptyLike(record, table.to, input), sums: new Map(), used: new Set() };
      groups.set(key, merged);
    }
    mergeInto(merged, record, rate, input);
  }
  return [...groups.values()].map(({ record, sums, used }) => {
    for (const [name, sum] of sums) record[name] = decimalValue(rounded(sum, scale));
    record.rates = [...used];
    return record;
  });
}

/** A record with the fields of `record` in its order: its keys, the reporting currency, nothing added yet. */
function emptyLike(record: GroupRecord, to: string, input: ConvertInput): GroupRecord {
  const fresh: GroupRecord = {};
  for (const [name, value] of Object.entries(record)) {
    if (name === input.periodField && !input.keys.includes(name)) continue;
    if (name === 'currency') fresh.currency = to;
    else if (input.counts.includes(name) || input.amounts.includes(name)) fresh[name] = 0;
    else if (name === 'first_period' || name === 'last_period') fresh[name] = null;
    else fresh[name] = value;
  }
  return fresh;
}

function mergeInto(merged: Merged, record: GroupRecord, rate: Rate, input: ConvertInput): void {
  const target = merged.record;
  for (const name of input.counts) {
    if (!(name in record)) continue;
    target[name] = Number(target[name] ?? 0) + Number(record[name] ?? 0);
  }
  for (const name of input.amounts) {
    const value = decimalOf(record[name]);
    if (value === undefined) continue;
    const converted = multiply(value, rate.rate);
    const sum = merged.sums.get(name);
    merged.sums.set(name, sum === undefined ? converted : add(sum, converted));
  }
  for (const [name, pick] of [
    ['first_period', -1],
    ['last_period', 1],
  ] as const) {
    const value = record[name];
    if (typeof value !== 'string') continue;
    const mine = target[name];
    const span = periodSpan(value);
    const current = typeof mine === 'string' ? periodSpan(mine) : undefined;
    if (span === undefined) continue;
    if (current === undefined || (pick < 0 ? span.from < current.from : span.to > current.to)) target[name] = value;
  }
  merged.used.add(rateLabel(rate));
}

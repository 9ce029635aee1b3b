// The one rule for reading an amount, wherever it comes from (a statement's financials, a cell of
// its lines export, an MCP answer): it is read exactly, as a plain decimal, or it is unreadable.
// Readable: a decimal string in ASCII digits (`-12.50`, `42`, `+3`, `.5` and `5.` too, which are
// exact and mean one thing; spaces around it are dropped) or a JSON number, taken as its shortest
// decimal form; a JSON number a double cannot hold (1e400, 1e-400, 12345678901234567890123) is
// read from the text the service wrote (json-numbers.ts), never from the Infinity, 0 or rounded
// double JSON.parse made of it. Unreadable: anything else (`1,234.56`, `NaN`, full-width or
// Arabic-Indic digits, an exponent in text, `0x10`, a lone space, true, an object, `[1]`) and any
// amount of more than MAX_DIGITS significant digits (so 1e400 and 1e-400). An unreadable amount is
// never a zero: the caller names it.

import { canonicalNumber, numberText } from '../json-numbers.js';

/** Past this many significant digits (whole part without its leading zeros, and every decimal), an amount is unreadable. */
export const MAX_DIGITS = 40;

/** A text longer than this cannot be a readable amount (so no pattern ever runs over a huge cell). */
const MAX_LENGTH = MAX_DIGITS + 48;

/** The common case, already in the plain form: a sign, digits, maybe a point and digits. */
const PLAIN = /^-?(?:0|[1-9]\d{0,39})(?:\.\d{1,40})?$/;
/** Every decimal form read: an optional sign, digits on either side of an optional point. */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * The amount `text` says, in its plain form (`-12.50`, `0.5`, `5`), or undefined when it is not
 * an amount by the rule above. An empty text is no amount either: callers tell "empty" apart.
 */
export function readDecimal(text: string): string | undefined {
  if (text.length > MAX_LENGTH) return undefined;
  if (PLAIN.test(text)) return significant(text) <= MAX_DIGITS ? text : undefined;
  const trimmed = text.trim();
  if (!startsAmount(trimmed.charCodeAt(0))) return undefined;
  const match = DECIMAL.exec(trimmed);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction] = match;
  if (whole === '' && (fraction === undefined || fraction === '')) return undefined;
  const digits = whole.replace(/^0+(?=\d)/, '') || '0';
  const plain = `${sign === '-' ? '-' : ''}${digits}${fraction ? `.${fraction}` : ''}`;
  return significant(plain) <= MAX_DIGITS ? plain : undefined;
}

/** Whether a character can start an amount (a digit, a sign, a point): text is told apart without a pattern. */
function startsAmount(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
}

/** Digits that count towards MAX_DIGITS: the whole part without its leading zeros, and every decimal. */
function significant(plain: string): number {
  const unsigned = plain.startsWith('-') ? plain.slice(1) : plain;
  const point = unsigned.indexOf('.');
  const whole = point < 0 ? unsigned : unsigned.slice(0, point);
  const decimals = point < 0 ? 0 : unsigned.length - point - 1;
  return whole.replace(/^0+/, '').length + decimals;
}

/** A JSON number as its shortest decimal, written out without an exponent; undefined when not finite. */
export function numberDecimal(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (exponent === null) return readDecimal(text);
  const [, sign = '', first = '', rest = '', power = '0'] = exponent;
  const digits = first + rest;
  const point = 1 + Number(power);
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return readDecimal(sign + plain);
}

/** What an amount from the service is: its plain decimal, absent (null, missing, empty text), or unreadable. */
export type Amount = { kind: 'amount'; decimal: string } | { kind: 'absent' } | { kind: 'unreadable'; shown: string };

/**
 * Reads any value the service gave as an amount (a financials field, a cell); `written` is the text
 * of a JSON number JSON.parse could not read exactly (numberText), read in its place.
 */
export function readAmount(value: unknown, written?: string): Amount {
  if (value === null || value === undefined || value === '') return { kind: 'absent' };
  if (typeof value === 'number' && written !== undefined) {
    const decimal = writtenDecimal(written);
    return decimal === undefined ? { kind: 'unreadable', shown: cut(written) } : { kind: 'amount', decimal };
  }
  const decimal =
    typeof value === 'number' ? numberDecimal(value) : typeof value === 'string' ? readDecimal(value) : undefined;
  return decimal === undefined ? { kind: 'unreadable', shown: shownValue(value) } : { kind: 'amount', decimal };
}

/** The amount of a record's field (a statement's financials): a JSON number read from the text the service wrote. */
export function readField(record: object, key: string): Amount {
  return readAmount((record as Record<string, unknown>)[key], numberText(record, key));
}

/** A JSON number's text as a plain decimal, when it has at most MAX_DIGITS significant digits. */
function writtenDecimal(written: string): string | undefined {
  const canonical = canonicalNumber(written);
  if (canonical === undefined) return undefined;
  if (canonical === '0') return '0';
  const [, sign = '', digits = '', power = '0'] = /^(-?)(\d+)e(-?\d+)$/.exec(canonical) ?? [];
  const exponent = BigInt(power);
  // Past the limit either way: zeros to write before the point, or decimals after it.
  if (exponent > BigInt(MAX_DIGITS) || -exponent > BigInt(MAX_DIGITS)) return undefined;
  const places = Number(exponent);
  const plain =
    places >= 0
      ? digits + '0'.repeat(places)
      : digits.length > -places
        ? `${digits.slice(0, places)}.${digits.slice(places)}`
        : `0.${'0'.repeat(-places - digits.length)}${digits}`;
  return readDecimal(sign + plain);
}

/** An unreadable value as a problem names it: JSON's form, cut short (a huge cell is not repeated whole). */
export function shownValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return cut(text);
}

/** A text as a problem names it: cut short past 40 characters (a huge cell is not repeated whole). */
function cut(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}… (${text.length.toLocaleString('en-US')} characters)` : text;
}

/** Whether a cell is a plain number a spreadsheet reads as one (`-5.25`, `.5`, `1e3`): never a formula. */
export function isPlainNumber(text: string): boolean {
  return text.length <= MAX_LENGTH && /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text);
}

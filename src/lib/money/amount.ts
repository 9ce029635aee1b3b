// The one rule for reading an amount, wherever it comes from (a statement's financials, a cell of
// its lines export, an MCP answer): it is read exactly, as a plain decimal, or it is unreadable.
// Readable: a decimal string in ASCII digits (`-12.50`, `42`, `+3`, `.5` and `5.` too, which are
// exact and mean one thing; spaces around it are dropped) or a JSON number, taken as its shortest
// decimal form. Unreadable: anything else (`1,234.56`, `NaN`, full-width or Arabic-Indic digits,
// an exponent in text, `0x10`, a lone space, true, an object, `[1]`, a number too large for a
// double such as 1e400) and any amount of more than MAX_DIGITS significant digits. An unreadable
// amount is never a zero: the caller names it.

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

/** Reads any value the service gave as an amount (a financials field, a cell). */
export function readAmount(value: unknown): Amount {
  if (value === null || value === undefined || value === '') return { kind: 'absent' };
  const decimal =
    typeof value === 'number' ? numberDecimal(value) : typeof value === 'string' ? readDecimal(value) : undefined;
  return decimal === undefined ? { kind: 'unreadable', shown: shownValue(value) } : { kind: 'amount', decimal };
}

/** An unreadable value as a problem names it: JSON's form, cut short (a huge cell is not repeated whole). */
export function shownValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 37)}… (${text.length.toLocaleString('en-US')} characters)` : text;
}

/** Whether a cell is a plain number a spreadsheet reads as one (`-5.25`, `.5`, `1e3`): never a formula. */
export function isPlainNumber(text: string): boolean {
  return text.length <= MAX_LENGTH && /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text);
}

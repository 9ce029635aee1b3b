// Exact sums of decimal numbers as the service writes them ("1234.56", "-0.5", "42"): whole units
// at the finest scale seen, so money never picks up a float tail (0.1 + 0.2 is 0.3 here). A sum is
// kept in a Number while it is exactly representable (the common case, and fast over a million
// cells) and moved to a BigInt before it could lose a digit. A decimal library was measured first:
// building one of its numbers per cell made a million-line roll-up several times slower.
import { readDecimal } from './amount.js';

/** Past this, a Number sum of whole units might no longer be exact: it moves to the BigInt. */
const SAFE = 2 ** 52;
/** 10 ** n for the scales a Number sum is kept at (at most 15 digits). */
const POWERS = Array.from({ length: 16 }, (_, n) => 10 ** n);
/** Digits a cell read without making a string may have: below 10^15, exact in a Number. */
const MAX_SHORT_DIGITS = 15;
/** A sign, 15 digits and a point. */
const MAX_SHORT_CHARS = MAX_SHORT_DIGITS + 2;
const MINUS = 45;
const POINT = 46;
const ZERO = 48;
const NINE = 57;

/** Whether a cell is an amount by the one rule (amount.ts): never a word, an exponent, a lone space. */
export function isDecimal(text: string): boolean {
  return readDecimal(text) !== undefined;
}

export class ExactSum {
  /** The digits after the point that the whole units stand for. */
  private scale = 0;
  private big = 0n;
  private small = 0;

  /** Adds an amount's text; false (and nothing added) when it is unreadable (amount.ts). */
  add(cell: string): boolean {
    if (this.addShort(cell)) return true;
    const text = readDecimal(cell);
    if (text === undefined) return false;
    this.addPlain(text);
    return true;
  }

  /**
   * The common cell read without making a string: `-?digits[.digits]` of at most 15 digits (so its
   * whole units are exact in a Number). False, with nothing added, for anything else: `add` then
   * reads it by the one rule (a sign `+`, spaces, 16 digits or more, and what is unreadable).
   */
  private addShort(cell: string): boolean {
    const n = cell.length;
    if (n === 0 || n > MAX_SHORT_CHARS) return false;
    let i = cell.charCodeAt(0) === MINUS ? 1 : 0;
    let units = 0;
    let digits = 0;
    let point = -1;
    for (; i < n; i++) {
      const c = cell.charCodeAt(i);
      if (c >= ZERO && c <= NINE) {
        units = units * 10 + (c - ZERO);
        digits++;
      } else if (c === POINT && point < 0) point = digits;
      else return false;
    }
    if (digits === 0 || digits > MAX_SHORT_DIGITS) return false;
    const fraction = point < 0 ? 0 : digits - point;
    if (fraction > this.scale) this.rescale(fraction);
    const shift = this.scale - fraction;
    const signed = cell.charCodeAt(0) === MINUS ? -units : units;
    // Below 10^15 the product is an exact Number; past it the units go to the BigInt.
    if (digits + shift <= MAX_SHORT_DIGITS) {
      this.small += signed * (POWERS[shift] as number);
      if (Math.abs(this.small) >= SAFE) this.flush();
    } else this.big += BigInt(signed) * 10n ** BigInt(shift);
    return true;
  }

  /** Adds an amount already in its plain form (readDecimal's answer). */
  addPlain(text: string): void {
    const point = text.indexOf('.');
    const fraction = point < 0 ? 0 : text.length - point - 1;
    if (fraction > this.scale) this.rescale(fraction);
    // At most 15 characters at the sum's scale (so at most 15 digits), the nearest double to the text
    // times a power of ten is within a quarter unit of the whole units: rounding gives them exactly.
    if (text.length + this.scale - fraction <= 15) {
      this.small += Math.round(Number(text) * (POWERS[this.scale] as number));
      if (Math.abs(this.small) >= SAFE) this.flush();
    } else {
      const negative = text.startsWith('-');
      const whole = text.slice(negative ? 1 : 0, point < 0 ? undefined : point);
      const digits = point < 0 ? '' : text.slice(point + 1);
      const units = BigInt(whole + digits.padEnd(this.scale, '0'));
      this.big += negative ? -units : units;
    }
  }

  /** Adds another sum (the same column of another group). */
  addSum(other: ExactSum): void {
    this.addPlain(other.toString());
  }

  private flush(): void {
    this.big += BigInt(this.small);
    this.small = 0;
  }

  private rescale(scale: number): void {
    this.flush();
    this.big *= 10n ** BigInt(scale - this.scale);
    this.scale = scale;
  }

  /** Whole units at `scale` digits, as a BigInt (to compare two sums). */
  unitsAt(scale: number): bigint {
    const total = this.big + BigInt(this.small);
    return scale >= this.scale ? total * 10n ** BigInt(scale - this.scale) : total / 10n ** BigInt(this.scale - scale);
  }

  get digits(): number {
    return this.scale;
  }

  /** The sum as a plain decimal with at least `scale` digits after the point. */
  atScale(scale: number): string {
    const digits = Math.max(scale, this.scale);
    return plainDecimal(this.unitsAt(digits), digits);
  }

  /** The sum as a plain decimal: no exponent, no grouping, trailing zeros of the scale kept. */
  toString(): string {
    return plainDecimal(this.unitsAt(this.scale), this.scale);
  }

  /** The sum as a JSON number when that number prints back as the same decimal, else its text. */
  toNumber(): number | string {
    const text = this.toString();
    const trimmed = this.scale === 0 ? text : text.replace(/\.?0+$/, '');
    return String(Number(text)) === trimmed ? Number(text) : text;
  }
}

function plainDecimal(units: bigint, scale: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const point = digits.length - scale;
  const plain = scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return units < 0n ? `-${plain}` : plain;
}

/** `a - b`, exactly, at the finer of their scales, as a plain decimal. */
export function difference(a: ExactSum, b: ExactSum): string {
  const scale = Math.max(a.digits, b.digits);
  return plainDecimal(a.unitsAt(scale) - b.unitsAt(scale), scale);
}

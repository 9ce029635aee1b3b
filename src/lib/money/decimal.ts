// Exact decimals as whole units at a scale (a BigInt and a count of digits after the point), for
// what a sum alone does not do: a change, a percentage, an amount times a rate, and one rounding at
// the end. The rounding rule is half away from zero (Excel's ROUND): 0.125 is 0.13, -0.125 is -0.13.

export interface Decimal {
  units: bigint;
  scale: number;
}

const PLAIN = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** A decimal from a number or numeric text as a record holds it; undefined for anything else. */
export function decimalOf(value: unknown): Decimal | undefined {
  let text = typeof value === 'number' ? numberText(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined) return undefined;
  if (text.startsWith('+')) text = text.slice(1);
  const match = PLAIN.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  const units = BigInt(whole + fraction);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

/** A finite number's digits without an exponent (1e-7 is 0.0000001). */
function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

/** The same value at a finer scale. */
export function atScale(d: Decimal, scale: number): bigint {
  return scale >= d.scale ? d.units * 10n ** BigInt(scale - d.scale) : roundUnits(d.units, d.scale - scale);
}

/** `units / 10**digits`, rounded half away from zero. */
function roundUnits(units: bigint, digits: number): bigint {
  return divideRounded(units, 10n ** BigInt(digits));
}

/** `n / d` rounded half away from zero (d not zero). */
export function divideRounded(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (a * 2n + b) / (b * 2n);
  return negative ? -q : q;
}

export const add = (a: Decimal, b: Decimal): Decimal => {
  const scale = Math.max(a.scale, b.scale);
  return { units: atScale(a, scale) + atScale(b, scale), scale };
};

export const subtract = (a: Decimal, b: Decimal): Decimal => add(a, { units: -b.units, scale: b.scale });

export const multiply = (a: Decimal, b: Decimal): Decimal => ({ units: a.units * b.units, scale: a.scale + b.scale });

/** Rounded to `scale` digits after the point, half away from zero. */
export const rounded = (d: Decimal, scale: number): Decimal => ({ units: atScale(d, scale), scale });

/** `(a - b) / |b|` in percent, `digits` after the point; undefined when b is zero. */
export function percentChange(a: Decimal, b: Decimal, digits = 1): Decimal | undefined {
  if (b.units === 0n) return undefined;
  const scale = Math.max(a.scale, b.scale);
  const change = atScale(a, scale) - atScale(b, scale);
  const base = atScale(b, scale);
  const units = divideRounded(change * 100n * 10n ** BigInt(digits), base < 0n ? -base : base);
  return { units, scale: digits };
}

/** The plain text: no exponent, no grouping, every digit of the scale. */
export function decimalText(d: Decimal): string {
  const digits = (d.units < 0n ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const point = digits.length - d.scale;
  const plain = d.scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return d.units < 0n ? `-${plain}` : plain;
}

/** As data formats write every amount: its exact text, scale kept (a string in JSON, as sums are). */
export function decimalValue(d: Decimal): string {
  return decimalText(d);
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

// Exact decimal sums: what the statements roll-ups add money with.
import { describe, expect, it } from 'vitest';
import { difference, ExactSum, isDecimal } from '../../src/lib/money/exact-sum.js';

const sumOf = (...cells: string[]) => {
  const sum = new ExactSum();
  for (const cell of cells) sum.add(cell);
  return sum;
};

describe('ExactSum', () => {
  it('adds decimals without a float tail, at the finest scale seen', () => {
    expect(sumOf('0.1', '0.2').toString()).toBe('0.3');
    expect(sumOf('0.1', '0.2').toNumber()).toBe(0.3);
    expect(sumOf('100', '5').toString()).toBe('105');
    expect(sumOf('100', '5').toNumber()).toBe(105);
    expect(sumOf('1.5', '2.25', '-4').toString()).toBe('-0.25');
    expect(sumOf('12.30', '0.70').toString()).toBe('13.00');
    expect(sumOf('12.30', '0.70').toNumber()).toBe(13);
  });
  it('stays exact past what a Number holds', () => {
    const sum = sumOf(...Array.from({ length: 20 }, () => '999999999999999.99'));
    expect(sum.toString()).toBe('19999999999999999.80');
    expect(sum.toNumber()).toBe('19999999999999999.80');
    expect(sumOf('123456789012345678901.5', '0.5').toString()).toBe('123456789012345678902.0');
  });
  it('refuses what is not an amount, adding nothing; reads .5 and 5. as the decimals they are', () => {
    const sum = new ExactSum();
    for (const cell of ['', ' ', 'GB', '1e3', '1,000', 'NaN', '0x10', '１２', '١٢']) expect(sum.add(cell)).toBe(false);
    expect(sum.toString()).toBe('0');
    expect(isDecimal('-3.25')).toBe(true);
    expect(sum.add('.5')).toBe(true);
    expect(sum.add('3.')).toBe(true);
    expect(sum.toString()).toBe('3.5');
  });
  it('gives the exact difference of two sums', () => {
    expect(difference(sumOf('10.05'), sumOf('10'))).toBe('0.05');
    expect(difference(sumOf('1'), sumOf('1.001'))).toBe('-0.001');
    expect(difference(sumOf('2.50'), sumOf('2.5'))).toBe('0.00');
  });
});

describe('ExactSum over many cells', () => {
  it('matches a BigInt sum of whole units for 20,000 random decimals of up to 15 digits', () => {
    let state = 39;
    const next = (below: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return Math.floor((state / 2147483648) * below);
    };
    const sum = new ExactSum();
    let cents = 0n;
    for (let i = 0; i < 20000; i++) {
      const units = BigInt(next(10 ** 9)) * BigInt(next(10 ** 4) + 1);
      const negative = next(3) === 0;
      const whole = (units / 100n).toString();
      const cell = `${negative ? '-' : ''}${whole}.${(units % 100n).toString().padStart(2, '0')}`;
      expect(sum.add(cell)).toBe(true);
      cents += negative ? -units : units;
    }
    const text = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
    expect(sum.toString()).toBe(`${cents < 0n ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}`);
  });
});

describe('ExactSum read without making strings (cells of at most 15 digits)', () => {
  /** The exact sum of plain decimals, by BigInt alone: the reference. */
  function reference(cells: string[]): string {
    const scale = Math.max(0, ...cells.map((c) => (c.includes('.') ? c.length - c.indexOf('.') - 1 : 0)));
    let units = 0n;
    for (const cell of cells) {
      const negative = cell.startsWith('-');
      const [whole = '', fraction = ''] = cell.replace('-', '').split('.');
      const value = BigInt((whole || '0') + fraction.padEnd(scale, '0'));
      units += negative ? -value : value;
    }
    const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
    const plain = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return units < 0n ? `-${plain}` : plain;
  }

  it('stays exact across 2^53 in whole units, up and back down, at scales that grow mid-way', () => {
    const top = '9007199254740.991'; // 2^53 - 1 thousandths
    const cells = [top, '0.001', '0.001', '-0.002', top, top, '-9007199254740.993', '0.0000001', '-1'];
    expect(sumOf(...cells).toString()).toBe(reference(cells));
    expect(sumOf('4503599627370496', '1').toString()).toBe('4503599627370497'); // 2^52 + 1: 16 digits
    expect(sumOf('999999999999999', '1').toString()).toBe('1000000000000000'); // 15 digits, then past
    expect(sumOf('-999999999999999', '-999999999999999', '1').toString()).toBe('-1999999999999997');
    expect(sumOf('0.000000000000001', '0.000000000000009').toString()).toBe('0.000000000000010');
  });

  it('reads a negative zero, leading zeros, .5, 5. and -.5 as the one rule does', () => {
    expect(sumOf('-0.00', '0').toString()).toBe('0.00');
    expect(sumOf('007', '-.5', '5.', '.25').toString()).toBe('11.75');
    for (const cell of ['-', '.', '-.', '1.2.3', '--1', '1-', '+', '']) expect(new ExactSum().add(cell)).toBe(false);
  });

  it('reads 40 significant digits and refuses 41, adding nothing', () => {
    const forty = `${'9'.repeat(20)}.${'9'.repeat(20)}`;
    const sum = new ExactSum();
    expect(sum.add(forty)).toBe(true);
    expect(sum.add(`1${forty}`)).toBe(false);
    expect(sum.add(`-0.${'1'.repeat(41)}`)).toBe(false);
    expect(sum.add('0.5')).toBe(true);
    expect(sum.toString()).toBe(reference([forty, '0.5']));
  });

  it('matches the BigInt reference over 20,000 cells of 1 to 18 digits, signs and scales mixed', () => {
    let state = 71;
    const next = (below: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return Math.floor((state / 2147483648) * below);
    };
    const cells: string[] = [];
    for (let i = 0; i < 20000; i++) {
      const length = 1 + next(18);
      let digits = '';
      for (let d = 0; d < length; d++) digits += String(next(10));
      const point = next(length + 1);
      const text = point === 0 || point === length ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
      cells.push(next(3) === 0 ? `-${text}` : text);
    }
    const sum = new ExactSum();
    for (const cell of cells) expect(sum.add(cell)).toBe(true);
    expect(sum.toString()).toBe(reference(cells));
  });
});

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

import { describe, expect, it } from 'vitest';
import {
  asNumber,
  currencyDecimals,
  formatAmount,
  formatCount,
  formatMoney,
  formatPercent,
} from '../../src/lib/money/display.js';

describe('money on a terminal', () => {
  it("gives an amount its currency's decimals, grouped", () => {
    expect(formatAmount(72603.2, 'EUR')).toBe('72,603.20');
    expect(formatAmount('63170.18', 'USD')).toBe('63,170.18');
    expect(formatAmount(1234567, 'SEK')).toBe('1,234,567.00');
    expect(formatAmount(1234.5, 'JPY')).toBe('1,235');
    expect(formatAmount(-5.1, 'EUR')).toBe('-5.10');
    expect(formatAmount(12.5)).toBe('12.50');
  });
  it('leaves what is not a number as it came', () => {
    expect(formatAmount('n/a', 'EUR')).toBe('n/a');
    expect(formatAmount(null, 'EUR')).toBe('');
    expect(formatAmount(undefined)).toBe('');
    expect(asNumber('')).toBeUndefined();
    expect(asNumber(Number.NaN)).toBeUndefined();
  });
  it('knows decimals from Intl, 2 for an unknown or malformed code', () => {
    expect(currencyDecimals('EUR')).toBe(2);
    expect(currencyDecimals('jpy')).toBe(0);
    expect(currencyDecimals('KWD')).toBe(3);
    expect(currencyDecimals('E1')).toBe(2);
    expect(currencyDecimals(undefined)).toBe(2);
  });
  it('puts the currency after the amount', () => {
    expect(formatMoney(100, 'GBP')).toBe('100.00 GBP');
    expect(formatMoney(100)).toBe('100.00');
    expect(formatMoney(null, 'GBP')).toBe('');
  });
  it('reads a rate as percent', () => {
    expect(formatPercent(18)).toBe('18 %');
    expect(formatPercent('15%')).toBe('15 %');
    expect(formatPercent('12.5 %')).toBe('12.5 %');
    expect(formatPercent('about half')).toBe('about half');
    expect(formatCount(12345)).toBe('12,345');
  });
});

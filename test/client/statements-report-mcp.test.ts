// The report parameters of the MCP roll-up tools over the built `pds mcp`, against the deployed
// emulator: calendar buckets in `by` (a coarser statement named in `incomplete`), `compare`, the
// `columns` pivot and inline `rates` with `to`. Expected figures are added here in integer cents
// (BigInt where a rate multiplies them) from what the emulator's store holds, never by pds's code.
// The fixture is the CLI report test's: four USD statements moved to 2021 (Q1, Q2, H2) and 2020 (Y).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedStatement, isProcessed, statementLines } from '../../src/emulator/deployed/statements.js';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { StatementRecord } from '../../src/emulator/store.js';
import { decimalText, rounded } from '../../src/lib/money/decimal.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { connectMcp, type Connected, type ToolResult } from '../helpers/mcp.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
let mcp: Connected;
const data = () => emulator.state.data[DEMO_PROJECT_ID]!;
const processed = () => data().statements.filter(isProcessed);
const cents = (amount: unknown) => Math.round(Number(amount) * 100);
const money = (c: number) => (c / 100).toFixed(2);

interface Seen {
  id: number;
  period: string;
  currency: string;
  payor: string;
  licensor: number;
}
function statements(): Seen[] {
  return processed().map((s) => {
    const shown = deployedStatement(data(), s) as Record<string, unknown>;
    const f = shown.financials as Record<string, unknown>;
    return {
      id: s.id,
      period: String(f.period),
      currency: String(f.currency),
      payor: String(shown.payor ?? shown.statement_producer),
      licensor: cents(f.licensor_revenue),
    };
  });
}
const sum = (list: Seen[]) => list.reduce((n, s) => n + s.licensor, 0);

const fixture: Partial<Record<'a' | 'b' | 'c' | 'd', StatementRecord>> = {};
beforeAll(async () => {
  const [a, b, c, d] = processed().filter((s) => s.currency_royalty === 'USD');
  Object.assign(fixture, { a, b, c, d });
  a!.accounting_period = '2021Q1';
  b!.accounting_period = '2021Q2';
  c!.accounting_period = '2021H2';
  d!.accounting_period = '2020Y';
  // Pages large enough that each answer here is one page.
  mcp = await connectMcp(emulator, ['--max-results', '100'], { env: { PDS_PROJECT: DEMO_PROJECT_ID } });
});
afterAll(() => mcp.close());
const of = (name: keyof typeof fixture) => statements().find((s) => s.id === fixture[name]!.id)!;

type Answer = { items: Record<string, unknown>[]; incomplete: string[]; next_cursor: string | null };
async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}
async function answer(name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await call(name, args);
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  const structured = result.structuredContent as Answer;
  expect(structured.next_cursor).toBeNull();
  return structured;
}

describe('statements_totals with the report parameters', () => {
  it('by year adds quarters and halves into their year; by half names the year statement in incomplete', async () => {
    const [a, b, c, d] = [of('a'), of('b'), of('c'), of('d')];
    const years = await answer('statements_totals', { by: ['year'], period: '2021' });
    expect(years.items.map((r) => [r.year, r.currency, r.statements, r.licensor_revenue])).toEqual([
      ['2021Y', 'USD', 3, money(a.licensor + b.licensor + c.licensor)],
    ]);
    expect(years.incomplete).toEqual([]);
    const halves = await answer('statements_totals', { by: ['half'], period: '2020..2021' });
    expect(halves.items.map((r) => [r.half, r.statements, r.licensor_revenue])).toEqual([
      ['2021H1', 2, money(a.licensor + b.licensor)],
      ['2021H2', 1, money(c.licensor)],
    ]);
    expect(halves.incomplete).toEqual([`statement ${d.id} (2020Y) is a year: not split into half-years, left out`]);
    // With an amount that cannot be read too: both named, each once.
    fixture.a!.financials_given = { licensor_revenue: 'NaN' };
    try {
      const both = await answer('statements_totals', { by: ['half'], period: '2020..2021' });
      expect(both.incomplete).toEqual([
        `statement ${d.id} (2020Y) is a year: not split into half-years, left out`,
        `statement ${a.id}: licensor_revenue "NaN" is not an amount`,
      ]);
      expect(both.items.map((r) => [r.half, r.statements, r.licensor_revenue])).toEqual([
        ['2021H1', 2, money(b.licensor)],
        ['2021H2', 1, money(c.licensor)],
      ]);
    } finally {
      delete fixture.a!.financials_given;
    }
  });

  it('compare: 2021H2 against 2021H1, with the change and the change in %', async () => {
    const [a, b, c] = [of('a'), of('b'), of('c')];
    const now = c.licensor;
    const then = a.licensor + b.licensor;
    const { items } = await answer('statements_totals', { period: '2021H2', compare: '2021H1', currency: 'USD' });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      currency: 'USD',
      period: '2021H2',
      compared_period: '2021H1',
      licensor_revenue: money(now),
      compared_licensor_revenue: money(then),
      change: money(now - then),
      status: null,
    });
    // The change in %, to a tenth, half away from zero.
    const tenths = Math.round((Math.abs(now - then) * 1000) / then) * Math.sign(now - then);
    expect(items[0]!.change_pct).toBe((tenths / 10).toFixed(1));
  });

  it('columns: by payor, a column per year, a total column and a total row', async () => {
    const gbp = statements().filter((s) => s.currency === 'GBP');
    const years = [...new Set(gbp.map((s) => s.period.slice(0, 4)))].sort();
    const payors = new Set(gbp.map((s) => s.payor));
    const { items } = await answer('statements_totals', { by: ['payor'], columns: 'year', currency: 'GBP' });
    expect(items).toHaveLength(payors.size + 1);
    const total = items.at(-1)!;
    expect(Object.keys(total)).toEqual(['payor', 'currency', ...years.map((y) => `${y}Y`), 'total']);
    for (const y of years) expect(total[`${y}Y`]).toBe(money(sum(gbp.filter((s) => s.period.startsWith(y)))));
    expect(total.total).toBe(money(sum(gbp)));
  });

  it('rates with to convert every amount exactly, rounded once; a missing rate is an error naming it', async () => {
    const all = statements();
    const rateOf = (s: Seen) =>
      s.currency === 'EUR' ? 10000n : s.currency === 'USD' ? 9137n : s.period.startsWith('2024') ? 11713n : 11650n;
    const exact = all.reduce((n, s) => n + BigInt(s.licensor) * rateOf(s), 0n);
    const rates = [
      { currency: 'USD', rate: '0.9137' },
      { currency: 'GBP', rate: '1.1713', period: '2024' },
      { currency: 'GBP', rate: 1.165 },
    ];
    const result = await call('statements_totals', { rates, to: 'eur' });
    const { items } = result.structuredContent as Answer;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      currency: 'EUR',
      statements: all.length,
      licensor_revenue: decimalText(rounded({ units: exact, scale: 6 }, 2)),
    });
    expect(new Set(items[0]!.rates as string[])).toEqual(
      new Set(['EUR 1', 'GBP 1.165', 'GBP 1.1713 (2024Y)', 'USD 0.9137']),
    );
    expect(JSON.stringify(result.content)).toContain('converted to EUR at USD 0.9137');

    const gbp = all
      .filter((s) => s.currency === 'GBP')
      .map((s) => s.period)
      .sort()[0];
    const missing = await call('statements_totals', { by: ['payor'], rates: [rates[0]], to: 'EUR' });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain(`no rate for GBP in ${gbp} in rates`);
    const alone = await call('statements_totals', { to: 'EUR' });
    expect(alone.isError).toBe(true);
    expect(JSON.stringify(alone.content)).toContain('to needs rates');
    const bad = await call('statements_totals', { rates: [{ currency: 'USD', rate: 'zero' }], to: 'EUR' });
    expect(JSON.stringify(bad.content)).toContain("rates[0]: the rate 'zero' is not a positive decimal number");
  });
});

describe('statements_lines_rollup with the report parameters', () => {
  it('by year sums the lines of quarters and halves into their year, exactly; by half names the year', async () => {
    const linesOf = (name: keyof typeof fixture) =>
      statementLines(data(), fixture[name]!).reduce((n, line) => n + line.licensorCents, 0);
    const years = await answer('statements_lines_rollup', { by: ['year'], period: '2021' });
    expect(years.items).toHaveLength(1);
    expect(years.items[0]).toMatchObject({
      year: '2021Y',
      currency: 'USD',
      statements: 3,
      licensor_revenue: money(linesOf('a') + linesOf('b') + linesOf('c')),
    });
    const halves = await answer('statements_lines_rollup', { by: ['half'], period: '2020..2021' });
    expect(halves.items.map((r) => [r.half, r.licensor_revenue])).toEqual([
      ['2021H1', money(linesOf('a') + linesOf('b'))],
      ['2021H2', money(linesOf('c'))],
    ]);
    expect(halves.incomplete).toEqual([
      `statement ${fixture.d!.id} (2020Y) is a year: not split into half-years, left out`,
    ]);
  });
});

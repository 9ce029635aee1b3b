// From totals to a report: calendar buckets, --compare, the --columns pivot and --rates/--to, against
// the deployed emulator. Expected figures are added here in integer cents (BigInt where a rate
// multiplies them) from what the emulator's store holds, never by pds's code. A small fixture is
// set in the store first: four USD statements moved to 2021 (two quarters, a half-year) and 2020
// (a year), periods no seeded statement has, so years from quarters and halves, and a year refused
// by half-year, have exact answers of their own.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { deployedStatement, isProcessed, statementLines } from '../../src/emulator/deployed/statements.js';
import type { StatementRecord } from '../../src/emulator/store.js';
import { decimalOf, divideRounded, rounded, decimalText } from '../../src/lib/money/decimal.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const pds = (args: string[], options: { tty?: boolean; columns?: number } = {}) =>
  runCli(emulator, args, { columns: 100, ...options, env: { NO_COLOR: '1', PDS_PAGER: '' } });
const data = () => emulator.state.data[DEMO_PROJECT_ID]!;
const processed = () => data().statements.filter(isProcessed);
const cents = (amount: unknown) => Math.round(Number(amount) * 100);
/** Cents as the exact decimal pds writes in data formats: a string with two decimals. */
const money = (c: number) => (c / 100).toFixed(2);
const json = async (args: string[]) => {
  const result = await pds([...args, '--json']);
  expect(result.stderr).not.toContain('error');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
};

interface Seen {
  id: number;
  period: string;
  currency: string;
  payor: string;
  licensor: number;
  licensee: number;
}
/** Each processed statement as the service shows it: period, currency, payor, amounts in cents. */
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
      licensee: cents(f.licensee_revenue),
    };
  });
}
const sum = (list: Seen[], pick: (s: Seen) => number = (s) => s.licensor) => list.reduce((n, s) => n + pick(s), 0);
/** Tenths of a percent, half away from zero, as pds rounds the change in %. */
const pct = (now: number, then: number) => {
  const change = BigInt(now - then) * 1000n;
  const base = BigInt(Math.abs(then));
  const q = (2n * (change < 0n ? -change : change) + base) / (2n * base);
  return decimalText({ units: change < 0n ? -q : q, scale: 1 });
};

/** The fixture: a, b, c in 2021 (Q1, Q2, H2), d in 2020 (a year); a has an odd number of cents. */
const fixture: Partial<Record<'a' | 'b' | 'c' | 'd', StatementRecord>> = {};
beforeAll(() => {
  const usd = processed().filter((s) => s.currency_royalty === 'USD');
  const oddCents = (s: StatementRecord) => statementLines(data(), s).reduce((n, l) => n + l.licensorCents, 0) % 2 === 1;
  const a = usd.find(oddCents)!;
  const [b, c, d] = usd.filter((s) => s !== a);
  Object.assign(fixture, { a, b, c, d });
  a.accounting_period = '2021Q1';
  b!.accounting_period = '2021Q2';
  c!.accounting_period = '2021H2';
  d!.accounting_period = '2020Y';
});
const of = (name: keyof typeof fixture) => statements().find((s) => s.id === fixture[name]!.id)!;

describe('calendar buckets', () => {
  it('--by year adds quarters and halves into their year; --by half adds quarters into their half', async () => {
    const [a, b, c] = [of('a'), of('b'), of('c')];
    expect(await json(['statements', 'totals', '--by', 'year', '--period', '2021'])).toEqual([
      {
        year: '2021Y',
        currency: 'USD',
        statements: 3,
        licensor_revenue: money(a.licensor + b.licensor + c.licensor),
        licensee_revenue: money(a.licensee + b.licensee + c.licensee),
        first_period: '2021Q1',
        last_period: '2021H2',
      },
    ]);
    const halves = await json(['statements', 'totals', '--by', 'half', '--period', '2021Q1..2021Q4']);
    expect(halves.map((r) => [r.half, r.statements, r.licensor_revenue])).toEqual([
      ['2021H1', 2, money(a.licensor + b.licensor)],
      ['2021H2', 1, money(c.licensor)],
    ]);
    // Every year of the store, from every cadence, in time order per currency.
    const years = await json(['statements', 'totals', '--by', 'year', '--currency', 'EUR']);
    const eur = statements().filter((s) => s.currency === 'EUR');
    const want = [...new Set(eur.map((s) => s.period.slice(0, 4)))].sort();
    expect(years.map((r) => [r.year, r.licensor_revenue])).toEqual(
      want.map((y) => [`${y}Y`, money(sum(eur.filter((s) => s.period.startsWith(y))))]),
    );
  });

  it('a coarser statement asked into a finer bucket is named and left out: exit 8, the rest printed', async () => {
    const d = of('d');
    const result = await pds(['statements', 'totals', '--by', 'half', '--period', '2020..2021', '--json']);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`statement ${d.id} (2020Y) is a year: not split into half-years, left out`);
    const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(rows.map((r) => r.half)).toEqual(['2021H1', '2021H2']);
  });

  it('a coarser statement left out and an amount that cannot be read: exit 8 names both, each once', async () => {
    const [a, b, c, d] = [of('a'), of('b'), of('c'), of('d')];
    const spoiled = fixture.a!;
    spoiled.financials_given = { licensor_revenue: 'NaN' };
    emulator.storage.faults.exports = new Map([[b.id, { text: 'territory,licensor_revenue\nGB,1.00\nFR,"1,5"\n' }]]);
    try {
      const totals = await pds(['statements', 'totals', '--by', 'half', '--period', '2020..2021', '--json']);
      expect(totals.code).toBe(8);
      expect(JSON.parse(totals.stderr.trim().split('\n').pop()!).error).toEqual({
        status: null,
        message: 'the answer is not whole: 2 problems',
        details: [
          `statement ${d.id} (2020Y) is a year: not split into half-years, left out`,
          `statement ${a.id}: licensor_revenue "NaN" is not an amount`,
        ],
      });
      // a's licensee revenue is still added; its licensor revenue is not, and never as a zero.
      expect(
        (JSON.parse(totals.stdout) as Record<string, unknown>[]).map((r) => [
          r.half,
          r.statements,
          r.licensor_revenue,
          r.licensee_revenue,
        ]),
      ).toEqual([
        ['2021H1', 2, money(b.licensor), money(a.licensee + b.licensee)],
        ['2021H2', 1, money(c.licensor), money(c.licensee)],
      ]);
      const lines = await pds([
        'statements',
        'lines',
        String(a.id),
        String(b.id),
        String(d.id),
        '--by',
        'half',
        '--json',
      ]);
      expect(lines.code).toBe(8);
      expect(JSON.parse(lines.stderr.trim().split('\n').pop()!).error.details).toEqual([
        `statement ${d.id} (2020Y) is a year: not split into half-years, left out`,
        `statement ${b.id} line 3: licensor_revenue "1,5" is not an amount`,
      ]);
      const h1 = (JSON.parse(lines.stdout) as Record<string, unknown>[]).find(
        (r) => r.half === '2021H1' && r.currency === 'USD',
      );
      const aLines = statementLines(data(), spoiled);
      expect(h1).toMatchObject({
        statements: 2,
        lines: aLines.length + 2,
        licensor_revenue: money(aLines.reduce((n, l) => n + l.licensorCents, 0) + 100),
      });
    } finally {
      delete spoiled.financials_given;
      delete emulator.storage.faults.exports;
    }
  });

  it('--period 2021Q1 against a half-year says which statements overlap it and what to ask', async () => {
    const result = await pds(['statements', 'totals', '--period', '2021Q3', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(result.stderr).toContain('1 statement of 2021H2 overlap --period 2021Q3 but cover more');
    expect(result.stderr).toContain('try --period 2021H2');
  });
});

describe('--compare', () => {
  it('--period 2025H1 --compare previous: each payor against 2024H2, with change, %, new and gone', async () => {
    const all = statements();
    const side = (period: string) => {
      const groups = new Map<string, number>();
      for (const s of all.filter((x) => x.period === period))
        groups.set(`${s.payor}|${s.currency}`, (groups.get(`${s.payor}|${s.currency}`) ?? 0) + s.licensor);
      return groups;
    };
    const now = side('2025H1');
    const then = side('2024H2');
    const rows = await json(['statements', 'totals', '--by', 'payor', '--period', '2025H1', '--compare', 'previous']);
    const keys = new Set([...now.keys(), ...then.keys()]);
    expect(rows).toHaveLength(keys.size);
    let [news, gones] = [0, 0];
    for (const r of rows) {
      const key = `${r.payor}|${r.currency}`;
      const [x, y] = [now.get(key), then.get(key)];
      expect(r).toEqual({
        payor: r.payor,
        currency: r.currency,
        period: '2025H1',
        compared_period: '2024H2',
        licensor_revenue: x === undefined ? null : money(x),
        compared_licensor_revenue: y === undefined ? null : money(y),
        change: money((x ?? 0) - (y ?? 0)),
        change_pct: x === undefined || y === undefined ? null : pct(x, y),
        status: y === undefined ? 'new' : x === undefined ? 'gone' : null,
      });
      if (r.status === 'new') news++;
      if (r.status === 'gone') gones++;
    }
    expect(news).toBeGreaterThan(0);
    expect(gones).toBeGreaterThan(0);
  });

  it('--by half --compare previous and --compare PERIOD: each half against the one before, or a fixed one', async () => {
    const usd = statements().filter((s) => s.currency === 'USD');
    const half = (p: string) => sum(usd.filter((s) => s.period === p));
    const series = await json(['statements', 'totals', '--by', 'period', '--currency', 'USD', '--compare', 'previous']);
    const row = series.find((r) => r.period === '2024H1')!;
    expect(row).toMatchObject({
      compared_period: '2023H2',
      licensor_revenue: money(half('2024H1')),
      compared_licensor_revenue: money(half('2023H2')),
      change: money(half('2024H1') - half('2023H2')),
      change_pct: pct(half('2024H1'), half('2023H2')),
      status: null,
    });
    const fixed = await json([
      'statements',
      'totals',
      '--by',
      'half',
      '--period',
      '2024..2025',
      '--currency',
      'USD',
      '--compare',
      '2022H1',
    ]);
    expect(fixed.map((r) => [r.half, r.compared_period, r.change])).toEqual(
      ['2024H1', '2024H2', '2025H1'].map((p) => [p, '2022H1', money(half(p) - half('2022H1'))]),
    );
  });

  it('lines --by territory --period 2025H1 --compare previous: the lines of both halves, exactly', async () => {
    const sideOf = (period: string) => {
      const groups = new Map<string, number>();
      for (const s of processed()) {
        if ((deployedStatement(data(), s).financials as { period: string }).period !== period) continue;
        for (const line of statementLines(data(), s)) {
          const key = `${line.territory}|${s.currency_royalty}`;
          groups.set(key, (groups.get(key) ?? 0) + line.licensorCents);
        }
      }
      return groups;
    };
    const [now, then] = [sideOf('2025H1'), sideOf('2024H2')];
    const rows = await json([
      'statements',
      'lines',
      '--all',
      '--by',
      'territory',
      '--period',
      '2025H1',
      '--compare',
      'previous',
    ]);
    expect(rows).toHaveLength(new Set([...now.keys(), ...then.keys()]).size);
    for (const r of rows) {
      const key = `${r.territory}|${r.currency}`;
      expect([r.licensor_revenue, r.compared_licensor_revenue]).toEqual([
        now.has(key) ? money(now.get(key)!) : null,
        then.has(key) ? money(then.get(key)!) : null,
      ]);
    }
  });

  it('on a terminal the change is signed and new/gone are words; no colour without one', async () => {
    const result = await pds(['statements', 'totals', '--by', 'payor', '--period', '2025H1', '--compare', 'previous'], {
      tty: true,
    });
    expect(result.code).toBe(0);
    const [header, ...lines] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^PAYOR\s+CURRENCY\s+2025H1\s+2024H2\s+CHANGE\s+%$/);
    expect(lines.some((l) => /\+[\d,]+\.\d\d\s+new$/.test(l))).toBe(true);
    expect(lines.some((l) => /-[\d,]+\.\d\d\s+gone$/.test(l))).toBe(true);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('on a narrow terminal names are cut and the percentage goes, never an amount; stderr says so', async () => {
    const args = ['statements', 'totals', '--by', 'payor', '--period', '2025H1', '--compare', 'previous'];
    const wide = await pds(args, { tty: true, columns: 200 });
    const narrow = await pds(args, { tty: true, columns: 60 });
    expect(narrow.code).toBe(0);
    const [header, ...lines] = narrow.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^PAYOR\s+CURRENCY\s+2025H1\s+2024H2\s+CHANGE$/);
    for (const line of [header ?? '', ...lines]) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines.some((l) => /^\S.*… /.test(l))).toBe(true);
    // Every amount and change of the wide view is in the narrow one, whole.
    const amounts = (text: string) => text.match(/[+-]?\d[\d,]*\.\d\d/g) ?? [];
    expect(amounts(narrow.stdout)).toEqual(amounts(wide.stdout));
    expect(narrow.stderr).toContain('(% not shown at 60 columns; --json has them)\n');
    expect(wide.stderr).not.toContain('not shown');
  });

  it('--compare without a period to compare, or with --columns, is exit 2 before any request', async () => {
    for (const [args, message] of [
      [['--compare', 'previous'], '--compare needs the period it compares'],
      [['--by', 'half', '--compare', '2024'], 'compare with a half-year, e.g. 2024H1'],
      [['--by', 'period', '--compare', 'previous', '--columns', 'period'], '--compare and --columns'],
      [['--rates', 'x.csv'], '--rates needs --to'],
    ] as const) {
      const before = emulator.requests.length;
      const result = await pds(['statements', 'totals', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(emulator.requests.length).toBe(before);
    }
  });
});

describe('--columns', () => {
  it('--by payor --columns year: a column per year in order, a total column and a total row per currency', async () => {
    const gbp = statements().filter((s) => s.currency === 'GBP' && s.period >= '2022');
    const years = [...new Set(gbp.map((s) => s.period.slice(0, 4)))].sort();
    const payors = [...new Set(gbp.map((s) => s.payor))];
    const rows = await json(['statements', 'totals', '--by', 'payor', '--columns', 'year', '--currency', 'GBP']);
    expect(rows).toHaveLength(payors.length + 1);
    const total = rows.at(-1)!;
    expect(Object.keys(total)).toEqual(['payor', 'currency', ...years.map((y) => `${y}Y`), 'total']);
    expect(total.payor).toBeNull();
    for (const y of years) expect(total[`${y}Y`]).toBe(money(sum(gbp.filter((s) => s.period.startsWith(y)))));
    expect(total.total).toBe(money(sum(gbp)));
    for (const r of rows.slice(0, -1)) {
      const mine = gbp.filter((s) => s.payor === r.payor);
      for (const y of years) {
        const inYear = mine.filter((s) => s.period.startsWith(y));
        expect(r[`${y}Y`]).toBe(inYear.length === 0 ? null : money(sum(inYear)));
      }
      expect(r.total).toBe(money(sum(mine)));
    }
    // Ranked by total within the currency.
    const totals = rows.slice(0, -1).map((r) => Number(r.total));
    expect(totals).toEqual([...totals].sort((x, y) => y - x));
  });

  it('--by year --columns currency: the years read in time order, not by their totals', async () => {
    const years = [...new Set(statements().map((s) => `${s.period.slice(0, 4)}Y`))].sort();
    const rows = await json(['statements', 'totals', '--by', 'year', '--columns', 'currency']);
    expect(rows.slice(0, -1).map((r) => r.year)).toEqual(years);
  });

  it('on a narrow terminal the oldest period columns give way first, and stderr says so', async () => {
    const result = await pds(['statements', 'totals', '--by', 'payor', '--columns', 'period', '--currency', 'USD'], {
      tty: true,
      columns: 80,
    });
    expect(result.code).toBe(0);
    const header = result.stdout.split('\n')[0]!;
    for (const line of result.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(header).toMatch(/2025H1\s+TOTAL$/);
    expect(header).not.toContain('2020Y');
    expect(result.stderr).toMatch(/\(2020Y–\S+ not shown at 80 columns, counted in TOTAL; --json has them\)\n/);
  });
});

describe('--rates --to', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-rates-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('converts every amount exactly and rounds once, half away from zero; the rates are named', async () => {
    const rates = file('rates.csv', 'currency,rate,period\nUSD,0.9137\nGBP,1.1713,2024\nGBP,1.165\n');
    const all = statements();
    // Units of 10^-6 EUR: cents (10^-2) times a rate of four decimals (10^-4).
    const rateOf = (s: Seen) =>
      s.currency === 'EUR' ? 10000n : s.currency === 'USD' ? 9137n : s.period.startsWith('2024') ? 11713n : 11650n;
    const exact = all.reduce((n, s) => n + BigInt(s.licensor) * rateOf(s), 0n);
    const want = decimalText(rounded({ units: exact, scale: 6 }, 2));
    const result = await pds(['statements', 'totals', '--rates', rates, '--to', 'eur', '--json']);
    expect(result.code).toBe(0);
    const [row, ...rest] = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ currency: 'EUR', statements: all.length, licensor_revenue: want });
    expect(new Set(row!.rates as string[])).toEqual(
      new Set(['EUR 1', 'GBP 1.165', 'GBP 1.1713 (2024Y)', 'USD 0.9137']),
    );
    expect(result.stderr).toContain('converted to EUR at USD 0.9137, GBP 1.1713 (2024Y), GBP 1.165');
    expect(result.stderr).toContain('half away from zero');

    // Half a cent, exactly: an odd number of cents at 0.5 rounds away from zero.
    const a = of('a');
    expect(a.licensor % 2).toBe(1);
    const half = file('half.csv', 'USD,0.5\n');
    const one = await json(['statements', 'totals', '--period', '2021Q1', '--rates', half, '--to', 'EUR']);
    expect(one[0]!.licensor_revenue).toBe(money((a.licensor + 1) / 2));
  });

  it('a currency without a rate is exit 2 naming the currency and the period', async () => {
    const rates = file('usd-only.csv', 'USD,0.9\n');
    const gbp = statements()
      .filter((s) => s.currency === 'GBP')
      .map((s) => s.period)
      .sort()[0];
    const result = await pds(['statements', 'totals', '--by', 'payor', '--rates', rates, '--to', 'EUR']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no rate for GBP in ${gbp} in ${rates}`);
    expect(result.stdout).toBe('');
    const bad = await pds(['statements', 'totals', '--rates', file('bad.csv', 'USD,zero\n'), '--to', 'EUR']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("line 1: the rate 'zero' is not a positive decimal number");
  });
});

describe('exact decimals', () => {
  it('rounds half away from zero, once', () => {
    const d = (text: string) => decimalOf(text)!;
    expect(decimalText(rounded(d('0.125'), 2))).toBe('0.13');
    expect(decimalText(rounded(d('-0.125'), 2))).toBe('-0.13');
    expect(decimalText(rounded(d('0.124999'), 2))).toBe('0.12');
    expect(divideRounded(-5n, 2n)).toBe(-3n);
  });
});

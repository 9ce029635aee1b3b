// What a project earned (issue 39): `statements totals`, `statements lines --all --by …` and
// `statements check` against the deployed emulator, whose amounts are whole cents. The expected
// totals are added here in integer cents from the emulator's own store and lines, never by pds's code.
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import {
  DISAGREEING,
  DUPLICATE_OF,
  deployedStatement,
  isProcessed,
  statementLines,
} from '../../src/emulator/deployed/statements.js';
import { deployedId } from '../../src/emulator/deployed/ids.js';
import { isrcIdentifiers } from '../../src/emulator/deployed/records.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const pds = (args: string[], options: { tty?: boolean; columns?: number } = {}) =>
  runCli(emulator, args, { columns: 100, ...options, env: { NO_COLOR: '1', PDS_PAGER: '' } });
const data = () => emulator.state.data[DEMO_PROJECT_ID]!;
const processed = () => data().statements.filter(isProcessed);
const cents = (amount: unknown) => Math.round(Number(amount) * 100);
/** Cents as the exact decimal pds prints in data formats: a string with the currency's two decimals. */
const money = (c: number) => (c / 100).toFixed(2);
/** Two processed statements whose lines agree with their financials and that repeat no other, as the store holds them. */
const agreeingPair = (): [string, string] => {
  const repeats = new Set(Object.entries(DUPLICATE_OF).flat().map(Number));
  const pair = processed()
    .filter((s) => s.id !== DISAGREEING.id && !repeats.has(s.id))
    .slice(0, 2)
    .map((s) => String(s.id));
  expect(pair).toHaveLength(2);
  return pair as [string, string];
};

type Totals = Map<string, { statements: number; licensor: number; licensee: number; lines: number }>;
function add(totals: Totals, key: string, licensor: number, licensee: number, lines = 0, statements = 1) {
  const group = totals.get(key) ?? { statements: 0, licensor: 0, licensee: 0, lines: 0 };
  group.statements += statements;
  group.licensor += licensor;
  group.licensee += licensee;
  group.lines += lines;
  totals.set(key, group);
}

/** The financials of every processed statement by period and currency, in cents. */
function expectedByPeriod(): Totals {
  const totals: Totals = new Map();
  for (const s of processed()) {
    const f = deployedStatement(data(), s).financials as Record<string, unknown>;
    add(totals, `${f.period}|${f.currency}`, cents(f.licensor_revenue), cents(f.licensee_revenue));
  }
  return totals;
}

/** Every line of every processed statement by `key`, in cents. */
function expectedLines(key: (line: ReturnType<typeof statementLines>[number], currency: string) => string): Totals {
  const totals: Totals = new Map();
  const statements = new Map<string, Set<number>>();
  for (const s of processed()) {
    for (const line of statementLines(data(), s)) {
      const k = key(line, s.currency_royalty ?? '');
      add(totals, k, line.licensorCents, line.licenseeCents, 1, 0);
      statements.set(k, (statements.get(k) ?? new Set()).add(s.id));
    }
  }
  for (const [k, set] of statements) totals.get(k)!.statements = set.size;
  return totals;
}

describe('pds statements totals', () => {
  it('--by period equals the exact totals of financials, in json, csv and tsv, currencies apart', async () => {
    const expected = expectedByPeriod();
    const json = await pds(['statements', 'totals', '--by', 'period', '--json']);
    expect(json.code).toBe(0);
    const records = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(records).toHaveLength(expected.size);
    for (const r of records) {
      const want = expected.get(`${r.period}|${r.currency}`)!;
      expect(r).toEqual({
        period: r.period,
        currency: r.currency,
        statements: want.statements,
        licensor_revenue: money(want.licensor),
        licensee_revenue: money(want.licensee),
        first_period: r.period,
        last_period: r.period,
      });
    }
    // Time order within each currency.
    const eur = records.filter((r) => r.currency === 'EUR').map((r) => String(r.period));
    expect(eur).toEqual([...eur].sort());
    const pending = data().statements.length - processed().length;
    expect(json.stderr).toContain(`${pending} statements not processed (`);

    const csv = await pds(['statements', 'totals', '--by', 'period', '--format', 'csv']);
    const [header, ...rows] = csv.stdout.trim().split(/\r?\n/);
    expect(header).toBe('period,currency,statements,licensor_revenue,licensee_revenue,first_period,last_period');
    expect(rows).toEqual(
      records.map((r) =>
        [r.period, r.currency, r.statements, r.licensor_revenue, r.licensee_revenue, r.period, r.period].join(','),
      ),
    );
    expect(csv.stdout).not.toMatch(/\d\.\d*0000000/);
    const tsv = await pds(['statements', 'totals', '--by', 'period']);
    expect(tsv.stdout.split('\n')[0]).toBe(
      'PERIOD\tCURRENCY\tSTATEMENTS\tLICENSOR_REVENUE\tLICENSEE_REVENUE\tFIRST_PERIOD\tLAST_PERIOD',
    );
    expect(tsv.stdout.trim().split('\n')).toHaveLength(expected.size + 1);
  });

  it('filters by period range, currency and payor; --top keeps the largest per currency', async () => {
    const range = JSON.parse(
      (await pds(['statements', 'totals', '--by', 'period', '--period', '2023H1..2023H2', '--json'])).stdout,
    ) as Record<string, unknown>[];
    expect(new Set(range.map((r) => r.period))).toEqual(new Set(['2023H1', '2023H2']));
    const eur = JSON.parse((await pds(['statements', 'totals', '--currency', 'eur', '--json'])).stdout);
    const want = [...expectedByPeriod()].filter(([k]) => k.endsWith('|EUR'));
    expect(eur).toEqual([
      expect.objectContaining({
        currency: 'EUR',
        statements: want.reduce((n, [, g]) => n + g.statements, 0),
        licensor_revenue: money(want.reduce((n, [, g]) => n + g.licensor, 0)),
      }),
    ]);
    const top = JSON.parse((await pds(['statements', 'totals', '--by', 'payor', '--top', '1', '--json'])).stdout);
    expect(top.map((r: Record<string, unknown>) => r.currency)).toEqual(['EUR', 'GBP', 'USD']);
    // A payor of the store's processed statements (its payor, else its producer), asked for in lower case.
    const named = processed()
      .map((s) => s.payor || s.statement_producer)
      .find((name) => typeof name === 'string' && name !== name.toLowerCase());
    if (typeof named !== 'string') throw new Error('no processed statement names a payor with capitals');
    const payor = JSON.parse(
      (await pds(['statements', 'totals', '--by', 'payor', '--payor', named.toLowerCase(), '--json'])).stdout,
    );
    expect(payor.map((r: Record<string, unknown>) => r.payor)).toEqual([named]);
  });

  it('refuses a bad --period, --currency or --by with exit 2, before any request', async () => {
    for (const [flag, value, message] of [
      ['--period', '2025Q5', "invalid --period '2025Q5'"],
      ['--period', '2025Q4..2025Q1', 'ends before it starts'],
      ['--currency', 'euro', "invalid --currency 'euro'"],
      ['--by', 'territory', "invalid --by 'territory'"],
    ] as const) {
      const before = emulator.requests.length;
      const result = await pds(['statements', 'totals', flag, value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(emulator.requests.length).toBe(before);
    }
  });

  it('draws bars on a terminal, never in a pipe', async () => {
    const tty = await pds(['statements', 'totals', '--by', 'period'], { tty: true, columns: 80 });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/█/);
    for (const line of tty.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect((await pds(['statements', 'totals', '--by', 'period'])).stdout).not.toMatch(/[█▏▎▍▌▋▊▉]/);
  });
});

describe('pds statements lines --by', () => {
  it('--all --by territory equals the lines added up exactly, per currency', async () => {
    const expected = expectedLines((line, currency) => `${line.territory}|${currency}`);
    const fetchedBefore = emulator.storage.requests.length;
    const result = await pds(['statements', 'lines', '--all', '--by', 'territory', '--json']);
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(records).toHaveLength(expected.size);
    for (const r of records) {
      const want = expected.get(`${r.territory}|${r.currency}`)!;
      expect(r).toMatchObject({
        statements: want.statements,
        lines: want.lines,
        licensor_revenue: money(want.licensor),
        licensee_revenue: money(want.licensee),
      });
      expect(Object.keys(r).slice(0, 4)).toEqual(['territory', 'currency', 'statements', 'lines']);
    }
    // Every export was fetched as CSV, without a credential.
    const files = emulator.storage.requests.slice(fetchedBefore);
    expect(files).toHaveLength(processed().length);
    for (const file of files) {
      expect(file.accept).toBe('text/csv, */*');
      expect(file.authorization).toBe(false);
    }
  });

  it('--by isrc joins the recordings; ISRCs no recording carries are apart with null names; --top 3', async () => {
    const recordings = new Map(
      data().recordings.flatMap((r) =>
        isrcIdentifiers(r, deployedId('recording', r.id)).map((i) => [String(i.value), r.name] as const),
      ),
    );
    const expected = expectedLines((line, currency) => `${line.isrc}|${currency}`);
    const ranked = [...expected].sort((a, b) => b[1].licensor - a[1].licensor);
    const result = await pds(['statements', 'lines', '--all', '--by', 'isrc', '--top', '3', '--json']);
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as Record<string, unknown>[];
    for (const currency of ['EUR', 'GBP', 'USD']) {
      const want = ranked.filter(([k]) => k.endsWith(`|${currency}`)).slice(0, 3);
      const got = records.filter((r) => r.currency === currency);
      expect(got.map((r) => [r.isrc, r.licensor_revenue])).toEqual(
        want.map(([k, g]) => [k.split('|')[0], money(g.licensor)]),
      );
      for (const r of got) expect(r.name).toBe(recordings.get(String(r.isrc)) ?? null);
    }
    const all = JSON.parse((await pds(['statements', 'lines', '--all', '--by', 'isrc', '--json'])).stdout);
    const unmatched = all.filter((r: Record<string, unknown>) => String(r.isrc).startsWith('ZZUNL'));
    expect(unmatched.length).toBeGreaterThan(0);
    for (const r of unmatched) expect(r).toMatchObject({ name: null, artists: null });
  });

  it('--top and --sort without --by, -q, and -o with many statements are refused (exit 2), nothing fetched', async () => {
    for (const args of [
      ['--all', '--top', '3'],
      ['--all', '--sort', 'units'],
      ['--all', '-q'],
      ['40001', '40002', '-o', 'x.csv'],
      ['40001', '--all'],
      [],
    ]) {
      const before = emulator.requests.length;
      const result = await pds(['statements', 'lines', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(emulator.requests.length).toBe(before);
    }
  });
});

describe('pds statements lines of many statements', () => {
  it('one CSV with a leading statement_id; ndjson records keyed by the header', async () => {
    const [a, b] = processed();
    const csv = await pds(['statements', 'lines', String(a!.id), String(b!.id)]);
    expect(csv.code).toBe(0);
    const rows = csv.stdout.trim().split(/\r?\n/);
    expect(rows[0]).toBe('statement_id,line,territory,isrc,title,units,currency,licensee_revenue,licensor_revenue');
    const count = statementLines(data(), a!).length + statementLines(data(), b!).length;
    expect(rows).toHaveLength(count + 1);
    const ndjson = await pds(['statements', 'lines', String(a!.id), '--format', 'ndjson']);
    const records = ndjson.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(statementLines(data(), a!).length);
    expect(records[0]).toEqual(
      expect.objectContaining({ line: '1', territory: statementLines(data(), a!)[0]!.territory }),
    );
  });

  it('yaml is a record a line, tsv is converted, --jq filters the records', async () => {
    const [a] = processed();
    const lines = statementLines(data(), a!);
    const yaml = await pds(['statements', 'lines', String(a!.id), '--format', 'yaml']);
    const rows = yaml.stdout.trim().split('\n');
    expect(rows).toHaveLength(lines.length);
    expect(JSON.parse(rows[0]!.replace(/^- /, ''))).toMatchObject({ line: '1', territory: lines[0]!.territory });
    const tsv = await pds(['statements', 'lines', String(a!.id), '--format', 'tsv']);
    expect(tsv.stdout.split('\n')[0]).toBe(
      'line\tterritory\tisrc\ttitle\tunits\tcurrency\tlicensee_revenue\tlicensor_revenue',
    );
    const jq = await pds(['statements', 'lines', String(a!.id), '--jq', '[.[].territory] | length']);
    expect(jq.stdout.trim()).toBe(String(lines.length));
  });

  it("one statement's CSV as it came, with the formula warning once; --csv-safe rewrites it", async () => {
    const unlisted = processed().find((s) => s.id % 4 === 3)!;
    const plain = await pds(['statements', 'lines', String(unlisted.id)]);
    expect(plain.code).toBe(0);
    // As the service sent it: its titles quoted.
    expect(plain.stdout).toMatch(/,"\+44 \(demo\)",/);
    expect(plain.stderr.match(/start like a formula/g)).toHaveLength(1);
    const safe = await pds(['statements', 'lines', String(unlisted.id), '--csv-safe']);
    expect(safe.stdout).toMatch(/,'\+44 \(demo\),/);
    const clean = processed().find((s) => s.id % 4 !== 3)!;
    expect((await pds(['statements', 'lines', String(clean.id)])).stderr).toBe('');
  });

  it('warns once of cells that start like a formula, and --csv-safe neutralises them', async () => {
    const plain = await pds(['statements', 'lines', '--all']);
    expect(plain.stdout).toMatch(/,\+44 \(demo\),/);
    expect(plain.stderr.match(/start like a formula/g)).toHaveLength(1);
    const safe = await pds(['statements', 'lines', '--all', '--csv-safe']);
    expect(safe.stdout).toMatch(/,'\+44 \(demo\),/);
    expect(safe.stderr).not.toMatch(/formula/);
  });
});

describe('pds statements check', () => {
  it('--all exits 1 naming the statement whose lines disagree, the difference, and the duplicate', async () => {
    const result = await pds(['statements', 'check', '--all']);
    expect(result.code).toBe(1);
    const failing = result.stdout.split('\n').filter((line) => /^statements? [\d, ]+: /.test(line));
    const [duplicate, original] = Object.entries(DUPLICATE_OF)[0]!;
    expect(failing).toEqual([
      expect.stringMatching(
        new RegExp(`^statement ${DISAGREEING.id}: .*\\(difference -0\\.0${DISAGREEING.cents} USD\\)$`),
      ),
      `statements ${original}, ${duplicate}: likely duplicates (same payor, period, currency, totals and lines)`,
    ]);
    expect(result.stdout).toMatch(/^checked \d+ of \d+ statements: 2 disagree/m);
    const json = JSON.parse((await pds(['statements', 'check', '--all', '--json'])).stdout);
    expect(json.filter((f: Record<string, unknown>) => f.check === 'lines')).toEqual([
      expect.objectContaining({ statement: DISAGREEING.id, column: 'licensor_revenue', difference: '-0.05' }),
    ]);
  });

  it('exits 0 with one line when the statements agree', async () => {
    const result = await pds(['statements', 'check', ...agreeingPair()]);
    expect(result.stdout).toBe('checked 2 of 2 statements: lines agree with financials, no duplicates\n');
    expect(result.code).toBe(0);
  });
});

describe('the emulator with --statements N --lines L', () => {
  it('serves N processed statements of L lines each, ids after every project', async () => {
    const { testEmulator } = await import('../helpers/emulator.js');
    const small = await testEmulator({ flavor: 'deployed', manyStatements: { count: 7, lines: 30 } });
    try {
      const result = await runCli(small, ['statements', 'lines', '--all', '--by', 'statement', '--json'], {
        env: { NO_COLOR: '1' },
      });
      expect(result.code).toBe(0);
      const records = JSON.parse(result.stdout) as Record<string, unknown>[];
      expect(records).toHaveLength(7);
      for (const r of records) expect(r.lines).toBe(30);
      const others = Object.entries(small.state.data)
        .filter(([id]) => id !== DEMO_PROJECT_ID)
        .flatMap(([, project]) => project.statements.map((s) => s.id));
      for (const r of records) expect(others).not.toContain(Number(r.statement));
    } finally {
      await small.close();
    }
  });

  it('--lines without --statements is refused: exit 2', async () => {
    const result = await pds(['emulator', 'start', '--port', '0', '--lines', '5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--lines sets the lines of --statements: give both');
  });
});

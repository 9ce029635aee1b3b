// One rule for every amount: read exactly, or unreadable and named (exit 8), never a zero and never a
// column lost. Against the deployed emulator, whose statements' financials a test may answer in any
// form (financials_given) and whose exports it may replace (storage faults). Expected sums are added
// here from the texts served, in cents or as BigInt.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import {
  DISAGREEING,
  DUPLICATE_OF,
  deployedStatement,
  isProcessed,
  statementLines,
} from '../../src/emulator/deployed/statements.js';
import type { ExportFault } from '../../src/emulator/storage.js';
import type { StatementRecord } from '../../src/emulator/store.js';
import { readAmount } from '../../src/lib/money/amount.js';
import { csvCell, spreadKeys } from '../../src/lib/output/formats.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const pds = (args: string[], options: { tty?: boolean } = {}) =>
  runCli(emulator, args, { columns: 120, ...options, env: { NO_COLOR: '1', PDS_PAGER: '' } });
const data = () => emulator.state.data[DEMO_PROJECT_ID]!;
const processed = () => data().statements.filter(isProcessed);
const serve = (faults: Record<number, ExportFault>) => {
  emulator.storage.faults.exports = new Map(Object.entries(faults).map(([id, fault]) => [Number(id), fault]));
};
const given = new Set<StatementRecord>();
const give = (s: StatementRecord, financials: Record<string, unknown>) => {
  s.financials_given = financials;
  given.add(s);
};
afterEach(() => {
  delete emulator.storage.faults.exports;
  for (const s of given) delete s.financials_given;
  given.clear();
});

describe('the amount rule', () => {
  it('reads decimal strings and JSON numbers exactly, and nothing else', () => {
    const read = (value: unknown) => {
      const amount = readAmount(value);
      return amount.kind === 'amount' ? amount.decimal : amount.kind;
    };
    expect(['-12.50', '42', '.5', '5.', '+3', ' 7.25 ', 0.1, 1e21, -0.000001].map(read)).toEqual([
      '-12.50',
      '42',
      '0.5',
      '5',
      '3',
      '7.25',
      '0.1',
      '1000000000000000000000',
      '-0.000001',
    ]);
    const unreadable = ['1,234.56', 'NaN', '１２', '١٢', '1e400', ' ', '0x10', true, { a: 1 }, [1], '1'.repeat(41)];
    expect(unreadable.map(read)).toEqual(unreadable.map(() => 'unreadable'));
    expect([null, undefined, ''].map(read)).toEqual(['absent', 'absent', 'absent']);
  });
});

describe('statements totals', () => {
  it('names each statement whose amount cannot be read, prints the rest exactly, and exits 8', async () => {
    const forms: unknown[] = ['1,234.56', 'NaN', '１２', true, { amount: 1 }, [1], ' ', '0x10', '1e400'];
    const eur = processed().filter((s) => s.currency_royalty === 'EUR');
    const spoiled = eur.slice(0, forms.length);
    for (const [i, s] of spoiled.entries()) give(s, { licensor_revenue: forms[i] });
    const cents = (s: StatementRecord) =>
      Math.round(Number((deployedStatement(data(), s).financials as Record<string, unknown>).licensor_revenue) * 100);
    const readable = eur.filter((s) => !spoiled.includes(s)).reduce((n, s) => n + cents(s), 0);
    const result = await pds(['statements', 'totals', '--currency', 'EUR', '--json']);
    expect(result.code).toBe(8);
    const [group] = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(group).toMatchObject({
      currency: 'EUR',
      statements: eur.length,
      licensor_revenue: (readable / 100).toFixed(2),
    });
    const error = JSON.parse(result.stderr.trim().split('\n').pop()!).error;
    expect(error.message).toBe(`the answer is not whole: ${forms.length} problems`);
    expect(error.details).toEqual(
      spoiled.map((s, i) => `statement ${s.id}: licensor_revenue ${JSON.stringify(forms[i])} is not an amount`),
    );
  });

  it('adds past 2^53 exactly, in data and on a terminal; currencies trimmed and upper-cased are one', async () => {
    const [a, b, c] = processed();
    give(a!, { currency: 'XTS', licensor_revenue: '9223372036854775808.00', licensee_revenue: '1' });
    give(b!, { currency: ' xts', licensor_revenue: '9223372036854775808.00', licensee_revenue: '2' });
    give(c!, { currency: '', licensor_revenue: '1.00', licensee_revenue: '1' });
    const result = await pds(['statements', 'totals', '--currency', 'xts', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      expect.objectContaining({ currency: 'XTS', statements: 2, licensor_revenue: '18446744073709551616.00' }),
    ]);
    const tty = await pds(['statements', 'totals', '--currency', 'XTS'], { tty: true });
    expect(tty.stdout).toContain('18,446,744,073,709,551,616.00');
    // An empty currency is its own group, named, never "not processed".
    const all = await pds(['statements', 'totals', '--json']);
    const none = (JSON.parse(all.stdout) as Record<string, unknown>[]).filter((r) => r.currency === null);
    expect(none).toEqual([expect.objectContaining({ statements: 1, licensor_revenue: '1.00' })]);
    expect(all.stderr).toContain(`1 statement has no currency (empty or not an ISO 4217 code): ${c!.id}`);
    expect(all.stderr).not.toMatch(new RegExp(`not processed[^\\n]*\\b${c!.id}\\b`));
  });

  it('--sort licensee_revenue ranks by it; -q is refused before any request', async () => {
    const sorted = JSON.parse(
      (await pds(['statements', 'totals', '--by', 'payor', '--sort', 'licensee_revenue', '--json'])).stdout,
    );
    const eur = sorted
      .filter((r: Record<string, string>) => r.currency === 'EUR')
      .map((r: Record<string, string>) => BigInt(r.licensee_revenue!.replace('.', '')));
    expect(eur).toEqual([...eur].sort((x: bigint, y: bigint) => (x > y ? -1 : x < y ? 1 : 0)));
    const before = emulator.requests.length;
    const quiet = await pds(['statements', 'totals', '-q']);
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).toContain('drop -q');
    expect(emulator.requests.length).toBe(before);
  });

  it('--top N --by period keeps the N largest periods of each currency, in time order', async () => {
    const all = JSON.parse(
      (await pds(['statements', 'totals', '--by', 'period', '--currency', 'EUR', '--json'])).stdout,
    ) as Record<string, string>[];
    const cents = (r: Record<string, string>) => BigInt(r.licensor_revenue!.replace('.', ''));
    const largest = [...all].sort((x, y) => (cents(y) > cents(x) ? 1 : cents(y) < cents(x) ? -1 : 0)).slice(0, 2);
    const top = JSON.parse(
      (await pds(['statements', 'totals', '--by', 'period', '--currency', 'EUR', '--top', '2', '--json'])).stdout,
    ) as Record<string, string>[];
    expect(top.map((r) => r.period)).toEqual(all.filter((r) => largest.includes(r)).map((r) => r.period));
  });
});

describe('statements lines --by', () => {
  const text = [
    'line,year,territory,isrc,units,licensor_revenue',
    '1,2025,GB,GBAAA0000001,10,1.50',
    '2,2025,GB,GBAAA0000002,5,.5',
    '3,2025,FR,GBAAA0000003,2,5.',
    '4,2025,FR,GBAAA0000004,1,"1,234.56"',
    '5,2025,FR,GBAAA0000005,1,NaN',
    '6,2025,GB,GBAAA0000006,3, ',
    '7,2025,GB,GBAAA0000007,4,١٢',
    '',
  ].join('\n');

  it('an unreadable cell is named by statement, line and column; the column stays; exit 8', async () => {
    const [a] = processed();
    serve({ [a!.id]: { text } });
    const result = await pds(['statements', 'lines', String(a!.id), '--by', 'territory', '--json', '--verbose']);
    expect(result.code).toBe(8);
    const groups = (JSON.parse(result.stdout) as Record<string, unknown>[]).map((g) => [
      g.territory,
      g.lines,
      g.units,
      g.licensor_revenue,
    ]);
    expect(groups.sort()).toEqual([
      ['FR', 3, '4', '5'],
      ['GB', 4, '22', '2.00'],
    ]);
    const error = JSON.parse(result.stderr.trim().split('\n').pop()!).error;
    expect(error.details).toEqual(
      [
        [5, '"1,234.56"'],
        [6, '"NaN"'],
        [7, '" "'],
        [8, '"١٢"'],
      ].map(([line, cell]) => `statement ${a!.id} line ${line}: licensor_revenue ${cell} is not an amount`),
    );
    // Identifiers and ordinals are never summed, and --verbose says why.
    expect(JSON.parse(result.stdout)[0]).not.toHaveProperty('line');
    expect(JSON.parse(result.stdout)[0]).not.toHaveProperty('year');
    expect(result.stderr).toContain(
      'summed: units (its name says money or units), licensor_revenue (its name says money or units)',
    );
    expect(result.stderr).toMatch(
      /not summed: line \(its name says an identifier or ordinal\), year \(its name says an identifier or ordinal\)/,
    );
  });

  it('--by a column no export has is exit 2 naming the columns there are; __proto__ is a column like any', async () => {
    const [a] = processed();
    serve({ [a!.id]: { text: 'territory,__proto__,licensor_revenue\nGB,x,1.00\nFR,y,2.00\nGB,x,0.25\n' } });
    const typo = await pds(['statements', 'lines', String(a!.id), '--by', 'teritory']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("invalid --by 'teritory': no export has that column");
    expect(typo.stderr).toContain('territory, __proto__, licensor_revenue');
    const proto = await pds(['statements', 'lines', String(a!.id), '--by', '__proto__', '--json']);
    expect(proto.code).toBe(0);
    expect(JSON.parse(proto.stdout).map((g: Record<string, unknown>) => [g.__proto__, g.licensor_revenue])).toEqual([
      ['y', '2.00'],
      ['x', '1.25'],
    ]);
  });

  it('--by a column none of the exports read has, when an export was left out whole: exit 8 naming it, no groups', async () => {
    const [a, b, c] = processed();
    serve({
      [a!.id]: { text: 'territory,teritory,Teritory\nGB,x,y\n' },
      [b!.id]: { text: 'territory,licensor_revenue\nGB,1.00\n' },
      [c!.id]: { text: 'territory,licensor_revenue\nFR,2.00\n' },
    });
    const ids = [a, b, c].map((s) => String(s!.id));
    const result = await pds(['statements', 'lines', ...ids, '--by', 'teritory', '--json']);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr.trim().split('\n').pop()!).error).toEqual({
      status: null,
      message: 'the answer is not whole: 2 problems',
      details: [
        `statement ${a!.id}: its export's header repeats the column 'Teritory' (columns 2 and 3); its lines were left out`,
        `the column 'teritory' (--by) is in none of the 2 exports read; the export left out (statement ${a!.id}) may have it`,
      ],
    });
    // Only rows left out (every header read): the column is in no export, exit 2 as without them.
    serve({
      [a!.id]: { text: 'territory,licensor_revenue\nGB,1.00,9\n' },
      [b!.id]: { text: 'territory,licensor_revenue\nGB,1.00\n' },
    });
    const ragged = await pds(['statements', 'lines', ids[0]!, ids[1]!, '--by', 'teritory']);
    expect(ragged.code).toBe(2);
    expect(ragged.stderr).toContain("invalid --by 'teritory': no export has that column");
    expect(ragged.stderr).toContain(
      'the columns there are: statement, period, payor, year, half, quarter, month, currency, territory, licensor_revenue',
    );
  });

  it('a statement given twice, or listed twice by the service, counts once: lines, totals and check', async () => {
    const [a] = processed().filter((s) => s.id !== DISAGREEING.id && DUPLICATE_OF[s.id] === undefined);
    const lines = statementLines(data(), a!);
    const storageBefore = emulator.storage.requests.length;
    const twice = await pds(['statements', 'lines', String(a!.id), String(a!.id), '--json', '--by', 'statement']);
    expect(twice.code).toBe(0);
    expect(JSON.parse(twice.stdout)).toEqual([
      expect.objectContaining({
        statement: String(a!.id),
        statements: 1,
        lines: lines.length,
        licensor_revenue: (lines.reduce((n, l) => n + l.licensorCents, 0) / 100).toFixed(2),
      }),
    ]);
    // Its export was fetched once.
    expect(emulator.storage.requests.length - storageBefore).toBe(1);
    // The service lists the same statement twice (the same record in its list, side by side).
    const list = data().statements;
    const at = list.indexOf(a!);
    list.splice(at, 0, a!);
    try {
      type Shown = { payor?: string; statement_producer?: string; financials: Record<string, string> };
      const payorOf = (d: Shown) => d.payor || d.statement_producer;
      const shown = deployedStatement(data(), a!) as Shown;
      const period = shown.financials.period!;
      const payor = payorOf(shown)!;
      const mine = processed()
        .filter((s, i, all) => all.indexOf(s) === i)
        .filter((s) => {
          const d = deployedStatement(data(), s) as Shown;
          return payorOf(d)?.toLowerCase() === payor.toLowerCase() && d.financials.period === period;
        });
      expect(mine).toContain(a);
      const totals = await pds(['statements', 'totals', '--payor', payor, '--period', period, '--json']);
      expect(totals.stderr).toBe('');
      expect(totals.code).toBe(0);
      const rows = JSON.parse(totals.stdout) as Record<string, unknown>[];
      expect(rows.reduce((n, r) => n + Number(r.statements), 0)).toBe(mine.length);
      const centsOf = (text: unknown) => BigInt(String(text).replace('.', ''));
      const licensor = (s: StatementRecord) =>
        centsOf((deployedStatement(data(), s).financials as Record<string, unknown>).licensor_revenue);
      expect(rows.reduce((n, r) => n + centsOf(r.licensor_revenue), 0n)).toBe(
        mine.reduce((n, s) => n + licensor(s), 0n),
      );
      const check = await pds(['statements', 'check', '--all', '--payor', payor, '--period', period]);
      expect(check.stdout + check.stderr).toContain(
        `checked ${mine.length} of ${mine.length} statement${mine.length === 1 ? '' : 's'}: lines agree with financials, no duplicates`,
      );
      expect(check.code).toBe(0);
    } finally {
      list.splice(at, 1);
    }
  });

  it('--csv-bom starts the lines CSV with the mark; a negative amount is a plain number, never prefixed', async () => {
    const [a, b] = processed();
    serve({
      [a!.id]: { text: 'territory,licensor_revenue\nGB,-5.25\nFR,=1+2\n' },
      [b!.id]: { text: 'territory,licensor_revenue\nGB,-0.10\n' },
    });
    const result = await pds(['statements', 'lines', String(a!.id), String(b!.id), '--csv-bom', '--csv-safe']);
    expect(result.stdout.startsWith('\uFEFFstatement_id,territory,licensor_revenue\r\n')).toBe(true);
    expect(result.stdout).toContain(`${a!.id},GB,-5.25\r\n`);
    expect(result.stdout).toContain(`${a!.id},FR,'=1+2\r\n`);
    expect(result.stdout).toContain(`${b!.id},GB,-0.10\r\n`);
  });
});

describe('the CSV writer', () => {
  it('prefixes only what a spreadsheet would run, and spreads 20,000 fields of two records', () => {
    expect(['-5.25', '-0.10', '+3', '-1e5', '=SUM(A1)', '-x', '@cmd'].map((v) => csvCell(v, { raw: false }))).toEqual([
      '-5.25',
      '-0.10',
      '+3',
      '-1e5',
      "'=SUM(A1)",
      "'-x",
      "'@cmd",
    ]);
    const record = (n: number) => ({
      id: n,
      meta: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`f${i}`, i])),
    });
    const columns = spreadKeys(
      ['id', 'meta'],
      [record(1), record(2)].map((r) => ({
        id: r.id,
        ...Object.fromEntries(Object.entries(r.meta).map(([k, v]) => [`meta.${k}`, v])),
      })),
    );
    expect(columns).toHaveLength(20_001);
    expect(columns.slice(0, 3)).toEqual(['id', 'meta.f0', 'meta.f1']);
  });
});

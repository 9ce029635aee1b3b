// `pds statements check` passes only for what it compared: nothing matched, a statement still
// processing, financials it cannot read, lines in another currency are each named and exit 8; two
// statements with the same totals are duplicates only when their lines are the same too. Against the
// deployed emulator, its exports and financials replaced per test.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { DISAGREEING, DUPLICATE_OF, isProcessed } from '../../src/emulator/deployed/statements.js';
import type { ExportFault } from '../../src/emulator/storage.js';
import type { StatementRecord } from '../../src/emulator/store.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const pds = (args: string[]) => runCli(emulator, args, { env: { NO_COLOR: '1', PDS_PAGER: '' } });
const data = () => emulator.state.data[DEMO_PROJECT_ID]!;
/** Processed statements that agree with their lines and repeat no other. */
const clean = () => {
  const repeats = new Set(Object.entries(DUPLICATE_OF).flat().map(Number));
  return data().statements.filter((s) => isProcessed(s) && s.id !== DISAGREEING.id && !repeats.has(s.id));
};
const serve = (faults: Record<number, ExportFault>) => {
  emulator.storage.faults.exports = new Map(Object.entries(faults).map(([id, fault]) => [Number(id), fault]));
};
const restore: (() => void)[] = [];
const set = (s: StatementRecord, fields: Partial<StatementRecord>) => {
  const before = { ...s };
  Object.assign(s, fields);
  restore.push(() => {
    for (const key of Object.keys(fields) as (keyof StatementRecord)[]) delete s[key];
    Object.assign(s, before);
  });
};
afterEach(() => {
  delete emulator.storage.faults.exports;
  for (const undo of restore.splice(0).reverse()) undo();
});
const errorOf = (stderr: string) => stderr.trim().split('\n');

describe('pds statements check', () => {
  it('a --payor that matches nothing checks nothing: exit 8, said', async () => {
    const result = await pds(['statements', 'check', '--all', '--payor', 'No Such Payor']);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('checked 0 of 0 statements: nothing compared\n');
    expect(errorOf(result.stderr)).toEqual([
      'error: the answer is not whole',
      '  no statement matches: nothing was checked',
    ]);
  });

  it('a statement still processing is not checkable: the others are compared, exit 8 names it', async () => {
    const [a] = clean();
    const pending = data().statements.find((s) => !isProcessed(s))!;
    const result = await pds(['statements', 'check', String(a!.id), String(pending.id)]);
    expect(result.code).toBe(8);
    expect(result.stdout).toContain(
      'checked 1 of 2 statements: lines agree with financials, no duplicates; 1 not checkable',
    );
    expect(result.stderr).toContain(`statement ${pending.id}: not checked (not processed yet`);
  });

  it('financials it cannot read, or lines in another currency, are not checkable: exit 8', async () => {
    const [a, b] = clean();
    set(a!, { financials_given: { licensor_revenue: '1,234.56' } });
    serve({ [b!.id]: { text: 'territory,currency,licensor_revenue\nGB,EUR,1.00\nUS,USD,2.00\n' } });
    const result = await pds(['statements', 'check', String(a!.id), String(b!.id)]);
    expect(result.code).toBe(8);
    expect(result.stdout).toContain('checked 0 of 2 statements: nothing compared; 2 not checkable');
    expect(result.stderr).toContain(
      `statement ${a!.id}: not checked (its financials' licensor_revenue "1,234.56": not an amount)`,
    );
    expect(result.stderr).toMatch(new RegExp(`statement ${b!.id}: not checked \\(its lines are in EUR, USD`));
  });

  it('the same totals are a duplicate only with the same lines', async () => {
    const [a, b] = clean();
    const totals = { currency: 'EUR', period: '2030Q1', licensor_revenue: '3.00', licensee_revenue: '6.00' };
    for (const s of [a!, b!]) set(s, { payor: 'Same Payor', financials_given: totals });
    const header = 'territory,currency,licensor_revenue,licensee_revenue\n';
    serve({
      [a!.id]: { text: `${header}GB,EUR,3.00,6.00\n` },
      [b!.id]: { text: `${header}FR,EUR,1.00,2.00\nGB,EUR,2.00,4.00\n` },
    });
    const other = await pds(['statements', 'check', String(a!.id), String(b!.id)]);
    expect(other.stdout).toBe('checked 2 of 2 statements: lines agree with financials, no duplicates\n');
    expect(other.code).toBe(0);
    serve({ [a!.id]: { text: `${header}GB,EUR,3.00,6.00\n` }, [b!.id]: { text: `${header}GB,EUR,3.00,6.00\n` } });
    const same = await pds(['statements', 'check', String(a!.id), String(b!.id)]);
    expect(same.code).toBe(1);
    expect(same.stdout).toContain(
      `statements ${a!.id}, ${b!.id}: likely duplicates (same payor, period, currency, totals and lines)`,
    );
  });
});

describe('pds statements check --gaps', () => {
  const PAYOR = 'Gap Test Payor';
  /** Three clean statements of one payor: 2031H1, 2032H1 and 2032H2, so 2031H2 is missing. */
  const arrange = () => {
    const [a, b, c] = clean();
    set(a!, { payor: PAYOR, accounting_period: '2031H1' });
    set(b!, { payor: PAYOR, accounting_period: '2032H1' });
    set(c!, { payor: PAYOR, accounting_period: '2032H2' });
  };
  const said = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

  it('counts a missing period in the last line without --gaps, lists it with --gaps, exit 0', async () => {
    arrange();
    const counted = await pds(['statements', 'check', '--all', '--payor', PAYOR]);
    expect(counted.code).toBe(0);
    expect(counted.stdout).toContain('1 payor with a missing period (--gaps lists them)');
    expect(said(counted)).not.toContain('has no statement for');
    const listed = await pds(['statements', 'check', '--all', '--payor', PAYOR, '--gaps']);
    expect(listed.code).toBe(0);
    expect(said(listed)).toContain(`payor ${PAYOR} has no statement for 2031H2 (between 2031H1 and 2032H2)`);
  });

  it('a period whose statement is still processing is not a gap', async () => {
    arrange();
    const pending = data().statements.find((s) => !isProcessed(s))!;
    set(pending, { payor: PAYOR, accounting_period: '2031H2' });
    const result = await pds(['statements', 'check', '--all', '--payor', PAYOR, '--gaps']);
    expect(result.code).toBe(8);
    expect(said(result)).not.toContain('has no statement for');
    expect(result.stdout).not.toContain('missing period');
    expect(result.stderr).toContain(`statement ${pending.id}: not checked (not processed yet`);
  });
});

describe('statements the service processed without financials (the spec form gives none)', () => {
  const seed = sharedEmulator({ flavor: 'seed' });
  const seedPds = (args: string[]) => runCli(seed, args, { env: { NO_COLOR: '1', PDS_PAGER: '' } });
  const completed = () =>
    seed.state.data[DEMO_PROJECT_ID]!.statements.filter((s) => s.processing_status === 'completed');

  it('totals: named as processed without financials, not "not processed", and exit 8', async () => {
    const done = completed();
    expect(done.length).toBeGreaterThan(3);
    const result = await seedPds(['statements', 'totals']);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`${done.length} statements processed without financials, not counted (`);
    expect(result.stderr).toContain(`error: the answer is not whole: ${done.length} problems`);
    expect(result.stderr).toContain(`statement ${done[0]!.id}: processed, but no financials given`);
  });

  it('check: a completed statement is not checked for want of financials, not as still processing', async () => {
    const first = completed()[0]!;
    const result = await seedPds(['statements', 'check', String(first.id)]);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`statement ${first.id}: not checked (processed, but no financials given)`);
    expect(result.stderr).not.toContain('not processed yet');
  });
});

// --skip-existing never skips a different statement: a record of the file's name and size counts
// as this file only when it agrees on the statement context given (period, payor, payee,
// currencies); otherwise the file goes, and the log and the JSON report say why.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'deployed', processingMs: 20 });
  dir = mkdtempSync(join(tmpdir(), 'pds-skip-context-'));
});
afterAll(() => emulator.close());

/** A quarter's folder: `royalties.csv` whose bytes differ by quarter but not its size. */
function quarter(name: string, amount: string): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'royalties.csv'), `period,amount\n${name},${amount}\n`);
  return folder;
}

const uploadsOf = (fileName: string) => emulator.state.uploads.filter((u) => u.file_name === fileName);

describe('a new quarter with the same file names and sizes', () => {
  it('is uploaded, said as "same name as statement N of 2026Q1"; a re-run of either quarter skips its own', async () => {
    const q1 = quarter('2026Q1', '100');
    const q2 = quarter('2026Q2', '200');
    const first = await runCli(emulator, ['upload', 'statement', q1, '--accounting-period', '2026Q1', '--wait']);
    expect(first.code).toBe(0);
    const q1Statement = uploadsOf('royalties.csv')[0]?.result_id;
    expect(q1Statement).toBeDefined();

    const json = join(dir, 'q2.json');
    const second = await runCli(emulator, [
      'upload',
      'statement',
      q2,
      '--accounting-period',
      '2026Q2',
      '--skip-existing',
      '--report',
      `json=${json}`,
    ]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(
      `uploaded ${join(q2, 'royalties.csv')} (25 B, same name as statement ${q1Statement} of 2026Q1): staging id`,
    );
    expect(second.stderr).toMatch(/^1 uploaded, 0 skipped, 0 failed \(/m);
    expect(uploadsOf('royalties.csv').map((u) => u.context?.accountingPeriod?.value)).toEqual(['2026Q1', '2026Q2']);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { files: Record<string, unknown>[] };
    expect(report.files[0]).toMatchObject({
      file: join(q2, 'royalties.csv'),
      changed: true,
      why: `same name as statement ${q1Statement} of 2026Q1`,
    });

    // Each quarter again: its own statement is there, the other's is not it.
    for (const [folder, period] of [
      [q2, '2026Q2'],
      [q1, '2026Q1'],
    ] as const) {
      const again = await runCli(emulator, [
        'upload',
        'statement',
        folder,
        '--accounting-period',
        period,
        '--skip-existing',
      ]);
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/^0 uploaded, 1 skipped, 0 failed \(/m);
    }
    expect(uploadsOf('royalties.csv')).toHaveLength(2);
  });

  it('another payor or currency is another statement too; =content compares only records that agree', async () => {
    const folder = quarter('payors', '300');
    const file = join(folder, 'royalties.csv');
    const name = 'payors.csv';
    const copy = join(folder, name);
    writeFileSync(copy, readFileSync(file));
    const base = ['upload', 'statement', copy, '--accounting-period', '2026Q3', '--currency-royalty', 'EUR'];
    expect((await runCli(emulator, [...base, '--payor', 'North Music'])).code).toBe(0);
    const other = await runCli(emulator, [...base, '--payor', 'South Music', '--skip-existing=content']);
    expect(other.code).toBe(0);
    expect(other.stderr).toMatch(/\(25 B, same name as statement \d+ \(payor North Music\)\): staging id/);
    const usd = await runCli(emulator, [
      'upload',
      'statement',
      copy,
      '--accounting-period',
      '2026Q3',
      '--currency-royalty',
      'USD',
      '--payor',
      'South Music',
      '--skip-existing',
    ]);
    expect(usd.code).toBe(0);
    expect(usd.stderr).toMatch(/same name as statement \d+ \(payor North Music, currency royalty EUR\)\): staging id/);
    // Unchanged context, unchanged bytes: skipped, compared by content.
    const same = await runCli(emulator, [...base, '--payor', 'South Music', '--skip-existing=content']);
    expect(same.code).toBe(0);
    expect(same.stderr).toMatch(/^skipped \S+payors\.csv: already uploaded \(statement \d+\)$/m);
    expect(uploadsOf(name).map((u) => [u.context?.payor, u.context?.currencyRoyalty])).toEqual([
      ['North Music', 'EUR'],
      ['South Music', 'EUR'],
      ['South Music', 'USD'],
    ]);
  });

  it('without a context given, name and size decide as before', async () => {
    const folder = quarter('nocontext', '400');
    const file = join(folder, 'royalties.csv');
    expect((await runCli(emulator, ['upload', 'statement', file, '--accounting-period', '2026Q4'])).code).toBe(0);
    const again = await runCli(emulator, ['upload', 'statement', file, '--skip-existing', '--dry-run']);
    expect(again.stdout).toMatch(/^would skip \S+royalties\.csv: already uploaded \(statement \d+\)$/m);
  });
});

// Nested values for scripts, through the built CLI: dotted --fields in every format, CSV and TSV
// spreading a nested object into dotted columns. Uses the bundle: `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';

describe('nested values for scripts: dotted --fields, spread CSV and TSV columns', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'deployed' });
  });
  afterAll(() => emulator?.close());
  const pds = async (args: string[]) => {
    const run = await runPds(args, { env: signedInEnv(emulator.url) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return run.stdout;
  };
  const revenue = (stdout: string) =>
    (JSON.parse(stdout) as { financials: { licensor_revenue: number } }[]).map((s) => s.financials.licensor_revenue);

  it('--fields takes a dotted path in every format', async () => {
    const json = await pds([
      'statements',
      'ls',
      '--per-page',
      '2',
      '--fields',
      'id,financials.licensor_revenue',
      '--json',
    ]);
    const [first, second] = revenue(json);
    expect(typeof first).toBe('number');
    expect(JSON.parse(json)).toEqual([
      { id: 40001, financials: { licensor_revenue: first } },
      { id: 40002, financials: { licensor_revenue: second } },
    ]);
    const args = ['statements', 'ls', '--per-page', '2', '--fields', 'id,financials.licensor_revenue'];
    expect(await pds([...args, '--format', 'csv'])).toBe(
      `id,financials.licensor_revenue\r\n40001,${first}\r\n40002,${second}\r\n`,
    );
    expect(await pds([...args, '--format', 'tsv'])).toBe(
      `ID\tFINANCIALS.LICENSOR_REVENUE\n40001\t${first}\n40002\t${second}\n`,
    );
    expect(await pds([...args, '--format', 'ndjson'])).toBe(
      `{"id":40001,"financials":{"licensor_revenue":${first}}}\n{"id":40002,"financials":{"licensor_revenue":${second}}}\n`,
    );
    expect(await pds([...args, '--format', 'yaml'])).toContain(`financials:\n    licensor_revenue: ${first}\n`);
    expect(await pds([...args, '--jq', '.[0].financials.licensor_revenue'])).toBe(`${first}\n`);
    const score = JSON.parse(
      await pds(['contracts', 'get', '20001', '--score', '--fields', 'id,score.summary.score', '--json']),
    );
    expect(typeof score.score.summary.score).toBe('number');
    expect(
      await pds(['contracts', 'get', '20001', '--score', '--fields', 'id,score.summary.score', '--format', 'tsv']),
    ).toBe(`id\t20001\nscore.summary.score\t${score.score.summary.score}\n`);
  });

  it('CSV and TSV spread a nested object into dotted columns, join a list of scalars, keep a list of objects as JSON', async () => {
    const csv = await pds(['statements', 'ls', '--per-page', '1', '--format', 'csv']);
    const [header = '', row = ''] = csv.split('\r\n');
    const columns = header.split(',');
    expect(columns).toEqual(
      expect.arrayContaining([
        'financials.currency',
        'financials.period',
        'financials.licensee_revenue',
        'financials.licensor_revenue',
        'statement_summary.summary',
      ]),
    );
    expect(columns).not.toContain('financials');
    const record = JSON.parse(await pds(['statements', 'get', '40001', '--json']));
    expect(row).toContain(`"${record.statement_summary.summary.join('; ')}"`);
    const tsv = await pds(['statements', 'ls', '--per-page', '1', '--fields', 'id,financials', '--format', 'tsv']);
    expect(tsv).toBe(
      'ID\tFINANCIALS.CURRENCY\tFINANCIALS.PERIOD\tFINANCIALS.LICENSEE_REVENUE\tFINANCIALS.LICENSOR_REVENUE\n' +
        `40001\t${record.financials.currency}\t${record.financials.period}\t${record.financials.licensee_revenue}\t${record.financials.licensor_revenue}\n`,
    );
    const identifiers = await pds([
      'recordings',
      'ls',
      '--per-page',
      '1',
      '--fields',
      'id,identifiers',
      '--format',
      'csv',
    ]);
    const recording = JSON.parse(await pds(['recordings', 'ls', '--per-page', '1', '--json']))[0];
    const cell = identifiers.split('\r\n')[1]?.slice(`${recording.id},`.length) ?? '';
    expect(JSON.parse(cell.slice(1, -1).replaceAll('""', '"'))).toEqual(recording.identifiers);
  });

  it('a dotted path whose first part is no field is exit 2, nothing printed', async () => {
    const run = await runPds(['statements', 'ls', '--fields', 'id,finances.total', '--format', 'csv'], {
      env: signedInEnv(emulator.url),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: unknown field 'finances.total' for statements\n/);
  });
});

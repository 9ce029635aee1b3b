// The roll-up figures of npm run bench (also alone: `npm run bench -- rollup`): `pds statements
// lines --all --by territory` over 1,000,000 lines (400 statements of 2,500 lines, every answer
// 20 ms late, their titles quoted as the service's exports quote them) beside scripts/floor/rollup.js,
// which fetches the same exports 8 at a time and sums one column with a naive split. Goals: within
// 1.5x its time, 1.3x its peak memory and 2x its CPU. Then one export of 300 MB (the emulator's
// --export-size), rolled up under 200 MiB of memory: pds never holds an export whole.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdsBin, root, startEmulator } from './lib.js';

export async function rollupFigures({ quick, env, sideBySide, timed, row, ratioAtMost, atMost }) {
  const statements = quick ? 20 : 400;
  const lines = quick ? 500 : 2500;
  const emulator = await startEmulator([
    '--statements',
    String(statements),
    '--lines',
    String(lines),
    '--latency',
    '20',
  ]);
  try {
    const rollupEnv = { ...env, PDS_API_URL: emulator.url };
    const runs = quick ? 1 : 3;
    const result = sideBySide(
      runs,
      [pdsBin, 'statements', 'lines', '--all', '--by', 'territory', '--json'],
      [join(root, 'scripts', 'floor', 'rollup.js')],
      rollupEnv,
      { probed: true },
    );
    const total = (statements * lines).toLocaleString('en-US');
    row(
      `pds statements lines --all --by territory, ${total} lines, ms`,
      'ms',
      result.pds.ms,
      result.base.ms,
      ratioAtMost(1.5),
    );
    row(
      `pds statements lines --all --by territory, ${total} lines, peak RSS`,
      'MiB',
      result.pds.rssMb,
      result.base.rssMb,
      ratioAtMost(1.3),
    );
    row(
      `pds statements lines --all --by territory, ${total} lines, CPU`,
      'ms',
      result.pds.cpuMs,
      result.base.cpuMs,
      ratioAtMost(2),
    );
  } finally {
    await emulator.stop();
  }
  await largeExportFigures({ quick, env, timed, row, atMost });
}

/** One export of 300 MB (30 MB quick) rolled up: its peak memory, whatever the export's size. */
async function largeExportFigures({ quick, env, timed, row, atMost }) {
  const size = quick ? '30M' : '300M';
  const emulator = await startEmulator(['--statements', '1', '--lines', '2500', '--export-size', size]);
  try {
    const run = timed(
      [pdsBin, 'statements', 'lines', '--all', '--by', 'territory', '--json'],
      {
        ...env,
        PDS_API_URL: emulator.url,
      },
      { probed: true },
    );
    row(
      `pds statements lines --by territory, one export of ${size}B, peak RSS`,
      'MiB',
      run.rssMb,
      undefined,
      atMost(200, 'MiB'),
    );
    row(`pds statements lines --by territory, one export of ${size}B, ms`, 'ms', run.ms, undefined);
  } finally {
    await emulator.stop();
  }
}

/**
 * `npm run bench -- files`: every line of 400 statements of 2,500 lines (1,000,000; 10,000 quick)
 * written to Parquet and to xlsx with -o, beside the CSV export of the same lines (printed, to
 * nowhere): the time and peak memory of one run each. The writers stream, so memory should stay
 * near the CSV's whatever the count; xlsx is the slow one (a zip of XML).
 */
export async function fileFigures({ quick, env, timed, row }) {
  const statements = quick ? 20 : 400;
  const lines = quick ? 500 : 2500;
  const total = (statements * lines).toLocaleString('en-US');
  const emulator = await startEmulator(['--statements', String(statements), '--lines', String(lines)]);
  const dir = mkdtempSync(join(tmpdir(), 'pds-bench-files-'));
  try {
    const filesEnv = { ...env, PDS_API_URL: emulator.url };
    const command = [pdsBin, 'statements', 'lines', '--all'];
    timed([...command, '--format', 'csv'], filesEnv); // warm the emulator's exports
    const csv = timed([...command, '--format', 'csv'], filesEnv, { probed: true });
    row(`pds statements lines --all --format csv, ${total} lines, ms`, 'ms', csv.ms, undefined);
    row(`pds statements lines --all --format csv, ${total} lines, peak RSS`, 'MiB', csv.rssMb, undefined);
    for (const format of ['parquet', 'xlsx']) {
      const file = join(dir, `lines.${format}`);
      const run = timed([...command, '--format', format, '-o', file], filesEnv, { probed: true });
      const figure = `pds statements lines --all --format ${format} -o, ${total} lines`;
      process.stderr.write(`  ${file}: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB\n`);
      row(`${figure}, ms`, 'ms', run.ms, csv.ms, undefined, 'the CSV export');
      row(`${figure}, peak RSS`, 'MiB', run.rssMb, csv.rssMb, undefined, 'the CSV export');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await emulator.stop();
  }
}

// The roll-up figures of npm run bench (also alone: `npm run bench -- rollup`): `pds statements
// lines --all --by territory` over 1,000,000 lines (400 statements of 2,500 lines, every answer
// 20 ms late, their titles quoted as the service's exports quote them) beside scripts/floor/rollup.js,
// which fetches the same exports 8 at a time and sums one column with a naive split. Goals: within
// 1.5x its time, 1.3x its peak memory and 2x its CPU. Then one export of 300 MB (the emulator's
// --export-size), rolled up under 200 MiB of memory: pds never holds an export whole.
import { pdsBin, root, startEmulator } from './lib.js';
import { join } from 'node:path';

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

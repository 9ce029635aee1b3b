// The roll-up figures of npm run bench (also alone: `npm run bench -- rollup`): `pds statements
// lines --all --by territory` over 1,000,000 lines (400 statements of 2,500 lines, every answer
// 20 ms late) beside scripts/floor/rollup.js, which fetches the same exports 8 at a time and sums
// one column with a naive split. Goal: within 1.5x its time and 1.3x its peak memory.
import { pdsBin, root, startEmulator } from './lib.js';
import { join } from 'node:path';

export async function rollupFigures({ quick, env, sideBySide, row, ratioAtMost }) {
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
  } finally {
    await emulator.stop();
  }
}

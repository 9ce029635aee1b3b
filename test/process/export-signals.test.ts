// Through the built pds: whatever an export holds, a signal ends `statements lines --by` within a
// second. The emulator serves, without end, rows whose amount is a cell of 100,000 digits: the
// reading is busy the whole time, and must still give the signal its turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { isProcessed } from '../../src/emulator/deployed/statements.js';
import { testEmulator } from '../helpers/emulator.js';
import { signedInEnv, startPds, until } from '../helpers/process.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'deployed', processingMs: 20 });
});
afterAll(() => emulator.close());

describe('a signal during an export that keeps pds busy', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exit ${code} within a second`, { timeout: 30_000 }, async () => {
      const statement = emulator.state.data[DEMO_PROJECT_ID]!.statements.find(isProcessed)!;
      const text = `territory,licensor_revenue\n${`GB,${'9'.repeat(100_000)}\n`}${'GB,1.00\n'.repeat(5000)}`;
      emulator.storage.faults.exports = new Map([[statement.id, { text, endless: true }]]);
      const requests = emulator.storage.requests.length;
      const pds = startPds(['statements', 'lines', String(statement.id), '--by', 'territory', '--timeout', '120'], {
        env: signedInEnv(emulator.url),
        killAfterMs: 25_000,
      });
      await until(() => emulator.storage.requests.length > requests, 'the export asked for');
      // Let pds read for a while: it is busy with the cells when the signal comes.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const sent = Date.now();
      pds.child.kill(signal);
      const run = await pds.exited;
      expect(run.signal, run.stderr).toBeNull();
      expect(run.code, run.stderr).toBe(code);
      // Within a second on a quiet machine; the bound leaves room for a loaded one, and stays under
      // the 5 s after which pds would give up waiting for its work (a reader that never yields).
      expect(Date.now() - sent).toBeLessThan(3_000);
    });
  }
});

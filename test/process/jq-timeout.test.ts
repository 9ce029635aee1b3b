import { afterEach, describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv, startPds } from '../helpers/process.js';
import type { RogueServer } from '../helpers/rogue-server.js';

const emulator = sharedEmulator();
let rogue: RogueServer | undefined;
afterEach(async () => {
  await rogue?.close();
  rogue = undefined;
});

describe('--jq is bounded and can be interrupted', () => {
  it.each([['def f: f; f'], ['[range(1e9)] | length']])(
    '%j: Ctrl-C stops it within a second, exit 130',
    async (expression) => {
      const pds = startPds(['projects', 'ls', '--jq', expression], { env: signedInEnv(emulator.url) });
      // The expression is first run on null (to check it compiles): it is running by now.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(pds.child.exitCode).toBeNull();
      const sent = Date.now();
      pds.child.kill('SIGINT');
      const exit = await pds.exited;
      expect(exit.code).toBe(130);
      expect(Date.now() - sent).toBeLessThan(1_000);
    },
  );

  it('a runaway expression on the data stops after --jq-timeout: exit 2 naming it', async () => {
    const pds = await runPds(
      ['projects', 'ls', '--jq', 'if type == "array" then last(repeat(1)) else . end', '--jq-timeout', '1'],
      { env: signedInEnv(emulator.url) },
    );
    expect(pds).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: --jq: the expression \'if type == "array" then last(repeat(1)) else . end\' did not finish within 1 s\n  raise the limit with --jq-timeout <seconds>\n',
    });
    expect(pds.ms).toBeLessThan(5_000);
    // The data was fetched: the limit applied to jq, not to the request.
    expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/projects']);
  });

  it('the default limit is 10 s', async () => {
    const pds = await runPds(['projects', 'ls', '--jq', 'def f: f; f'], {
      env: signedInEnv(emulator.url),
      killAfterMs: 30_000,
    });
    expect(pds.code).toBe(2);
    expect(pds.stderr).toContain('did not finish within 10 s');
    expect(pds.ms).toBeGreaterThan(9_900);
    expect(emulator.requests).toEqual([]);
  }, 30_000);

  it.each([['0'], ['abc'], ['4000']])('--jq-timeout %j: exit 2, nothing sent', async (given) => {
    const pds = await runPds(['projects', 'ls', '--jq', '.', '--jq-timeout', given], {
      env: signedInEnv(emulator.url),
    });
    expect(pds).toMatchObject({
      code: 2,
      stderr: `error: invalid --jq-timeout '${given}': expected seconds from 0.1 to 3600\n`,
    });
    expect(emulator.requests).toEqual([]);
  });

  it('an ordinary expression still works, and the process ends right after its output', async () => {
    const pds = await runPds(['projects', 'ls', '--jq', '.[].name'], { env: signedInEnv(emulator.url) });
    expect(pds).toMatchObject({ code: 0, stdout: 'Northern Lights Catalog\nHarbor Sessions\n', stderr: '' });
    expect(pds.afterLastOutputMs).toBeLessThan(500);
  });
});

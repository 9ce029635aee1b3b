// --jq is bounded and can be interrupted, in the built pds: a runaway expression stops after
// --jq-timeout (exit 2 naming it), the default limit, an ordinary expression unaffected.
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { cpuSeconds, runPds, signedInEnv, startPds, until } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });

describe('--jq is bounded and can be interrupted', () => {
  it.each([['def f: f; f'], ['[range(1e9)] | length']])(
    '%j: Ctrl-C stops it within a second, exit 130',
    async (expression) => {
      const pds = startPds(['projects', 'ls', '--jq', expression], { env: signedInEnv(emulator.url) });
      // The expression is first run on null (to check it compiles): once pds has used a second of
      // CPU (it starts in a third of one), it is running, its Ctrl-C handling in place.
      const pid = pds.child.pid as number;
      await until(() => pds.child.exitCode === null && cpuSeconds(pid) >= 1, 'pds running the expression');
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
    // Ended by the 1 s limit, not by the test's SIGKILL: the bound leaves a loaded machine room.
    expect(pds.ms).toBeLessThan(20_000);
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
      stderr: `error: invalid --jq-timeout '${given}': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)\n`,
    });
    expect(emulator.requests).toEqual([]);
  });

  it('an ordinary expression still works, and the process ends right after its output', async () => {
    const pds = await runPds(['projects', 'ls', '--jq', '.[].name'], { env: signedInEnv(emulator.url) });
    expect(pds).toMatchObject({ code: 0, stdout: 'Northern Lights Catalog\nHarbor Sessions\n', stderr: '' });
    // Nothing it started (jq's worker) keeps it alive after the output.
    expect(pds.afterLastOutputMs).toBeLessThan(3_000);
  });
});

// What a project earned, as a person sees it in a real terminal and a script in a pipe: the roll-up's
// progress drawn on a terminal and cleared at the end, nothing of it piped; Ctrl-C during a long
// roll-up ends it with 130 at once. The built CLI, on a pty where a terminal matters; loopback only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

let emulator: Emulator;
beforeAll(async () => {
  // Slow enough that reading every export takes seconds: long work, as a person would wait on it.
  emulator = await testEmulator({ flavor: 'deployed', latencyMs: 150 });
});
afterAll(() => emulator.close());

const env = () => signedInEnv(emulator.url, { CI: undefined, GITHUB_ACTIONS: undefined });

describe('statements lines --all --by territory', () => {
  it('on a terminal: progress while exports are read, cleared at the end; the table with bars stays', async () => {
    const pty = await ptyPds(['statements', 'lines', '--all', '--by', 'territory'], { env: env(), cols: 80 });
    await pty.waitFor(/\d+\/\d+ statements/, 30_000);
    const exit = await pty.exited;
    expect(exit.code).toBe(0);
    const rows = await pty.screen();
    expect(rows.some((row) => /statements · /.test(row))).toBe(false);
    expect(rows.some((row) => /^TERRITORY\s+LINES\s+LICENSOR REVENUE/.test(row))).toBe(true);
    expect(rows.some((row) => /█/.test(row))).toBe(true);
    expect(pty.cursorVisible()).toBe(true);
  }, 60_000);

  it('piped: no progress and no bars, only the not-processed note on stderr', async () => {
    const result = await runPds(['statements', 'lines', '--all', '--by', 'territory'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^\d+ statements not processed \(\d+, \d+, … — see --verbose\)\n$/);
    expect(result.stdout).not.toMatch(/[█▏▎▍▌▋▊▉]/);
    expect(result.stdout.split('\n')[0]).toBe(
      'TERRITORY\tCURRENCY\tSTATEMENTS\tLINES\tUNITS\tLICENSEE_REVENUE\tLICENSOR_REVENUE',
    );
  }, 60_000);

  it('Ctrl-C while exports are being read ends it with 130 within 2 s, the progress cleared', async () => {
    const pty = await ptyPds(['statements', 'lines', '--all', '--by', 'territory'], { env: env(), cols: 80 });
    await pty.waitFor(/\d+\/\d+ statements/, 30_000);
    const pressed = Date.now();
    pty.write('\u0003');
    const exit = await pty.exited;
    expect(exit.code).toBe(130);
    expect(Date.now() - pressed).toBeLessThan(2_000);
    await pty.waitFor('\u001b[?25h', 2_000).catch(() => undefined);
    expect(pty.cursorVisible()).toBe(true);
    const rows = (await pty.screen()).map((row) => row.replace(/\^C/g, '').trim()).filter(Boolean);
    expect(rows.some((row) => /statements · /.test(row))).toBe(false);
    expect(rows.some((row) => /^TERRITORY/.test(row))).toBe(false);
  }, 60_000);
});

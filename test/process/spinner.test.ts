// A spinner while a slow request runs (the built CLI on a pty): on stderr after about a second and
// cleared before the output; nothing of it piped or under CI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEmulator } from '../helpers/emulator.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';
import type { Emulator } from '../../src/emulator/server.js';

describe('a spinner while a slow request runs', () => {
  let slow: Emulator;
  beforeAll(async () => {
    slow = await testEmulator({ flavor: 'current', latencyMs: 1_500 });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('sandbox exec on a terminal: a spinner on stderr after about a second, cleared before the output', async () => {
    const term = await ptyPds(['sandbox', 'exec', 'echo hello'], {
      cols: 80,
      env: signedInEnv(slow.url),
    });
    const started = Date.now();
    await term.waitFor('waiting for the service');
    expect(Date.now() - started).toBeGreaterThan(800);
    const exit = await term.exited;
    expect(exit.code).toBe(0);
    // The spinner's line is gone: the screen holds the command's output alone.
    expect(await term.screen()).toEqual(['hello']);
    expect(term.cursorVisible()).toBe(true);
  });

  it('piped, or under CI: nothing on stderr', async () => {
    const piped = await runPds(['sandbox', 'exec', 'echo hello'], { env: signedInEnv(slow.url) });
    expect(piped).toMatchObject({ code: 0, stdout: 'hello\n', stderr: '' });
    const ci = await ptyPds(['sandbox', 'exec', 'echo hello'], {
      env: signedInEnv(slow.url, { CI: 'true' }),
    });
    expect((await ci.exited).code).toBe(0);
    expect(ci.raw()).not.toContain('waiting for the service');
  });
});

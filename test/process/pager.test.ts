// The pager, with the built CLI on a pseudo-terminal and a pager command the test controls: a
// small script that announces itself on the terminal and keeps what it was given in a file.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

let emulator: Emulator;
let dir: string;
let pager: string;
let slowPager: string;
let quitter: string;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
  dir = mkdtempSync(join(tmpdir(), 'pds-pager-'));
  const script = (name: string, body: string) => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  // Each writes what it read to the file named by PAGED_TO.
  pager = script('pager.sh', 'echo "PAGER STARTED"\ncat > "$PAGED_TO"\necho "PAGER DONE"');
  slowPager = script('slow-pager.sh', 'echo "PAGER STARTED"\ncat > "$PAGED_TO"\nsleep 30');
  quitter = script('quitter.sh', 'head -c 100 > "$PAGED_TO"\necho "PAGER QUIT"');
});
afterAll(() => emulator.close());

function env(extra: Record<string, string | undefined> = {}) {
  const pagedTo = join(dir, `paged-${Math.random().toString(36).slice(2)}`);
  return {
    pagedTo,
    // Without colour: the tests read what the pager was given as plain text.
    env: signedInEnv(emulator.url, { PAGED_TO: pagedTo, PDS_PAGER: pager, PAGER: undefined, NO_COLOR: '1', ...extra }),
  };
}

describe('the pager', () => {
  it('takes output longer than the screen, from its first line, footer included', async () => {
    const { env: vars, pagedTo } = env();
    const pds = await ptyPds(['artists', 'ls', '--all'], { env: vars, rows: 30 });
    const exit = await pds.exited;
    expect(exit.code).toBe(0);
    const screen = (await pds.screen()).join('\n');
    expect(screen).toContain('PAGER STARTED');
    expect(screen).toContain('PAGER DONE');
    const paged = readFileSync(pagedTo, 'utf8').split('\n');
    expect(paged[0]).toMatch(/^ID +NAME$/);
    expect(paged.filter((line) => /^art_\d+ /.test(line))).toHaveLength(100);
    expect(paged).toContain('100 artists');
  });

  it('takes a help page longer than the screen (`--help`, `pds help`), not one that fits', async () => {
    for (const args of [
      ['contracts', 'ls', '--help'],
      ['help', 'options'],
    ]) {
      const { env: vars, pagedTo } = env();
      const pds = await ptyPds(args, { env: vars, rows: 12 });
      expect((await pds.exited).code).toBe(0);
      expect((await pds.screen()).join('\n')).toContain('PAGER DONE');
      expect(readFileSync(pagedTo, 'utf8')).toMatch(
        args[0] === 'help' ? /^Global options/ : /^Usage: pds contracts ls/,
      );
    }
    const { env: vars, pagedTo } = env();
    const fits = await ptyPds(['help', 'exit-codes'], { env: vars, rows: 40 });
    expect((await fits.exited).code).toBe(0);
    expect((await fits.screen()).join('\n')).toContain('Exit codes of pds');
    expect(existsSync(pagedTo)).toBe(false);
    const { env: off, pagedTo: offTo } = env();
    const noPager = await ptyPds(['contracts', 'ls', '--help', '--no-pager'], { env: off, rows: 12 });
    expect((await noPager.exited).code).toBe(0);
    expect(existsSync(offTo)).toBe(false);
  });

  it('is not started for output that fits the screen', async () => {
    const { env: vars, pagedTo } = env();
    const pds = await ptyPds(['projects', 'ls'], { env: vars, rows: 30 });
    expect((await pds.exited).code).toBe(0);
    const screen = await pds.screen();
    expect(screen[0]).toMatch(/^ +ID +NAME +CREATED$/);
    expect(screen.join('\n')).toContain('Northern Lights Catalog');
    expect(screen.join('\n')).not.toContain('PAGER STARTED');
    expect(existsSync(pagedTo)).toBe(false);
  });

  it('is off with --no-pager, with an empty PDS_PAGER, and whenever stdout is not a terminal', async () => {
    const off = env();
    const flag = await ptyPds(['artists', 'ls', '--all', '--no-pager'], { env: off.env, rows: 30 });
    expect((await flag.exited).code).toBe(0);
    expect((await flag.screen()).join('\n')).toContain('100 artists');
    const empty = env({ PDS_PAGER: '' });
    const emptied = await ptyPds(['artists', 'ls', '--all'], { env: empty.env, rows: 30 });
    expect((await emptied.exited).code).toBe(0);
    const piped = env();
    const run = await runPds(['artists', 'ls', '--all'], { env: piped.env });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('art_'))).toHaveLength(100);
    for (const { pagedTo } of [off, empty, piped]) expect(existsSync(pagedTo)).toBe(false);
    expect((await flag.screen()).join('\n')).not.toContain('PAGER STARTED');
    expect((await emptied.screen()).join('\n')).not.toContain('PAGER STARTED');
  });

  it('uses PAGER when PDS_PAGER is not set', async () => {
    const { env: vars, pagedTo } = env({ PDS_PAGER: undefined, PAGER: pager });
    const pds = await ptyPds(['artists', 'ls', '--all'], { env: vars, rows: 30 });
    expect((await pds.exited).code).toBe(0);
    expect(readFileSync(pagedTo, 'utf8')).toContain('100 artists');
  });

  it('a pager that cannot be started loses nothing: the output prints directly, with a warning', async () => {
    for (const extra of [
      { PDS_PAGER: undefined, PAGER: 'nosuchpager-pds-test' },
      { PDS_PAGER: join(dir, 'missing.sh') },
    ]) {
      const { env: vars } = env(extra);
      // Wide enough for the warning on one row, however long the temp dir's path in it.
      const pds = await ptyPds(['artists', 'ls', '--all'], { env: vars, rows: 30, cols: 250 });
      expect((await pds.exited).code).toBe(0);
      const screen = await pds.screen();
      expect(screen.filter((line) => /^art_\d+ /.test(line))).toHaveLength(100);
      expect(screen).toContain('100 artists');
      expect(screen.join('\n')).toMatch(
        /warning: the pager '.*(nosuchpager-pds-test|missing\.sh)' could not be started \(exit 127\); printing directly/,
      );
    }
  });

  it('a pager quit early ends the command quietly with exit 0', async () => {
    const { env: vars, pagedTo } = env({ PDS_PAGER: quitter });
    const pds = await ptyPds(['artists', 'ls', '--all', '--per-page', '10'], { env: vars, rows: 10 });
    const exit = await pds.exited;
    expect(exit.code).toBe(0);
    expect(readFileSync(pagedTo, 'utf8')).toHaveLength(100);
    expect((await pds.screen()).join('\n')).not.toMatch(/error/i);
  });

  it('keeps exit codes: an error after a pager was configured is still its own code', async () => {
    const { env: vars } = env();
    const pds = await ptyPds(['contracts', 'get', 'nope'], { env: vars, rows: 30 });
    expect((await pds.exited).code).toBe(5);
  });

  it('Ctrl-C while the pager runs ends pds with 130 within a second', async () => {
    const { env: vars, pagedTo } = env({ PDS_PAGER: slowPager });
    const pds = await ptyPds(['artists', 'ls', '--all'], { env: vars, rows: 30 });
    await pds.waitFor('PAGER STARTED');
    // Everything was handed over: the pager holds the terminal until it is quit.
    for (let i = 0; i < 100 && !(existsSync(pagedTo) && readFileSync(pagedTo, 'utf8').includes('100 artists')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pressed = Date.now();
    pds.write('\x03');
    const exit = await pds.exited;
    expect(exit.code).toBe(130);
    expect(Date.now() - pressed).toBeLessThan(1000);
  });
});

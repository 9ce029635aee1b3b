// Downloads in the real process: Ctrl-C in the middle of a file, and a body cut short, leave
// nothing behind (no file at the target, no temporary file).
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { ptyPds, runPds, signedInEnv, startPds, until } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const env = () => signedInEnv(emulator.url);
const contractId = () => emulator.state.data[DEMO_PROJECT_ID]?.contracts[0]?.id as string;

it('Ctrl-C during a download: exit 130 within a second, no file at the target, no temporary file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-download-'));
  emulator.storage.requests.length = 0;
  emulator.storage.faults.stallAfterBytes = 200;
  try {
    const pds = startPds(['contracts', 'download', contractId(), '-o', join(dir, 'c.pdf')], { env: env() });
    await until(() => emulator.storage.requests.length === 1, 'the download to start');
    // The first bytes are on their way; the rest never come.
    await until(() => readdirSync(dir).length === 1, 'the temporary file');
    // What is there is the temporary file, never the target.
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^\.c\.pdf\.[0-9a-f]{8}\.part$/)]);
    const interrupted = Date.now();
    pds.child.kill('SIGINT');
    const exit = await pds.exited;
    expect(exit.code).toBe(130);
    expect(Date.now() - interrupted).toBeLessThan(1_000);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    emulator.storage.faults.stallAfterBytes = undefined;
  }
});

it('a body cut short: exit 1 with the reason, nothing left in the directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-download-'));
  emulator.storage.faults.cutAfterBytes = 50;
  try {
    const run = await runPds(['contracts', 'download', contractId(), '-o', `${dir}/`], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: the download was cut short: \d+ of \d+ bytes arrived\n$/);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    emulator.storage.faults.cutAfterBytes = undefined;
  }
});

it('on a terminal: a line per file, then the summary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-download-'));
  const [a, b] = emulator.state.data[DEMO_PROJECT_ID]?.statements ?? [];
  // Wide enough for a line per file, however long the temp dir's path in it.
  const pds = await ptyPds(['statements', 'download', String(a?.id), String(b?.id), '99999', '-o', `${dir}/`], {
    env: { ...env(), NO_COLOR: '1' },
    cols: 250,
  });
  const exit = await pds.exited;
  expect(exit.code).toBe(1);
  const screen = await pds.screen();
  const size = (name: string | undefined) => statSync(join(dir, name as string)).size;
  expect(screen).toEqual([
    `✓ statement ${a?.id} → ${join(dir, a?.file_name as string)}  ${size(a?.file_name)} B`,
    `✓ statement ${b?.id} → ${join(dir, b?.file_name as string)}  ${size(b?.file_name)} B`,
    `✗ statement 99999  not found in project Northern Lights Catalog (${DEMO_PROJECT_ID})`,
    `error: statement 99999: not found in project Northern Lights Catalog (${DEMO_PROJECT_ID})`,
    '2 downloaded, 1 failed',
  ]);
  expect(pds.cursorVisible()).toBe(true);
});

it('exits right after its last output (no connection or timer outlives the downloads)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pds-download-'));
  const run = await runPds(['statements', 'download', '--all', '-o', `${dir}/`], { env: env() });
  expect(run.code).toBe(0);
  expect(run.stderr.endsWith(`\n${emulator.state.data[DEMO_PROJECT_ID]?.statements.length} downloaded\n`)).toBe(true);
  expect(run.afterLastOutputMs).toBeLessThan(500);
});

it('more files than the screen has rows: every file once in the scrollback, no redrawn copies left behind', async () => {
  // Each link takes a while: the block is redrawn many times while files are still waiting.
  const slow = await testEmulator({ flavor: 'current', latencyMs: 40 });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'pds-download-'));
    const ids = (slow.state.data[DEMO_PROJECT_ID]?.contracts ?? []).map((c) => c.id);
    expect(ids.length).toBeGreaterThan(30);
    const rows = 20;
    const pds = await ptyPds(['contracts', 'download', '--all', '-o', `${dir}/`], {
      env: { ...env(), PDS_API_URL: slow.url, NO_COLOR: '1' },
      rows,
    });
    expect((await pds.exited).code).toBe(0);
    // The cursor never went up further than the screen allows (rows - 1 lines live, the cursor below).
    const ups = [...pds.raw().matchAll(/\u001b\[(\d+)A/g)].map((match) => Number(match[1]));
    expect(ups.length).toBeGreaterThan(2);
    expect(Math.max(...ups)).toBeLessThanOrEqual(rows - 1);
    // The files that did not fit yet were counted below the block.
    expect(pds.raw()).toMatch(/\u001b\[2K {2}… \d+ more\r?\n/);
    const screen = await pds.screen();
    // Scrollback and screen: one final line per file, in order, then the summary; nothing else.
    expect(screen.slice(0, -1).map((line) => /^✓ contract (\S+) → /.exec(line)?.[1])).toEqual(ids);
    expect(screen.at(-1)).toBe(`${ids.length} downloaded`);
    expect(pds.cursorVisible()).toBe(true);
  } finally {
    await slow.close();
  }
});

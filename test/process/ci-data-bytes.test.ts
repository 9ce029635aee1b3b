// Data pds writes to a pipe is the same bytes with or without GITHUB_ACTIONS, in its default form
// (TSV) as in a format asked for: a script in a CI step reads what it would read anywhere. What pds
// writes for people (stderr) is still guarded against lines a runner would obey. Through the built
// bin/pds.js in a shell pipeline into gzip, as a workflow's `run:` would have it.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { testEmulator } from '../helpers/emulator.js';
import { childEnv, PDS_BIN, runPds, signedInEnv } from '../helpers/process.js';
import { obeyed } from '../helpers/workflow-commands.js';

const CI = { GITHUB_ACTIONS: 'true', CI: 'true' };
const NAMES = ['::error::x.csv', 'a ##[group]b.csv'];
/** A title a runner would obey twice: a line of its own inside a quoted CSV cell, and `##[group]` anywhere. */
const TITLE = 'Intro\n::error::x ##[group]y';
const TAG = 'bytes-ci';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'deployed', processingMs: 20 });
  const dir = mkdtempSync(join(tmpdir(), 'pds-data-bytes-'));
  for (const name of NAMES) writeFileSync(join(dir, name), 'isrc,units\nQMNLC1800096,10\n');
  const uploaded = await runPds(
    ['upload', 'statement', ...NAMES.map((n) => join(dir, n)), '--wait', '--interval', '0.1', '--tag', TAG],
    { env: signedInEnv(emulator.url, { ...CI, GITHUB_WORKSPACE: dir }) },
  );
  expect(uploaded.code, uploaded.stderr).toBe(0);
  // pds's words for people on stderr: each name there, none of them a command the runner obeys.
  expect(obeyed(uploaded.stderr)).toEqual([]);
  expect(uploaded.stderr).toMatch(/^processed a ##\\x5bgroup\]b\.csv: staging id \d+, statement \d+ completed$/m);
  // Every recording's title (the lines' `title` column) is one the runner would obey.
  for (const recording of emulator.state.data[DEMO_PROJECT]?.recordings ?? []) recording.name = TITLE;
}, 60_000);
afterAll(() => emulator.close());

/** `pds <args> | gzip -n` in bash with pipefail; the bytes gzip was given. */
function piped(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; data: Buffer }> {
  const command = `${[process.execPath, PDS_BIN, ...args].map((a) => `'${a}'`).join(' ')} | gzip -n`;
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-o', 'pipefail', '-c', command],
      { env: childEnv(env), encoding: 'buffer', timeout: 40_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, data: gunzipSync(stdout) }),
    );
  });
}

describe('data piped under GITHUB_ACTIONS is the bytes it is without', () => {
  it.each([
    ['statements ls (TSV, no --format)', ['statements', 'ls', '--all']],
    ['statements lines --all (CSV of every line)', ['statements', 'lines', '--all', '--tag', TAG]],
  ])(
    '%s',
    async (_, args) => {
      const env = signedInEnv(emulator.url);
      const plain = await piped(args, env);
      const actions = await piped(args, { ...env, ...CI });
      expect(plain.code).toBe(0);
      expect(actions.code).toBe(0);
      expect(actions.data.equals(plain.data)).toBe(true);
      const text = actions.data.toString('utf8');
      expect(text).not.toContain('::stop-commands::');
      if (args[1] === 'ls') for (const name of NAMES) expect(text).toContain(name);
      // The title as the service gave it, its line feed inside the quoted cell.
      else expect(text).toContain(`"${TITLE}"`);
    },
    60_000,
  );

  it('what pds writes for people (stderr) is still guarded: a re-run names each skipped file escaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-data-bytes-again-'));
    for (const name of NAMES) writeFileSync(join(dir, name), 'isrc,units\nQMNLC1800096,10\n');
    const run = await runPds(['upload', 'statement', dir, '--skip-existing'], {
      env: signedInEnv(emulator.url, { ...CI, GITHUB_WORKSPACE: dir }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(obeyed(run.stderr)).toEqual([]);
    expect(run.stderr).toMatch(/^skipped ::error::x\.csv: already uploaded \(statement \d+\)$/m);
    expect(run.stderr).toMatch(/^skipped a ##\\x5bgroup\]b\.csv: already uploaded \(statement \d+\)$/m);
  });
});

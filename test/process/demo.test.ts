// `npm run demo > demo.log`: text for a file has no escape codes, and every `$ …` line it echoes
// pastes into a shell as the command the demo ran. What ran is recorded by a preloaded module in
// each pds child (NODE_OPTIONS), not by the demo, so the check does not trust the demo's word.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/process.js';

const DEMO = fileURLToPath(new URL('../../scripts/demo.js', import.meta.url));

/** The argv (after the program) of each `pds` that `line` runs, as bash parses the line. */
function pdsArgvOf(line: string, dir: string): string[][] {
  const out = join(dir, `parsed-${Math.random().toString(36).slice(2)}`);
  writeFileSync(out, '');
  // `pds` is a function recording its arguments (one call a line, NUL between words); the rest of
  // the pipeline (echo, wc) is the real program.
  const script = `pds() { printf '%s\\0' "$@" >> "$OUT"; printf '\\n' >> "$OUT"; }\n${line}\n`;
  const parsed = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    env: { PATH: '/usr/bin:/bin', HOME: dir, OUT: out },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  expect(parsed.status, `${line}\n${parsed.stderr}`).toBe(0);
  expect(parsed.stderr, line).toBe('');
  return readFileSync(out, 'utf8')
    .split('\n')
    .filter((call) => call !== '')
    .map((call) => call.split('\0').slice(0, -1));
}

describe('npm run demo into a file', () => {
  it('writes no escape codes, and each echoed command is the one it ran, quoted so that a shell reads it back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-demo-test-'));
    const record = join(dir, 'record.cjs');
    const ran = join(dir, 'ran.ndjson');
    writeFileSync(
      record,
      `if (/[\\\\/]bin[\\\\/]pds\\.js$/.test(process.argv[1] || '')) require('node:fs').appendFileSync(${JSON.stringify(ran)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
    );
    writeFileSync(ran, '');
    const child = spawn(process.execPath, [DEMO], {
      env: childEnv({ HOME: dir, NODE_OPTIONS: `--require ${record}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('latin1')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('latin1')));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain('\n## Log in and pick a project\n');
    expect(stdout).not.toContain('\x1b');
    expect(stderr).not.toContain('\x1b');

    const echoed = stdout
      .split('\n')
      .filter((line) => line.startsWith('$ '))
      .map((line) => line.slice(2));
    expect(echoed.length).toBeGreaterThan(15);
    const actual = readFileSync(ran, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as string[]);
    // Each echoed command, parsed by bash, is a command that ran, in the order shown (the demo also
    // runs a few unshown commands for the data it needs, and the emulator).
    let next = 0;
    for (const line of echoed) {
      const calls = pdsArgvOf(line, dir);
      expect(calls, line).toHaveLength(1);
      const at = actual.findIndex((argv, i) => i >= next && JSON.stringify(argv) === JSON.stringify(calls[0]));
      expect(at, `not run as shown: ${line}`).toBeGreaterThanOrEqual(0);
      next = at + 1;
    }
    // The two commands whose quoting was wrong or unpasteable before.
    expect(echoed).toContain("pds sandbox exec 'grep -ril nova artists | head -5'");
    expect(echoed).toContain('echo demo-org-token | pds auth login --with-token');
  }, 60_000);
});

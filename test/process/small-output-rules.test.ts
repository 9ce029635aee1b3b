// What the built CLI prints in small cases: a noun alone prints its short help (stdout, exit 0),
// statements not yet processed show it, `pds api` piped ends with a newline, `download -o -` to a
// terminal is refused and sends nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });

describe('a noun alone', () => {
  it('prints its short help on stdout and exits 0', async () => {
    const result = await runPds(['projects'], { env: signedInEnv(emulator.url) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: pds projects /);
    expect(result.stdout).toContain('Global options: -p, --project, --profile');
    expect(result.stdout).not.toContain('--retry-budget <seconds>');
  });
});

describe('statements not yet processed', () => {
  it('show processing, not blank columns', async () => {
    // A statement exists once staged (one step), and is processed three steps later.
    const slow = await testEmulator({ flavor: 'current', processingMs: 1_500 });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'pds-unprocessed-'));
      const pdf = join(dir, 'new.pdf');
      writeFileSync(pdf, '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
      const env = signedInEnv(slow.url);
      expect((await runPds(['upload', 'statement', pdf, '-q'], { env })).code).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_700));
      const listed = await runPds(['statements', 'ls', '--all'], { env });
      const row = listed.stdout.split('\n').find((line) => line.includes('new.pdf'));
      expect(row?.split('\t').slice(1, 5)).toEqual(['new.pdf', 'processing', 'processing', 'processing']);
      const json = JSON.parse((await runPds(['statements', 'ls', '--all', '--json'], { env })).stdout) as {
        file_name?: string;
        statement_type?: unknown;
      }[];
      expect(json.find((s) => s.file_name === 'new.pdf')?.statement_type ?? null).toBeNull();
    } finally {
      await slow.close();
    }
  });
});

describe('pds api piped', () => {
  it('ends its output with a newline', async () => {
    const result = await runPds(['api', 'projects'], { env: signedInEnv(emulator.url) });
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith('}\n')).toBe(true);
  });
});

describe('download -o - to a terminal', () => {
  it('refuses with exit 2, as curl does, and sends nothing', async () => {
    const id = emulator.state.data[DEMO_PROJECT_ID]?.contracts[0]?.id as string;
    const before = emulator.requests.length;
    const term = await ptyPds(['contracts', 'download', id, '-o', '-'], { env: signedInEnv(emulator.url) });
    const exit = await term.exited;
    expect(exit.code).toBe(2);
    expect((await term.screen()).join('\n')).toContain('error: refusing to write a binary file to the terminal');
    expect(emulator.requests.length).toBe(before);
  });
});

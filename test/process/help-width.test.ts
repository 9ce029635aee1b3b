// Help fits the width it is printed in, from 60 columns: options, notes and examples wrap (an
// example between its shell words, with ` \` so it still pastes as one command), never past the
// width. Through the built CLI: COLUMNS over a pipe, and a 60-column pseudo-terminal; every page
// in-process at 60 columns.
import { spawnSync } from 'node:child_process';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { runCli } from '../helpers/cli.js';
import { ptyPds, runPds } from '../helpers/process.js';

const PAGES = [
  [],
  ['contracts', 'ls'],
  ['upload', 'statement'],
  ['sandbox', 'exec'],
  ['mcp'],
  ['mcp', 'config'],
  ['statements', 'update'],
  ['options'],
  ['exit-codes'],
];

/** The lines of `text` wider than `columns` terminal cells (escape sequences not counted). */
function tooWide(text: string, columns: number): string[] {
  return text.split(/\r?\n/).filter((line) => stringWidth(line) > columns);
}

/** Every command path: each noun, its verbs, and the verbs that stand alone. */
function commandPaths(): string[][] {
  const paths: string[][] = [];
  for (const entry of COMMANDS) {
    if ('verbs' in entry) {
      paths.push([entry.name]);
      for (const verb of entry.verbs) paths.push([entry.name, verb.name]);
    } else if (!entry.hidden) paths.push([entry.name]);
  }
  return paths;
}

describe('help at 60 columns', () => {
  it.each(PAGES.map((page) => [page.join(' ') || '(the root page)', page]))(
    'pds help %s fits COLUMNS=60 over a pipe',
    async (_, page) => {
      const result = await runPds(['help', ...(page as string[])], { env: { COLUMNS: '60' } });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.split('\n').length).toBeGreaterThan(5);
      expect(tooWide(result.stdout, 60)).toEqual([]);
    },
  );

  it('COLUMNS=100 widens it, and a width that is not a number is ignored (80)', async () => {
    const wide = await runPds(['help', 'upload', 'statement'], { env: { COLUMNS: '100' } });
    expect(tooWide(wide.stdout, 80).length).toBeGreaterThan(0);
    expect(tooWide(wide.stdout, 100)).toEqual([]);
    const junk = await runPds(['help', 'upload', 'statement'], { env: { COLUMNS: 'wide' } });
    expect(tooWide(junk.stdout, 80)).toEqual([]);
  });

  it('a long example wraps between shell words with a trailing backslash, and bash reads it as the one command', async () => {
    const { stdout } = await runPds(['help', 'upload', 'statement'], { env: { COLUMNS: '60' } });
    const examples = stdout.slice(stdout.indexOf('Examples:\n') + 'Examples:\n'.length).split('\n');
    const first = examples.slice(0, examples.findIndex((line) => !line.endsWith(' \\')) + 1);
    expect(first.length).toBeGreaterThan(1);
    expect(first.slice(1).every((line) => line.startsWith('      '))).toBe(true);
    // bash joins the lines back: the words are those of the one-line example.
    const words = spawnSync(
      'bash',
      ['-c', `set -- ${first.join('\n').trim().replace(/^pds /, '')}; printf '%s\\n' "$@"`],
      { encoding: 'utf8' },
    );
    expect(words.stdout.trim().split('\n')).toEqual(
      'upload statement sales.csv --accounting-period 2026Q1 --currency-royalty EUR --scenario dsp.spotify --target-family recording_dsp_usage --tag q1'.split(
        ' ',
      ),
    );
  });

  it('the options column gives way: a long option stands on its own line, its description below', async () => {
    const { stdout } = await runPds(['help', 'upload', 'statement'], { env: { COLUMNS: '60' } });
    expect(stdout).toContain(
      '\n  --report <junit=file|json=file>\n                        also write a report: JUnit XML or\n',
    );
    expect(stdout).toContain('\n  --wait                wait until processing completed or\n');
  });

  it('the global line names -p as --project', async () => {
    const { stdout } = await runPds(['help', 'contracts', 'ls'], { env: { COLUMNS: '60' } });
    expect(stdout).toContain('Global options: -p, --project, --profile, --api-url,');
    expect(stdout.replace(/\n/g, ' ')).toContain(' -q, --quiet, ');
  });

  it('fits a 60-column terminal', async () => {
    for (const page of [['upload', 'statement'], ['mcp']]) {
      const pty = await ptyPds(['help', ...page, '--no-pager'], { cols: 60, rows: 200 });
      expect((await pty.exited).code).toBe(0);
      // The raw output, before the terminal would wrap what is too long.
      expect(pty.raw().length).toBeGreaterThan(500);
      expect(tooWide(pty.raw().replace(/\u001b\[[\d;?]*[a-zA-Z]/g, ''), 60)).toEqual([]);
    }
  });

  it('every command page fits 60 columns (in-process)', async () => {
    const paths = commandPaths();
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      const result = await runCli(null, ['help', ...path], { columns: 60 });
      expect(result.code, path.join(' ')).toBe(0);
      expect(tooWide(result.stdout, 60), path.join(' ')).toEqual([]);
    }
  });
});

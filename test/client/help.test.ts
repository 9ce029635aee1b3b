// Help: examples on every command, global options under their own heading, `pds help …`, the
// exit-code table, the width of the terminal.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';
import { memoryIO } from '../../src/lib/io.js';
import type { Runner } from '../../src/lib/verbs/register.js';
import { runCli } from '../helpers/cli.js';

function commandPaths(): string[][] {
  const runner = { deps: {}, run: async () => undefined } as unknown as Runner;
  const program = buildProgram(memoryIO(), runner, '0.0.0');
  const paths: string[][] = [];
  const visit = (command: Command, path: string[]) => {
    // `__complete` is the hidden helper of the completion scripts.
    for (const sub of command.commands.filter((c) => c.name() !== '__complete')) {
      paths.push([...path, sub.name()]);
      visit(sub, [...path, sub.name()]);
    }
  };
  visit(program, []);
  return paths;
}

describe('help', () => {
  it('every command has one to three examples, its own options, and the global ones as one line pointing to `pds help options`', async () => {
    const paths = commandPaths();
    expect(paths.length).toBeGreaterThan(40);
    for (const path of paths) {
      const { code, stdout } = await runCli(null, [...path, '--help']);
      expect(code, path.join(' ')).toBe(0);
      expect(stdout.split('\nExamples:\n'), `one Examples heading in ${path.join(' ')}`).toHaveLength(2);
      const examples = stdout.split('\nExamples:\n')[1];
      expect(examples, `examples of ${path.join(' ')}`).toBeDefined();
      const lines = (examples ?? '').split('\n').filter((line) => /^ {2}\S/.test(line));
      expect(lines.length, path.join(' ')).toBeGreaterThanOrEqual(1);
      expect(
        lines.filter((line) => /^ {2}(pds|echo|cat|curl|printf)\b/.test(line)).length,
        path.join(' '),
      ).toBeLessThanOrEqual(3);
      // The line as a reader reads it, whatever the width wrapped.
      expect(stdout.replace(/\n/g, ' '), path.join(' ')).toMatch(
        / {2}Global options: -p, --project, --profile, --api-url, --format, .*--jq, .*\(`pds help options` explains them\) /,
      );
      expect(stdout, path.join(' ')).not.toMatch(/^ {2}--api-url|Global Options:/m);
      // Only the root program's options are global: not a parent command's own.
      expect(stdout.split('\nGlobal options:')[1]).not.toMatch(/--allow-writes|--version/);
    }
  });

  it('`pds help options` lists every global option with its help; at 60 columns no word is cut', async () => {
    const { code, stdout } = await runCli(null, ['help', 'options'], { columns: 60 });
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Global options \(before or after the command\):\n\n {2}-p, --project <id> +project UUID or exact name/,
    );
    for (const flag of ['--format <format>', '--csv-bom', '--jq <expression>', '--fields <names>', '--no-pager'])
      expect(stdout).toContain(flag);
    for (const line of stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    // Wrapped at spaces: every word of a description is whole on one line.
    const words = (text: string) => text.replace(/\s+/g, ' ').trim().split(' ');
    expect(words(stdout)).toContain('(default:');
    expect(words(stdout).filter((word) => /^[a-z]+-$/.test(word))).toEqual([]);
  });

  it('`pds help <command...>` prints the same page as `<command> --help`', async () => {
    for (const path of [['contracts', 'ls'], ['contracts', 'get'], ['auth'], ['search'], ['artists', 'list']]) {
      const viaHelp = await runCli(null, ['help', ...path]);
      const viaFlag = await runCli(null, [...path, '--help']);
      expect(viaHelp).toEqual(viaFlag);
      expect(viaHelp.stdout).toMatch(/^Usage: pds /);
    }
    expect((await runCli(null, ['help'])).stdout).toBe((await runCli(null, ['--help'])).stdout);
  });

  it('`pds help` of an unknown command is exit 2 listing what exists', async () => {
    expect(await runCli(null, ['help', 'contracts', 'lss'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: no help for 'contracts lss': unknown command 'lss'\n  commands of contracts: ls, get, status, download, retry, tag\n",
    });
    // The top level lists what `pds --help` lists: no hidden helper.
    const top = await runCli(null, ['help', 'nope']);
    expect(top.code).toBe(2);
    expect(top.stderr).toMatch(
      /^error: no help for 'nope': unknown command 'nope'\n {2}commands: projects, search, .*, completion, exit-codes\n$/,
    );
    expect(top.stderr).not.toContain('__complete');
    expect(await runCli(null, ['help', 'exit-codes', 'extra'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: `pds help exit-codes` takes nothing more: 'extra'\n",
    });
  });

  it('`pds help exit-codes` prints the exit-code table', async () => {
    const { code, stdout } = await runCli(null, ['help', 'exit-codes']);
    expect(code).toBe(0);
    for (const [exit, meaning] of [
      ['0', 'success'],
      ['2', 'usage'],
      ['3', 'not authenticated'],
      ['5', 'not found'],
      ['7', 'processing failed'],
      ['8', 'the answer is not whole'],
      ['130', 'interrupted'],
      ['143', 'stopped by SIGTERM'],
      ['129', 'stopped by SIGHUP'],
    ]) {
      expect(stdout).toMatch(new RegExp(`^ {2}${exit} +${meaning}`, 'm'));
    }
  });

  it('`pds --help` ends by pointing to `pds help exit-codes` and to the README', async () => {
    const { stdout } = await runCli(null, ['--help']);
    expect(stdout.trimEnd().split('\n').slice(-2).join(' ')).toMatch(/`pds help exit-codes`.*README/);
  });

  it('describes the argument of `contracts get` as what it is', async () => {
    const { stdout } = await runCli(null, ['contracts', 'get', '--help']);
    expect(stdout).toMatch(/^Usage: pds contracts get\|view \[options\] <contract-id>$/m);
    expect(stdout).toMatch(/^ {2}contract-id +the contract's id, as `pds contracts ls` shows it$/m);
  });

  it('fits every help page and the exit codes in 80 and in 60 columns, examples included', async () => {
    const tooWide: string[] = [];
    for (const columns of [80, 60]) {
      for (const args of [['--help'], ['help', 'exit-codes'], ...commandPaths().map((path) => [...path, '--help'])]) {
        const { code, stdout } = await runCli(null, args, { columns });
        expect(code).toBe(0);
        for (const line of stdout.split('\n'))
          if (line.length > columns) tooWide.push(`${columns}: pds ${args.join(' ')}: ${line}`);
      }
    }
    expect(tooWide).toEqual([]);
  });

  it('wraps to the width of the terminal', async () => {
    const narrow = await runCli(null, ['--help'], { columns: 80 });
    const wide = await runCli(null, ['--help'], { columns: 160 });
    // Commander's part of the page: the examples and the closing lines are ours, short enough as written.
    const widest = (text: string) =>
      Math.max(...(text.split('\nExamples:')[0] ?? '').split('\n').map((line) => line.length));
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(80);
    expect(widest(wide.stdout)).toBeGreaterThan(80);
    expect(narrow.stdout.split('\n').length).toBeGreaterThan(wide.stdout.split('\n').length);
  });
});

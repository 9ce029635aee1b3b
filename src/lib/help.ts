// What help shows beyond commander's defaults: the examples and notes a definition carries (ids
// from the emulator's seed, so each one runs as written against `pds emulator start`), the global
// options under their own heading, `pds help <command...>`, and `pds help exit-codes`.
import { Help, type Command } from 'commander';
import { UsageError } from './errors.js';
import type { Example } from './verb.js';

const EXIT_CODES: [string, string][] = [
  ['0', 'success (a list with no results is still 0)'],
  ['1', 'failure not covered below: server error after retries, network, unexpected answer'],
  ['2', 'usage or invalid input: bad flag, bad id, unknown include or field, bad --jq expression, non-PDF, file too large, API 400'],
  ['3', 'not authenticated: no token, API 401, a sign-in that cannot be refreshed'],
  ['4', 'forbidden: API 403 (the token is not scoped to the project)'],
  ['5', 'not found: API 404'],
  ['6', 'rate limited, and the retries spent: API 429'],
  ['7', 'processing failed: an upload waited on reached "failed"'],
  ['130', 'interrupted (Ctrl-C)'],
];

/** Below this many columns for a description, commander would not wrap it at all (its default is 40). */
const MIN_WIDTH_TO_WRAP = 20;

/** A helper of commander's that wraps to `width` columns. */
function wrapper(width: number): Help {
  const help = new Help();
  help.helpWidth = width;
  help.minWidthToWrap = MIN_WIDTH_TO_WRAP;
  return help;
}

/** The exit-code table, wrapped to `width` columns. */
export function exitCodesText(width: number): string {
  const help = wrapper(width);
  const rows = EXIT_CODES.map(([code, meaning]) => help.formatItem(code, 3, meaning, help));
  const note = help.boxWrap('`pds sandbox exec` exits with the last non-zero exit code of the commands it ran (0 if all succeed).', width);
  return `Exit codes of pds (scripts may rely on them):\n\n${rows.join('\n')}\n\n${note}\n`;
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/**
 * A command's notes under its options, as `addHelpText('after', …)` takes them: paragraphs (split
 * by a blank line) wrapped to the width the help is printed in.
 */
export function helpNotes(text: string): (context: { command: Command }) => string {
  return ({ command }) => {
    const width = command.configureOutput().getOutHelpWidth?.() ?? 80;
    const help = wrapper(width);
    return `\n${text
      .trim()
      .split(/\n\s*\n/)
      .map((paragraph) => help.boxWrap(paragraph.replace(/\s*\n\s*/g, ' '), width))
      .join('\n\n')}`;
  };
}

/**
 * A command's examples under its help, each note beside its line while that fits in the width the
 * help is printed in, else on a line of its own above it. An example line itself is never broken:
 * it is meant to be copied.
 */
export function examplesHelp(examples: readonly Example[]): (context: { command: Command }) => string {
  return ({ command }) => {
    const columns = command.configureOutput().getOutHelpWidth?.() ?? 80;
    const width = Math.max(...examples.map(([line]) => line.length));
    const lines = examples.map(([line, note]) => {
      if (!note) return `  ${line}`;
      const beside = `  ${line.padEnd(width)}  # ${note}`;
      return beside.length <= columns ? beside : `  # ${note}\n  ${line}`;
    });
    return `\nExamples:\n${lines.join('\n')}`;
  };
}

/** Global options under their own heading on every command's page, and the program's own page's end. */
export function decorateHelp(program: Command, columns: () => number): void {
  program.configureHelp({ ...program.configureHelp(), minWidthToWrap: MIN_WIDTH_TO_WRAP });
  const visit = (command: Command): void => {
    // Global options are the root program's (commander would add every ancestor's, e.g. `mcp`'s
    // own options on `mcp config`), without --version, which only the bare `pds` answers.
    if (command !== program) {
      command.configureHelp({
        minWidthToWrap: MIN_WIDTH_TO_WRAP,
        showGlobalOptions: true,
        visibleGlobalOptions: () => program.options.filter((option) => !option.hidden && option.long !== '--version'),
      });
    }
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
  program.addHelpText(
    'after',
    () =>
      `\n${wrapper(columns()).boxWrap(
        'Run `pds help <command...>` for a command\'s options and examples, `pds help exit-codes` for the exit codes; the README (README.md in the package) covers configuration, scripting and completion.',
        columns(),
      )}`,
  );
}

export const HELP_EXAMPLES: readonly Example[] = [['pds help contracts ls'], ['pds help exit-codes']];

/** `pds help [command...]`: the same page as `<command> --help`; `exit-codes` prints the table. */
export function registerHelp(program: Command, write: (text: string) => void, columns: () => number): void {
  program
    .command('help')
    .description('show help for a command, or the exit codes (`pds help exit-codes`)')
    .argument('[command...]', 'a command, e.g. `contracts ls`; or exit-codes')
    .addHelpText('after', examplesHelp(HELP_EXAMPLES))
    .action((words: string[]) => {
      if (words[0] === 'exit-codes') {
        if (words.length > 1) throw new UsageError(`\`pds help exit-codes\` takes nothing more: '${words.slice(1).join(' ')}'`);
        write(exitCodesText(columns()));
        return;
      }
      let target = program;
      for (const word of words) {
        const next = target.commands.find((command) => command.name() === word || command.aliases().includes(word));
        if (!next) {
          // The commands its help page lists: not hidden helpers such as the completion scripts' own.
          const known = target
            .createHelp()
            .visibleCommands(target)
            .map((command) => command.name())
            .filter((name) => name !== 'help');
          throw new UsageError(`no help for '${words.join(' ')}': unknown command '${word}'`, {
            details: [`commands${target === program ? '' : ` of ${pathOf(target)}`}: ${known.join(', ')}${target === program ? ', exit-codes' : ''}`],
          });
        }
        target = next;
      }
      target.outputHelp();
    });
}

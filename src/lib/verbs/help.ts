// What help shows beyond commander's defaults: the examples and notes a definition carries (ids
// from the emulator's seed, so each one runs as written against `pds emulator start`), the global
// options under their own heading, `pds help <command...>`, and `pds help exit-codes`.
import { Help, type Command } from 'commander';
import { UsageError } from '../errors.js';
import type { Example } from './verb.js';

const EXIT_CODES: [string, string][] = [
  ['0', 'success (a list with no results is still 0)'],
  ['1', 'failure not covered below: server error after retries, network, unexpected answer'],
  [
    '2',
    'usage or invalid input: bad flag, bad id, unknown include or field, bad --jq expression, non-PDF, file too large, API 400',
  ],
  ['3', 'not authenticated: no token, API 401, a sign-in that cannot be refreshed'],
  ['4', 'forbidden: API 403 (the token is not scoped to the project)'],
  ['5', 'not found: API 404'],
  ['6', 'rate limited, and the retries spent: API 429'],
  ['7', 'processing failed: an upload waited on (or a status asked for) reached "failed"'],
  [
    '8',
    'the answer is not whole: a total, roll-up or check left out or could not read something (each named on stderr)',
  ],
  ['130', 'interrupted (Ctrl-C)'],
  ['143', 'stopped by SIGTERM (a CI job cancelled), as on Ctrl-C'],
  ['129', 'stopped by SIGHUP (the terminal closed), as on Ctrl-C'],
];

/** Below this many columns for a description, commander would not wrap it at all (its default is 40). */
const MIN_WIDTH_TO_WRAP = 20;

/** Descriptions keep at least this many columns: a term wider than the rest goes on a line of its own. */
const MIN_DESCRIPTION_WIDTH = 36;
/** The term column never shrinks below this (the longest terms then go on lines of their own). */
const MIN_TERM_COLUMN = 12;

/**
 * commander's formatItem with a term column that gives way at small widths: the description keeps
 * MIN_DESCRIPTION_WIDTH columns, and a term wider than the column is printed alone, its
 * description on the next lines at the column.
 */
function formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = this.helpWidth ?? 80;
  const column = Math.min(termWidth, Math.max(MIN_TERM_COLUMN, width - MIN_DESCRIPTION_WIDTH - 4));
  if (helper.displayWidth(term) <= column || !description)
    return Help.prototype.formatItem.call(this, term, column, description, helper);
  return `  ${term}\n${Help.prototype.formatItem.call(this, '', column, description, helper)}`;
}

/** A helper of commander's that wraps to `width` columns. */
function wrapper(width: number): Help {
  const help = new Help();
  help.helpWidth = width;
  help.minWidthToWrap = MIN_WIDTH_TO_WRAP;
  help.formatItem = formatItem;
  return help;
}

/** The exit-code table, wrapped to `width` columns. */
export function exitCodesText(width: number): string {
  const help = wrapper(width);
  const rows = EXIT_CODES.map(([code, meaning]) => help.formatItem(code, 3, meaning, help));
  const note = help.boxWrap(
    '`pds sandbox exec` exits with the last non-zero exit code of the commands it ran (0 if all succeed).',
    width,
  );
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
 * help is printed in, else on lines of their own above it. An example wider than the width is
 * broken between its shell words with ` \` at each line's end, so it still pastes as one command;
 * only a single word wider than the width is cut, with a marker.
 */
export function examplesHelp(examples: readonly Example[]): (context: { command: Command }) => string {
  return ({ command }) => {
    const columns = command.configureOutput().getOutHelpWidth?.() ?? 80;
    const width = Math.max(...examples.map(([line]) => line.length));
    const lines = examples.map(([line, note]) => {
      const beside = `  ${line.padEnd(width)}  # ${note}`;
      if (note && beside.length <= columns) return beside;
      const wrapped = wrapCommand(line, columns);
      return note ? `${commentLines(note, columns)}\n${wrapped}` : wrapped;
    });
    return `\nExamples:\n${lines.join('\n')}`;
  };
}

/** `note` as `  # …` lines within `columns`. */
function commentLines(note: string, columns: number): string {
  return wrapper(columns - 4)
    .boxWrap(note, columns - 4)
    .split('\n')
    .map((line) => `  # ${line}`)
    .join('\n');
}

const CUT_MARKER = '…';

/**
 * A command line indented by two, within `columns`: broken between shell words (a quoted string
 * stays whole), each broken line ending in ` \` and the next indented by six.
 */
function wrapCommand(line: string, columns: number): string {
  if (line.length + 2 <= columns) return `  ${line}`;
  const fit = (text: string, room: number) =>
    text.length <= room ? text : `${text.slice(0, Math.max(room - 1, 1))}${CUT_MARKER}`;
  const rows: string[] = [];
  let current = '';
  for (const word of shellWords(line)) {
    const indent = rows.length === 0 ? 2 : 6;
    // Room on this row for text, keeping two columns for the ` \` of a row that is not the last.
    if (current && indent + current.length + 1 + word.length + 2 > columns) {
      rows.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  rows.push(current);
  return rows
    .map((row, i) => {
      const indent = i === 0 ? '  ' : '      ';
      const last = i === rows.length - 1;
      return `${indent}${fit(row, columns - indent.length - (last ? 0 : 2))}${last ? '' : ' \\'}`;
    })
    .join('\n');
}

/** The words of a command line as written (quotes kept), split at blanks outside quotes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ' ') {
      if (word) words.push(word);
      word = '';
      continue;
    }
    word += char;
  }
  if (word) words.push(word);
  return words;
}

/** The global options: the root program's, without --version, which only the bare `pds` answers. */
function globalOptions(program: Command) {
  return program.options.filter((option) => !option.hidden && option.long !== '--version');
}

/** `pds help options`: every global option with its help, wrapped to `width` columns. */
export function globalOptionsText(program: Command, width: number): string {
  const help = wrapper(width);
  const options = globalOptions(program);
  const terms = options.map((option) => option.flags);
  const pad = Math.max(...terms.map((term) => term.length));
  const rows = options.map((option) => help.formatItem(option.flags, pad, help.optionDescription(option), help));
  return `Global options (before or after the command):\n\n${rows.join('\n')}\n`;
}

/**
 * A command's page shows its own options and examples; the global ones are one line pointing to
 * `pds help options` (the root page lists them, as its own options).
 */
export function decorateHelp(program: Command, columns: () => number): void {
  program.configureHelp({ ...program.configureHelp(), minWidthToWrap: MIN_WIDTH_TO_WRAP, formatItem });
  const globalLine = (): string =>
    wrapper(columns()).boxWrap(
      `Global options: ${globalOptions(program)
        .map((option) =>
          option.short && option.long ? `${option.short}, ${option.long}` : (option.long ?? option.short),
        )
        .join(', ')} (\`pds help options\` explains them)`,
      columns(),
    );
  const visit = (command: Command): void => {
    if (command !== program) {
      command.configureHelp({
        minWidthToWrap: MIN_WIDTH_TO_WRAP,
        formatItem,
        showGlobalOptions: false,
        formatHelp: (cmd, helper) =>
          `${Help.prototype.formatHelp.call(helper, cmd, helper).trimEnd()}\n\n${globalLine()}\n`,
      });
    }
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
  program.addHelpText(
    'after',
    () =>
      `\n${wrapper(columns()).boxWrap(
        "Run `pds help <command...>` for a command's options and examples, `pds help options` for the global options, `pds help exit-codes` for the exit codes; the README (README.md in the package) covers configuration, scripting and completion.",
        columns(),
      )}`,
  );
}

export const HELP_EXAMPLES: readonly Example[] = [
  ['pds help contracts ls'],
  ['pds help options'],
  ['pds help exit-codes'],
];

/** `pds help [command...]`: the same page as `<command> --help`; `exit-codes` prints the table. */
export function registerHelp(program: Command, write: (text: string) => void, columns: () => number): void {
  program
    .command('help')
    .description(
      'show help for a command, the global options (`pds help options`) or the exit codes (`pds help exit-codes`)',
    )
    .argument('[command...]', 'a command, e.g. `contracts ls`; or options, or exit-codes')
    .addHelpText('after', examplesHelp(HELP_EXAMPLES))
    .action((words: string[]) => {
      if (words[0] === 'options' && words.length === 1) {
        write(globalOptionsText(program, columns()));
        return;
      }
      if (words[0] === 'exit-codes') {
        if (words.length > 1)
          throw new UsageError(`\`pds help exit-codes\` takes nothing more: '${words.slice(1).join(' ')}'`);
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
            details: [
              `commands${target === program ? '' : ` of ${pathOf(target)}`}: ${known.join(', ')}${target === program ? ', exit-codes' : ''}`,
            ],
          });
        }
        target = next;
      }
      target.outputHelp();
    });
}

// The commander program: global options and every noun, each verb loaded only when it runs.
import { Command } from 'commander';
import type { IO } from './lib/io.js';
import type { Example } from './lib/verbs/verb.js';
import { addFlags, registerNoun, registerVerb, type Runner } from './lib/verbs/register.js';
import { GLOBAL_FLAGS } from './lib/verbs/global-flags.js';
import { COMMANDS } from './commands/index.js';
import { decorateHelp, examplesHelp, registerHelp } from './lib/verbs/help.js';

export const ROOT_EXAMPLES = [
  ['pds contracts ls', "the first page of the current project's contracts"],
  ["pds artists ls --all --jq '.[].name'", "every artist's name, one per line"],
  ['pds help contracts ls', 'the help of one command'],
] as const satisfies readonly Example[];

/**
 * `first`: the first word of the command line. When it names a noun, the other nouns get only
 * their name and description (enough for commander to dispatch): a run builds one noun's verbs,
 * their options and help, not every noun's. Without it (help, completion) the whole tree is built.
 */
export function buildProgram(io: IO, runner: Runner, version: string, first?: string): Command {
  const program = new Command('pds')
    .description(
      'Work with the Project Data Service: projects, contracts, statements, catalog records, uploads and the sandbox.',
    )
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addHelpCommand(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Help wraps to the terminal's width (80 when it is not a terminal).
      getOutHelpWidth: () => io.columns,
      getErrHelpWidth: () => io.columns,
      // Errors are reported by report() in one format (text or --json).
      outputError: () => undefined,
    });
  addFlags(program, GLOBAL_FLAGS);
  const oneNoun = COMMANDS.some((entry) => 'verbs' in entry && entry.name === first);
  for (const entry of COMMANDS) {
    if (!('verbs' in entry)) registerVerb(program, entry, runner);
    else if (oneNoun && entry.name !== first) program.command(entry.name).description(entry.description);
    else registerNoun(program, entry, runner);
  }
  registerHelp(
    program,
    (text) => io.stdout.write(text),
    () => io.columns,
  );
  // `help [command]` is not inherited as off: noun pages would list a verb no other page has.
  for (const noun of program.commands) noun.helpCommand(false);
  program.addHelpText('after', examplesHelp(ROOT_EXAMPLES));
  decorateHelp(program, () => io.columns);
  return program;
}

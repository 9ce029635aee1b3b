// `pds completion bash|zsh|fish` prints a script; the script asks `pds __complete -- <words…>` for the
// candidates at each Tab, so one implementation (complete.ts) serves the three shells.
import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';

export function registerCompletion(program: Command, runner: Runner): void {
  program
    .command('completion')
    .description('print a shell completion script (see the README to install it)')
    .argument('<shell>', 'bash, zsh or fish')
    .action(lazyAction(runner, () => import('./script.js')));
  program
    .command('__complete', { hidden: true })
    .description('candidates for the word being completed (used by the completion scripts)')
    .argument('[words...]', 'the words after `pds`, the last one being completed')
    .helpOption(false)
    .allowUnknownOption()
    .action(lazyAction(runner, () => import('./complete.js'), { program }));
}

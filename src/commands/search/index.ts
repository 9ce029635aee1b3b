import type { Command } from 'commander';
import { collect, lazyAction, type Runner } from '../../lib/command.js';

export function registerSearch(program: Command, runner: Runner): void {
  program
    .command('search')
    .description('search the current project: contracts, entities, artists, writers, recordings, compositions')
    .argument('<query...>', 'words to search for (1 to 500 characters in all)')
    .option('--type <types>', 'only these result types, comma-separated or repeated (e.g. artist,contract)', collect)
    .option('--limit <n>', 'print at most n results')
    .action(lazyAction(runner, () => import('./search.js')));
}

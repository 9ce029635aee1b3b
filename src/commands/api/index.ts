// `pds api <path>`: a raw request, for whatever no verb covers.
import type { Command } from 'commander';
import { collect, lazyAction, type Runner } from '../../lib/command.js';

export function registerApi(program: Command, runner: Runner): void {
  program
    .command('api')
    .description('send a request to any /v1 path with the profile\'s URL, token and project')
    .argument('<path>', 'e.g. /v1/projects or just projects; {project} is replaced by the current project')
    .option('-X, --method <method>', 'GET (default), POST or DELETE')
    .option('-f, --field <key=value>', 'a query parameter for GET (and with --input), else a field of the JSON body; repeatable', collect)
    .option('--input <file>', 'the JSON body, from a file or - for stdin')
    .option('-H, --header <header>', "an extra header, 'Name: value'; repeatable", collect)
    .option('-i, --include', 'print the status line and the headers before the body')
    .option('--paginate', 'follow every page of a list (either envelope) and print one JSON array of every record')
    .action(lazyAction(runner, () => import('./api.js')));
}

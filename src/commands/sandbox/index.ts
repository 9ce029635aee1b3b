// `pds sandbox …`: the project's data as files, explored with bash on the service.
import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';
import { helpNotes } from '../../lib/help.js';

export function registerSandbox(program: Command, runner: Runner): void {
  const sandbox = program
    .command('sandbox')
    .description("explore the project's data as files, with bash commands run by the service")
    .addHelpText('after', helpNotes('Every verb connects to the sandbox by itself; `connect` and `disconnect` manage the session explicitly.'));

  sandbox
    .command('exec')
    .description('run bash commands in the sandbox, in order, in one request')
    .argument('[command...]', 'each argument is one bash command; `-` alone reads them from stdin, one per line')
    .option('--parallel', 'run the commands at the same time, each in a sandbox of its own (results still print in order)')
    .addHelpText(
      'after',
      helpNotes(`Each command's stdout goes to stdout and its stderr to stderr. The exit code is the last non-zero
exit code of the commands (0 if all succeed), also with --json, which prints the result array
[{command, stdout, stderr, exitCode}]. From stdin, blank lines and lines starting with # are skipped.`),
    )
    .action(lazyAction(runner, () => import('./exec.js')));

  sandbox
    .command('ls')
    .alias('list')
    .description('list a sandbox directory (default: the workspace root); directories end with /')
    .argument('[path]', 'directory (or file) in the sandbox')
    .addHelpText('after', helpNotes('Columns on a terminal, one name per line when piped; --json prints the names as an array. Given a file, prints its path, as ls does.'))
    .action(lazyAction(runner, () => import('./ls.js')));

  sandbox
    .command('cat')
    .description('print a sandbox file, byte for byte (--json: {type, content})')
    .argument('<path>', 'file in the sandbox, e.g. stats.yaml')
    .action(lazyAction(runner, () => import('./cat.js')));

  sandbox
    .command('info')
    .description("print the workspace's guide, AGENTS.md: layout, counts, example commands")
    .action(lazyAction(runner, () => import('./info.js')));

  sandbox
    .command('shell')
    .description('an interactive prompt: each line runs through exec; cd is kept across lines')
    .addHelpText(
      'after',
      helpNotes('Needs a terminal on stdin (for scripts: pds sandbox exec -). `exit` or Ctrl-D leaves and disconnects; Ctrl-C cancels the line being typed, or stops waiting for a running command.'),
    )
    .action(lazyAction(runner, () => import('./shell.js')));

  sandbox
    .command('connect')
    .description("open the project's sandbox session (--json: the service's answer)")
    .action(lazyAction(runner, () => import('./connect.js')));

  sandbox
    .command('disconnect')
    .description("end the project's sandbox session (--json: the service's answer)")
    .action(lazyAction(runner, () => import('./disconnect.js')));
}

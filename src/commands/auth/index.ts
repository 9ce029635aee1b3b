// `pds auth login|status|token|logout`: the token of a profile.
import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';

export function registerAuth(program: Command, runner: Runner): void {
  const auth = program.command('auth').description('log in with an API token, show or forget it');
  auth
    .command('login')
    .description('check a token against the service and save it in the profile (with --api-url, the URL too)')
    .option('--with-token', 'read the token from stdin')
    .option('--token <token>', 'the token itself (shells keep history: prefer --with-token)')
    .action(lazyAction(runner, () => import('./login.js')));
  auth
    .command('status')
    .description('show the base URL, the masked token and where it comes from, its scope and the default project')
    .action(lazyAction(runner, () => import('./status.js')));
  auth
    .command('token')
    .description('print the token in use (PDS_TOKEN, else the profile\'s) on stdout, for piping into other tools')
    .action(lazyAction(runner, () => import('./token.js')));
  auth
    .command('logout')
    .description('forget the profile\'s token (other settings stay)')
    .action(lazyAction(runner, () => import('./logout.js')));
}

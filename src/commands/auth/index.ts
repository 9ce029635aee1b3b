// `pds auth login|status|token|logout`: the token of a profile.
import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';

export function registerAuth(program: Command, runner: Runner): void {
  const auth = program.command('auth').description('sign in (browser or API token), show, print or forget the credential');
  auth
    .command('login')
    .description('sign in and save the credential in the profile (with --api-url, the URL too); on a terminal it asks how')
    .option('--web', 'sign in with a browser (OAuth 2.1 with PKCE); BROWSER names the browser command')
    .option('--no-browser', 'with --web: print the URL to open instead of opening a browser')
    .option('--oauth-issuer <url>', 'with --web: the authorization server, instead of asking the service')
    .option('--client-id <id>', 'with --web: a registered client id, instead of registering one')
    .option('--with-token', 'read an API token from stdin')
    .option('--token <token>', 'the token itself (shells keep history: prefer --with-token)')
    .action(lazyAction(runner, () => import('./login.js')));
  auth
    .command('status')
    .description('show the base URL, the kind of credential, the masked token and its expiry, its scope and the default project')
    .action(lazyAction(runner, () => import('./status.js')));
  auth
    .command('token')
    .description('print a valid token (PDS_TOKEN, else the profile\'s, refreshed if needed) on stdout, for other tools')
    .action(lazyAction(runner, () => import('./token.js')));
  auth
    .command('logout')
    .description('revoke a browser sign-in at the server and forget the profile\'s credential (other settings stay)')
    .action(lazyAction(runner, () => import('./logout.js')));
}

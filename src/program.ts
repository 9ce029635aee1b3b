// The commander program: global options and every noun, each verb loaded only when it runs.
import { Command, Option } from 'commander';
import type { IO } from './lib/io.js';
import type { Runner } from './lib/command.js';
import { registerProjects } from './commands/projects/index.js';
import { registerSearch } from './commands/search/index.js';
import { registerCatalog } from './commands/catalog/index.js';
import { registerAuth } from './commands/auth/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerUpload } from './commands/upload/index.js';
import { registerDownload } from './commands/documents/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerEmulator } from './commands/emulator/index.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerApi } from './commands/api/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { decorateHelp, registerHelp } from './lib/help.js';

export function buildProgram(io: IO, runner: Runner, version: string): Command {
  const program = new Command('pds')
    .description('Work with the Project Data Service: projects, contracts, statements, catalog records, uploads and the sandbox.')
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
    })
    .option('-p, --project <id>', 'project UUID (default: PDS_PROJECT, then the profile)')
    .option('--profile <name>', 'config profile (default: PDS_PROFILE, then "default")')
    .option('--api-url <url>', 'service base URL without /v1 (default: PDS_API_URL, then the profile)')
    .option('--json', 'print data as JSON')
    .option('-q, --quiet', 'lists print ids only; actions print nothing but errors')
    .option('--no-color', 'no ANSI colors (also NO_COLOR)')
    .option('--verbose', 'log each HTTP request and response on stderr (the token is never printed)')
    .addOption(new Option('--timeout <seconds>', 'per-request timeout in seconds, 0.1 to 3600 (default 30)'))
    .addOption(new Option('--retry-budget <seconds>', 'total time to wait between retries, for the whole command; 0: no retries (default 60)'))
    .option('--allow-http', 'allow sending the token over plain http to a host that is not loopback')
    .option('--jq <expression>', 'filter the JSON output with a jq expression (implies --json; strings print raw)')
    .option('--jq-timeout <seconds>', 'stop a --jq expression that runs longer than this, exit 2 (default 10)')
    .option('--fields <names>', 'lists and gets: the fields to show, in order, comma-separated (e.g. id,name,created_at)')
    .option('--no-pager', 'never page long output on a terminal (also PDS_PAGER set empty)');

  registerProjects(program, runner);
  registerSearch(program, runner);
  const catalogNouns = registerCatalog(program, runner);
  registerUpload(program, runner, catalogNouns);
  registerDownload(runner, catalogNouns);
  registerSandbox(program, runner);
  registerAuth(program, runner);
  registerConfig(program, runner);
  registerEmulator(program, runner);
  registerMcp(program, runner);
  registerApi(program, runner);
  registerCompletion(program, runner);
  registerHelp(program, (text) => io.stdout.write(text), () => io.columns);
  // `help [command]` is not inherited as off: noun pages would list a verb no other page has.
  for (const noun of program.commands) noun.helpCommand(false);
  decorateHelp(program, () => io.columns);
  return program;
}

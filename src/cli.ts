// The program: global options, the nouns, and the one place where errors become exit codes.
import { Command, CommanderError, Option } from 'commander';
import type * as z from 'zod/mini';
import { processIO, type IO } from './lib/io.js';
import type { GlobalFlags } from './lib/config.js';
import type { Dependencies } from './lib/context.js';
import type { Runner, VerbModule } from './lib/command.js';
import { ExitCode, InterruptedError, PdsError, UsageError } from './lib/errors.js';
import { VERSION } from './lib/version.js';
import { realClock } from './lib/clock.js';
import { registerProjects } from './commands/projects/index.js';
import { registerSearch } from './commands/search/index.js';
import { registerCatalog } from './commands/catalog/index.js';
import { registerAuth } from './commands/auth/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerUpload } from './commands/upload/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerEmulator } from './commands/emulator/index.js';

export interface MainOptions extends Partial<Dependencies> {
  io?: IO;
}

/** Runs pds with the arguments after the program name; resolves to the exit code. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const real = options.io === undefined;
  const io = options.io ?? processIO();
  const env = options.env ?? process.env;
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const deps: Dependencies = {
    io,
    env,
    signal,
    clock: options.clock ?? realClock,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  };
  const wantsJson = argv.includes('--json');
  const wantsVerbose = argv.includes('--verbose');
  let exitCode: number = ExitCode.ok;
  let pipeClosed = false;

  const detach = real ? attachProcessHandlers(io, controller, () => (pipeClosed = true)) : () => undefined;

  const runner: Runner = {
    deps,
    async run(load, input, flags) {
      const [{ Context }, verb] = await Promise.all([import('./lib/context.js'), load()]);
      const opts = checkOptions(verb, input);
      const ctx = new Context(deps, flags);
      const code = await verb.run(opts, ctx);
      exitCode = typeof code === 'number' ? code : ExitCode.ok;
    },
  };

  const program = buildProgram(io, runner);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (pipeClosed) return ExitCode.ok;
    if (signal.aborted) return ExitCode.interrupted;
    return report(error, io, wantsJson, wantsVerbose);
  } finally {
    detach();
  }
}

function buildProgram(io: IO, runner: Runner): Command {
  const program = new Command('pds')
    .description('Work with the Project Data Service: projects, contracts, statements, catalog records, uploads and the sandbox.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addHelpCommand(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
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
    .addOption(new Option('--timeout <seconds>', 'per-request timeout in seconds (default 30)'));

  registerProjects(program, runner);
  registerSearch(program, runner);
  const catalogNouns = registerCatalog(program, runner);
  registerUpload(program, runner, catalogNouns);
  registerSandbox(program, runner);
  registerAuth(program, runner);
  registerConfig(program, runner);
  registerEmulator(program, runner);
  // `help [command]` is not inherited as off: noun pages would list a verb no other page has.
  for (const noun of program.commands) noun.helpCommand(false);
  return program;
}

function checkOptions(verb: VerbModule, input: Record<string, unknown>): z.infer<VerbModule['Options']> {
  const parsed = verb.Options.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    // A custom check (positiveInt and the like) words its message with the flag's own name.
    const field = issue.code === 'custom' ? '' : issue.path.filter((p) => p !== 'args').join('.');
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw new UsageError(lines[0] ?? 'invalid input', { details: lines.slice(1) });
}

/** The one error handler: one readable line (or a JSON object) on stderr, and the exit code. */
function report(error: unknown, io: IO, json: boolean, verbose: boolean): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
      return ExitCode.ok;
    }
    // commander puts its suggestion on a second line: "(Did you mean artists?)".
    const [message = '', ...more] = error.message.replace(/^error:\s*/, '').split('\n');
    const details = [...more.map((line) => line.trim()).filter(Boolean), 'see `pds --help`, or `pds <command> --help`'];
    write(io, json, { message, details }, null);
    return ExitCode.usage;
  }
  if (error instanceof InterruptedError) return ExitCode.interrupted;
  if (error instanceof PdsError) {
    write(io, json, { message: error.message, details: error.details }, error.status ?? null);
    if (verbose && error.cause instanceof Error && error.cause.stack) io.stderr.write(`${error.cause.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  write(io, json, { message, details: [] }, null);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return ExitCode.failure;
}

function write(io: IO, json: boolean, error: { message: string; details: string[] }, status: number | null): void {
  if (json) {
    const body: Record<string, unknown> = { status, message: error.message };
    if (error.details.length > 0) body.details = error.details;
    io.stderr.write(`${JSON.stringify({ error: body })}\n`);
    return;
  }
  io.stderr.write(`error: ${error.message}\n`);
  for (const line of error.details) io.stderr.write(`  ${line}\n`);
}

/**
 * A real process: Ctrl-C aborts the running request (a second one exits at once), and a closed
 * stdout pipe (`pds … | head -1`) ends the run quietly as a success.
 */
function attachProcessHandlers(io: IO, controller: AbortController, onPipeClosed: () => void): () => void {
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(ExitCode.interrupted);
    controller.abort(new InterruptedError());
  };
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    onPipeClosed();
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSigint);
  io.stdout.on('error', onStdoutError);
  return () => {
    process.off('SIGINT', onSigint);
  };
}

export type { GlobalFlags };

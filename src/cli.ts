// The entry point: the one place where errors become exit codes. The program itself (commander,
// the nouns) lives in program.ts and is loaded only when there is something to parse.
import type { CommanderError } from 'commander';
import { flushGuards, guardWorkflowCommands, processIO, type IO } from './lib/io.js';
import type { GlobalFlags } from './lib/config/settings.js';
import type { Dependencies } from './lib/context.js';
import type { Runner } from './lib/verbs/register.js';
import { ExitCode, InterruptedError, PdsError, STOP_SIGNALS, type StopSignal, stopSignalOf } from './lib/errors.js';
import { runVerb } from './lib/verbs/run.js';
import { VERSION } from './lib/version.js';
import { realClock } from './lib/clock.js';
import type { ErrorReport, errorText as ErrorText } from './lib/error-report.js';

export interface MainOptions extends Partial<Dependencies> {
  io?: IO;
}

/** Runs pds with the arguments after the program name; resolves to the exit code. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const real = options.io === undefined;
  const env = options.env ?? process.env;
  // Under GitHub Actions no line printed is read as a workflow command but pds's own (io.ts).
  const io = guardWorkflowCommands(options.io ?? processIO(), env);
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const deps: Dependencies = {
    io,
    env,
    signal,
    clock: options.clock ?? realClock,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  };
  const wantsJson = jsonErrors(argv, env);
  const wantsVerbose = argv.includes('--verbose');
  let exitCode: number = ExitCode.ok;
  let pipeClosed = false;

  const detach = real ? attachProcessHandlers(io, controller, () => (pipeClosed = true)) : () => undefined;

  const runner: Runner = {
    deps,
    async run(verb, input, flags, path) {
      exitCode = await runVerb({ verb, input, flags, path }, deps);
    },
  };

  try {
    const { buildProgram } = await import('./program.js');
    // Help is a document to read: on a terminal, a page longer than the screen goes through the pager.
    const helpPaging =
      real && wantsHelp(argv) ? await (await import('./lib/output/pager.js')).openPager(io, env) : undefined;
    try {
      await buildProgram(helpPaging?.io ?? io, runner, VERSION, argv[0]).parseAsync(argv, { from: 'user' });
    } finally {
      await helpPaging?.close();
    }
    await reportToCi(io, env, argv, exitCode, undefined);
    return exitCode;
  } catch (error) {
    if (pipeClosed) return ExitCode.ok;
    if (isHelpOrVersion(error)) return ExitCode.ok;
    if (signal.aborted) {
      const stopped = new InterruptedError(stopSignalOf(signal));
      await reportToCi(io, env, argv, stopped.exitCode, stopped);
      return stopped.exitCode;
    }
    // Loaded only on failure: `pds --version` loads nothing it does not need.
    const { errorText } = await import('./lib/error-report.js');
    const { code, shown } = report(error, io, wantsJson, wantsVerbose, errorText, env.PDS_DEBUG === '1');
    await reportToCi(io, env, argv, code, shown);
    return code;
  } finally {
    await flushGuards(io);
    detach();
  }
}

/** Under GitHub Actions, a run that fails leaves an annotation, a summary and outputs (ci-failure.ts). */
async function reportToCi(
  io: IO,
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  code: number,
  shown: ErrorReport | undefined,
): Promise<void> {
  if (env.GITHUB_ACTIONS !== 'true' || code === ExitCode.ok) return;
  const { commandName, reportFailureToCi } = await import('./lib/ci/failure.js');
  await reportFailureToCi(io, env, commandName(argv), code, shown);
}

/** `pds help …`, `--help` or `-h` anywhere (before `--`), and no `--no-pager`. */
function wantsHelp(argv: readonly string[]): boolean {
  const words = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return !words.includes('--no-pager') && (words[0] === 'help' || words.includes('--help') || words.includes('-h'));
}

/**
 * Errors are JSON when the output is (--json, --format json or ndjson, PDS_FORMAT): read from the
 * arguments as given, since a failure may come before (or from) parsing them.
 */
function jsonErrors(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (argv.includes('--json')) return true;
  const at = argv.findIndex((arg) => arg === '--format' || arg.startsWith('--format='));
  const format = at < 0 ? env.PDS_FORMAT : argv[at] === '--format' ? argv[at + 1] : argv[at]?.slice('--format='.length);
  return format !== undefined && ['json', 'ndjson'].includes(format.trim().toLowerCase());
}

/** The one error handler: one readable line (or a JSON object) on stderr, and the exit code. */
function report(
  error: unknown,
  io: IO,
  json: boolean,
  verbose: boolean,
  draw: typeof ErrorText,
  debug = false,
): { code: number; shown: ErrorReport } {
  const write = (report: ErrorReport) => io.stderr.write(draw(report, json));
  if (isCommanderError(error)) {
    // commander puts its suggestion on a second line: "(Did you mean artists?)".
    const [message = '', ...more] = error.message.replace(/^error:\s*/, '').split('\n');
    const details = [...more.map((line) => line.trim()).filter(Boolean), 'see `pds --help`, or `pds <command> --help`'];
    write({ message, details });
    return { code: ExitCode.usage, shown: { message, details } };
  }
  if (error instanceof InterruptedError) return { code: error.exitCode, shown: error };
  if (error instanceof PdsError) {
    write(error);
    // pds's own errors say what happened; their stack frames are for debugging pds (PDS_DEBUG=1).
    if (debug && error.cause instanceof Error && error.cause.stack) io.stderr.write(`${error.cause.stack}\n`);
    return { code: error.exitCode, shown: error };
  }
  const message = error instanceof Error ? error.message : String(error);
  write({ message, details: [] });
  // An internal error: its stack is what a bug report needs.
  if ((verbose || debug) && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return { code: ExitCode.failure, shown: { message, details: [] } };
}

/**
 * How long a command stopped by SIGTERM or SIGHUP has to end by itself before pds exits anyway (a
 * CI runner kills at 7.5 s). Not after Ctrl-C: a pager may still hold the terminal, and a second
 * Ctrl-C is there to insist.
 */
const STOP_GRACE_MS = 5000;

/**
 * A real process: Ctrl-C, SIGTERM (a CI runner cancelling the job, a service manager) and SIGHUP
 * (the terminal closed) all abort the running command's signal with the same InterruptedError,
 * naming the signal: every request and batch stops, whoever made a temporary file removes it, a
 * batch says what was uploaded and writes its reports, and the exit code is the signal's. A second
 * signal exits at once. A closed stdout pipe
 * (`pds … | head -1`) ends the run quietly as a success.
 */
function attachProcessHandlers(io: IO, controller: AbortController, onPipeClosed: () => void): () => void {
  let stopping = false;
  const exitNow = (code: number) => {
    // No cleanup runs after this: a live display may have hidden the cursor.
    if (io.stderrIsTTY) io.stderr.write('\u001b[?25h');
    process.exit(code);
  };
  const handlers = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((name) => {
    const onSignal = () => {
      if (stopping) exitNow(STOP_SIGNALS[name]);
      stopping = true;
      controller.abort(new InterruptedError(name));
      if (name !== 'SIGINT') setTimeout(() => exitNow(STOP_SIGNALS[name]), STOP_GRACE_MS).unref();
    };
    process.on(name, onSignal);
    return [name, onSignal] as const;
  });
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    onPipeClosed();
    controller.abort(new InterruptedError());
  };
  io.stdout.on('error', onStdoutError);
  return () => {
    for (const [name, onSignal] of handlers) process.off(name, onSignal);
  };
}

export type { GlobalFlags };

/** commander ends `--help` and `--version` by throwing: not a failure. */
function isHelpOrVersion(error: unknown): boolean {
  if (!isCommanderError(error)) return false;
  return (
    error.exitCode === 0 ||
    error.code === 'commander.helpDisplayed' ||
    error.code === 'commander.version' ||
    error.code === 'commander.help'
  );
}

function isCommanderError(error: unknown): error is CommanderError {
  return (
    error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('commander.')
  );
}

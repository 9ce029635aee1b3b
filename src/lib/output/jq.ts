// `--jq <expression>`: the JSON a command prints, filtered by jq itself (jq-web: jq 1.7 compiled to
// WebAssembly, shipped inside the npm package). Loaded only when the flag is used: instantiating
// the 2.7 MB module costs ~15 ms and ~40 MB, which no other command should pay.
//
// The whole value goes through jq at once, so `--all --jq` holds every record in memory (as jq
// itself does); plain `--all --json` streams.
import { requireFullBuild } from '../ci/action-build.js';
import { InterruptedError, UsageError } from '../errors.js';
import { DURATION_FORMS, parseDuration } from '../clock.js';
import { safeLines } from './text.js';
import { checkDepth, jsonText } from './deep-json.js';

/** jq's own exit code for an expression that does not compile. */
const COMPILE_ERROR = 3;

/** How long one run of the expression may take unless --jq-timeout says. */
export const DEFAULT_JQ_TIMEOUT_SECONDS = 10;

export interface JqFilter {
  readonly expression: string;
  /**
   * The output for one value: strings raw, one result per line; other results as JSON, indented
   * for a terminal and one line each for a pipe (as gh does).
   */
  apply(value: unknown, terminal: boolean): Promise<string>;
  /** The results as values, for a format other than JSON to render (`--jq … --format csv`). */
  values(value: unknown): Promise<unknown[]>;
  /** Ends the worker (idempotent): nothing of jq outlives the command. */
  close(): void;
}

/** --jq-timeout in seconds (0.1 to 3600) as milliseconds; the default when not given. */
export function jqTimeoutMs(given: string | undefined): number {
  if (given === undefined) return DEFAULT_JQ_TIMEOUT_SECONDS * 1000;
  const seconds = parseDuration(given);
  if (seconds === undefined || seconds < 0.1 || seconds > 3600) {
    throw new UsageError(`invalid --jq-timeout '${given}': expected seconds from 0.1 to 3600 (${DURATION_FORMS})`);
  }
  return seconds * 1000;
}

export interface JqLimits {
  /** --jq-timeout, in milliseconds. */
  timeoutMs: number;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

/**
 * jq runs in a worker thread: WebAssembly cannot be interrupted from its own thread, and a runaway
 * expression (`def f: f; f`, `[range(1e9)]`) would hold the event loop, and with it Ctrl-C, until
 * it ends. A worker can be terminated at any instruction. The worker is CommonJS code given as a
 * string (the bundle has no file for it) and requires the package itself, as before.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = require(workerData.jqPath);
parentPort.on('message', async ({ input, filter, flags }) => {
  const jq = await ready;
  try {
    parentPort.postMessage({ output: jq.raw(input, filter, flags) ?? '' });
  } catch (error) {
    parentPort.postMessage({ error: { message: String(error && error.message), stderr: error && error.stderr, exitCode: error && error.exitCode } });
  }
});
`;

type Answer = { output: string } | { error: { message: string; stderr?: unknown; exitCode?: unknown } };

/** Loads jq and compiles the expression against `null`; a bad expression is exit 2, before any request. */
export async function compileJq(expression: string, limits: JqLimits): Promise<JqFilter> {
  requireFullBuild('--jq');
  const [{ Worker }, { createRequire }] = await Promise.all([import('node:worker_threads'), import('node:module')]);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { jqPath: createRequire(import.meta.url).resolve('jq-web') },
  });
  // Idle between runs, the worker must not keep the process alive.
  worker.unref();
  const close = (): void => void worker.terminate();
  /** One run at a time, as the output is written in order. */
  const raw = (input: string, flags: string[]): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const stop = (error: Error): void => {
        clearTimeout(timer);
        limits.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        close();
        reject(error);
      };
      const onAbort = (): void => stop(new InterruptedError());
      const onError = (error: Error): void => stop(new UsageError(`--jq: ${error.message}`));
      const onMessage = (answer: Answer): void => {
        clearTimeout(timer);
        limits.signal.removeEventListener('abort', onAbort);
        worker.off('error', onError);
        worker.unref();
        resolve(answer);
      };
      const timer = setTimeout(
        () =>
          stop(
            new UsageError(`--jq: the expression '${expression}' did not finish within ${limits.timeoutMs / 1000} s`, {
              details: ['raise the limit with --jq-timeout <seconds>'],
            }),
          ),
        limits.timeoutMs,
      );
      if (limits.signal.aborted) return onAbort();
      limits.signal.addEventListener('abort', onAbort, { once: true });
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.ref();
      worker.postMessage({ input, filter: expression, flags });
    });
  const run = async (value: unknown, pretty: boolean): Promise<string> => {
    const answer = await raw(jsonText(value) ?? 'null', pretty ? ['-r'] : ['-r', '-c']);
    if ('error' in answer) throw inputError(answer.error, value);
    return answer.output;
  };
  const checked = await raw('null', ['-c']).catch((error: unknown) => {
    close();
    throw error;
  });
  // Only a compile error says the expression is bad; `null` may simply not fit it (`.[0].id`).
  if ('error' in checked && exitCodeOf(checked.error) === COMPILE_ERROR) {
    close();
    throw jqError(checked.error);
  }
  return {
    expression,
    close,
    apply: async (value, terminal) => {
      let text = await run(value, terminal);
      // jq ends every result with a newline; the wasm build drops the last one.
      if (text !== '' && !text.endsWith('\n')) text += '\n';
      // Raw strings come from the service: on a terminal, no control sequence of theirs gets through.
      return terminal ? safeLines(text) : text;
    },
    // Compact, not raw: one JSON text a line, each parsed back.
    values: async (value) => {
      const answer = await raw(jsonText(value) ?? 'null', ['-c']);
      if ('error' in answer) throw inputError(answer.error, value);
      return answer.output
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as unknown);
    },
  };
}

/** jq reads JSON nested at most this deep (its parser's limit). */
const JQ_MAX_DEPTH = 10_000;

/** jq's error, or, when jq could not read the input for its depth, which field was too deep. */
function inputError(error: unknown, value: unknown): UsageError {
  const stderr = typeof error === 'object' && error !== null && 'stderr' in error ? String(error.stderr) : '';
  if (stderr.includes('Exceeds depth limit for parsing')) checkDepth(value, JQ_MAX_DEPTH - 1, 'jq');
  return jqError(error);
}

function exitCodeOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'exitCode' in error && typeof error.exitCode === 'number'
    ? error.exitCode
    : undefined;
}

/** jq's message as the error: `jq: error: syntax error, … at <top-level>, line 1:`, then its context lines. */
function jqError(error: unknown): UsageError {
  const stderr =
    typeof error === 'object' && error !== null && 'stderr' in error && typeof error.stderr === 'string'
      ? error.stderr
      : '';
  if (stderr !== '' && exitCodeOf(error) !== COMPILE_ERROR) {
    // A runtime error quotes the data (`error`, a value that does not fit): its line feeds are the
    // data's, not lines of jq's own, so it stays one message (the error handler shows them as \n).
    return new UsageError(
      `--jq: ${stderr.replace(/\n+$/, '').replace(/^jq: error \(at [^)]*\)( \(not a string\))?: /, '')}`,
    );
  }
  const message =
    typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
  const lines = (stderr || message)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !/^Non-zero exit code/.test(line) && !/^jq: \d+ compile errors?$/.test(line));
  const [first = 'jq failed', ...rest] = lines;
  return new UsageError(`--jq: ${first.replace(/^jq: error: /, '').replace(/^jq: error \(at [^)]*\): /, '')}`, {
    details: rest,
  });
}

// `--jq <expression>`: the JSON a command prints, filtered by jq itself (jq-web: jq 1.7 compiled to
// WebAssembly, shipped inside the npm package). Loaded only when the flag is used: instantiating
// the 2.7 MB module costs ~15 ms and ~40 MB, which no other command should pay.
//
// The whole value goes through jq at once, so `--all --jq` holds every record in memory (as jq
// itself does); plain `--all --json` streams.
import { UsageError } from './errors.js';
import { safeLines } from './text.js';

interface JqRuntime {
  /** Runs jq over a JSON text; returns its stdout or throws with `stderr` and `exitCode`. */
  raw(input: string, filter: string, flags?: string[]): string | undefined;
}

/** jq's own exit code for an expression that does not compile. */
const COMPILE_ERROR = 3;

export interface JqFilter {
  readonly expression: string;
  /**
   * The output for one value: strings raw, one result per line; other results as JSON, indented
   * for a terminal and one line each for a pipe (as gh does).
   */
  apply(value: unknown, terminal: boolean): string;
  /** The results as values, for a format other than JSON to render (`--jq … --format csv`). */
  values(value: unknown): unknown[];
}

/** Loads jq and compiles the expression against `null`; a bad expression is exit 2, before any request. */
export async function compileJq(expression: string): Promise<JqFilter> {
  // require(), not import(): the package's CommonJS export is itself a promise, which ESM interop
  // (vitest's in particular) wraps into a namespace object.
  const { createRequire } = await import('node:module');
  const jq = await (createRequire(import.meta.url)('jq-web') as Promise<JqRuntime>);
  const run = (input: string, pretty: boolean, raw = true): string => {
    try {
      // No output at all comes back as undefined.
      return jq.raw(input, expression, [...(raw ? ['-r'] : []), ...(pretty ? [] : ['-c'])]) ?? '';
    } catch (error) {
      throw jqError(error);
    }
  };
  try {
    jq.raw('null', expression, ['-c']);
  } catch (error) {
    // Only a compile error says the expression is bad; `null` may simply not fit it (`.[0].id`).
    if (exitCodeOf(error) === COMPILE_ERROR) throw jqError(error);
  }
  return {
    expression,
    apply: (value, terminal) => {
      let text = run(JSON.stringify(value) ?? 'null', terminal);
      // jq ends every result with a newline; the wasm build drops the last one.
      if (text !== '' && !text.endsWith('\n')) text += '\n';
      // Raw strings come from the service: on a terminal, no control sequence of theirs gets through.
      return terminal ? safeLines(text) : text;
    },
    // Compact, not raw: one JSON text a line, each parsed back.
    values: (value) =>
      run(JSON.stringify(value) ?? 'null', false, false)
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as unknown),
  };
}

function exitCodeOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'exitCode' in error && typeof error.exitCode === 'number' ? error.exitCode : undefined;
}

/** jq's message as the error: `jq: error: syntax error, … at <top-level>, line 1:`, then its context lines. */
function jqError(error: unknown): UsageError {
  const stderr = typeof error === 'object' && error !== null && 'stderr' in error && typeof error.stderr === 'string' ? error.stderr : '';
  if (stderr !== '' && exitCodeOf(error) !== COMPILE_ERROR) {
    // A runtime error quotes the data (`error`, a value that does not fit): its line feeds are the
    // data's, not lines of jq's own, so it stays one message (the error handler shows them as \n).
    return new UsageError(`--jq: ${stderr.replace(/\n+$/, '').replace(/^jq: error \(at [^)]*\)( \(not a string\))?: /, '')}`);
  }
  const lines = (stderr || (error instanceof Error ? error.message : String(error)))
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !/^Non-zero exit code/.test(line) && !/^jq: \d+ compile errors?$/.test(line));
  const [first = 'jq failed', ...rest] = lines;
  return new UsageError(`--jq: ${first.replace(/^jq: error: /, '').replace(/^jq: error \(at [^)]*\): /, '')}`, { details: rest });
}

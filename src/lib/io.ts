// The streams a command may touch, and what they are connected to. Tests build an IO over
// in-memory streams and choose whether each "is a TTY".
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { isatty } from 'node:tty';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  /** Terminal height, for live lines that must fit the screen; undefined when unknown. */
  rows?: number;
}

export function processIO(): IO {
  return {
    // Made only when read: opening process.stdin costs a command that never reads it a few ms.
    get stdin(): Readable {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: isatty(0),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    // Not a terminal: COLUMNS says the width a reader wants (as for ls and man), else 80.
    columns: process.stdout.columns || Number(/^[1-9]\d{0,3}$/.exec(process.env.COLUMNS ?? '')?.[0] ?? 80),
    // Live lines are drawn on stderr: its height is the one that counts.
    ...(process.stderr.rows ? { rows: process.stderr.rows } : {}),
  };
}

/**
 * Color only where a person reads it: on a TTY, unless NO_COLOR or --no-color says otherwise;
 * FORCE_COLOR turns it on anywhere (FORCE_COLOR=0 off).
 */
export function colorEnabled(stream: 'stdout' | 'stderr', io: IO, env: NodeJS.ProcessEnv, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
}

/**
 * Whether stderr may animate (spinners, lines redrawn in place): a terminal that can move the
 * cursor, and no PDS_NO_SPINNER (for screen readers and logs). Otherwise progress is static lines.
 */
export function animationEnabled(io: IO, env: NodeJS.ProcessEnv): boolean {
  const off = env.PDS_NO_SPINNER;
  return io.stderrIsTTY && env.TERM !== 'dumb' && (off === undefined || off === '' || off === '0');
}

/** In-memory IO for tests: everything written is kept as text. */
export interface MemoryIO extends IO {
  stdout: PassThrough;
  stderr: PassThrough;
  stdin: PassThrough;
  out(): string;
  err(): string;
}

export function memoryIO(options: { tty?: boolean; stdinTTY?: boolean; stdin?: string | Buffer; columns?: number; rows?: number } = {}): MemoryIO {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => outChunks.push(chunk));
  stderr.on('data', (chunk: Buffer) => errChunks.push(chunk));
  if (options.stdin !== undefined) stdin.end(options.stdin);
  const tty = options.tty ?? false;
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: options.stdinTTY ?? false,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    columns: options.columns ?? 100,
    ...(options.rows === undefined ? {} : { rows: options.rows }),
    out: () => Buffer.concat(outChunks).toString('utf8'),
    err: () => Buffer.concat(errChunks).toString('utf8'),
  };
}

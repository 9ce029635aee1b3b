// The streams a command may touch, and what they are connected to. Tests build an IO over
// in-memory streams and choose whether each "is a TTY".
import { randomUUID } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { PassThrough, Writable, type Readable } from 'node:stream';
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
  /** stdout goes to a pager (pager.ts): nothing animates on stderr, where a line would end the paging. */
  paged?: boolean;
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
export function colorEnabled(
  stream: 'stdout' | 'stderr',
  io: IO,
  env: NodeJS.ProcessEnv,
  noColorFlag: boolean,
): boolean {
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

export function memoryIO(
  options: { tty?: boolean; stdinTTY?: boolean; stdin?: string | Buffer; columns?: number; rows?: number } = {},
): MemoryIO {
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

// GitHub Actions reads workflow commands from every line a step prints, on stdout and on stderr:
// `::error::…`, `::add-mask::…`, `::stop-commands::…` after leading white space, and the older
// `##[name]…` anywhere in a line; its reader ends a line at LF, CR or CRLF. A file name, a service
// message or a downloaded document printed at the start of a line would be obeyed: add
// annotations, mask text, or stop the runner from reading pds's own `::error` lines. So under
// GITHUB_ACTIONS=true every line pds prints for people passes through one of two guards:
// - stderr (text for people): such a line is shown with its first `:` or its `[` as an escape
//   (`\x3a`, `\x5b`), as safeText shows control characters. Not fenced: the runner takes a
//   batch's stderr lines before its stdout lines, so a fence on stderr could swallow pds's own
//   annotations on stdout, where the fences are in order with them;
// - stdout holding a view (a table asked for with --format table where no terminal is): a line
//   that could be a command is fenced in `::stop-commands::<random token>` … `::<token>::`,
//   GitHub's own way to print text as it is.
// Everything else on stdout is data (TSV, the default when piped, ids, JSON, CSV, a file's
// content): scripts read it, so it goes out byte for byte, the same with or without GITHUB_ACTIONS
// (`pds statements ls | gzip` gets the same bytes), and, as when stdout is a file, pds's own
// workflow commands go to stderr, never into the data. Only a view is fenced: the renderer says
// when stdout holds one (viewOnStdout). A step that prints data to its log lets the runner read
// it: the docs say to write data to a file.
// pds's own annotations go out through writeWorkflowCommands, the one way around the guard.
// A stream that is a terminal or a regular file is no runner's pipe, and is left alone.

const _LINE_END = /[\r\n]/;
/** White space .NET's TrimStart skips (a superset: JavaScript's \s, and NEL). */
const COMMAND_START = /^[\s\u0085]*::/;
const OLD_COMMAND = /##\[[^\]]*\]/;

/** Whether the runner could read `line` (one line, without its end) as a workflow command. */
export function couldBeWorkflowCommand(line: string): boolean {
  return (COMMAND_START.test(line) && line.indexOf('::', line.indexOf('::') + 2) >= 0) || OLD_COMMAND.test(line);
}

type Guard = 'fence' | 'escape';

/** A writable in front of stdout or stderr that lets no line through as a workflow command. */
class CommandGuard extends Writable {
  /** The start of a line whose end has not been written yet. */
  private pending = Buffer.alloc(0);
  private readonly own = new WeakSet<Buffer>();
  /**
   * The stream carries data, written as it is: stdout until the renderer says it holds a view
   * (viewOnStdout), so a run that fails before it chose (a usage error) puts nothing in the data.
   */
  carriesData: boolean;

  constructor(
    readonly target: Writable,
    private readonly guard: Guard,
  ) {
    super();
    this.carriesData = guard === 'fence';
    target.on('error', (error) => this.emit('error', error));
  }

  /** pds's own workflow commands, written in order with everything before them. */
  writeOwn(text: string): Promise<void> {
    const chunk = Buffer.from(text);
    this.own.add(chunk);
    return new Promise((resolve) => this.write(chunk, () => resolve()));
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    let out: Buffer;
    if (this.carriesData) {
      out = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
      this.pending = Buffer.alloc(0);
    } else if (this.own.has(chunk)) {
      // A line left open would run into our command: it ends first. (An empty chunk is a flush.)
      const open =
        this.pending.length > 0 && chunk.length > 0 ? Buffer.concat([this.pending, Buffer.from('\n')]) : this.pending;
      out = Buffer.concat([this.lines(open, true), chunk]);
    } else {
      out = this.lines(this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk, false);
    }
    if (out.length === 0 || this.target.write(out)) done();
    else this.target.once('drain', () => done());
  }

  override _final(done: (error?: Error | null) => void): void {
    const out = this.lines(this.pending, true);
    if (out.length > 0) this.target.write(out);
    done();
  }

  /** Writes a line left open (the end of the output, which may end without a line feed), after all before it. */
  flush(): Promise<void> {
    return this.writeOwn('');
  }

  /**
   * The guarded form of `data`'s complete lines (and, with `whole`, of its last line even without
   * an end); the rest is kept for the next write.
   */
  private lines(data: Buffer, whole: boolean): Buffer {
    const parts: Buffer[] = [];
    let token: string | undefined;
    let start = 0;
    // The next LF and CR at or after `start`, each found again only once passed (-1: none left).
    let lf = data.indexOf(0x0a);
    let cr = data.indexOf(0x0d);
    while (start < data.length) {
      if (lf >= 0 && lf < start) lf = data.indexOf(0x0a, start);
      if (cr >= 0 && cr < start) cr = data.indexOf(0x0d, start);
      const end = lf < 0 ? (cr < 0 ? data.length : cr) : cr < 0 ? lf : Math.min(lf, cr);
      if (end === data.length && !whole) break;
      const next = end < data.length ? end + 1 : end;
      const line = data.subarray(start, end);
      if (!isSuspect(line)) {
        parts.push(data.subarray(start, next));
      } else if (this.guard === 'escape') {
        parts.push(Buffer.from(escapeCommand(line.toString('utf8'))), data.subarray(end, next));
      } else {
        if (token === undefined) {
          token = randomUUID().replace(/-/g, '');
          parts.push(Buffer.from(`::stop-commands::${token}\n`));
        }
        parts.push(data.subarray(start, next));
        if (next === end) parts.push(Buffer.from('\n'));
      }
      start = next;
    }
    this.pending = Buffer.from(data.subarray(start));
    if (token !== undefined) parts.push(Buffer.from(`::${token}::\n`));
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}

/** A quick look before the exact one: most lines hold neither `::` nor `##[`. */
function isSuspect(line: Buffer): boolean {
  return (line.indexOf('::') >= 0 || line.indexOf('##[') >= 0) && couldBeWorkflowCommand(line.toString('utf8'));
}

/** The line with what makes it a command shown as an escape: its first `:` and each `##[`'s `[`. */
function escapeCommand(line: string): string {
  const escaped = line.replace(/##\[/g, '##\\x5b');
  return COMMAND_START.test(escaped) ? escaped.replace(':', '\\x3a') : escaped;
}

/** A stream a runner could read: not a terminal, not a file (a redirect `> out.csv` is no log). */
function runnerCouldRead(stream: Writable, isTTY: boolean): boolean {
  if (isTTY) return false;
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return true;
  try {
    return !fstatSync(fd).isFile();
  } catch {
    return true;
  }
}

/** Where pds's own workflow commands meant for a stdout that carries data go instead: its stderr. */
const commandsGoTo = new WeakMap<Writable, Writable>();

/** The IO with stdout and stderr guarded when running under GitHub Actions (see above). */
export function guardWorkflowCommands<T extends IO>(io: T, env: NodeJS.ProcessEnv): T {
  if (env.GITHUB_ACTIONS !== 'true') return io;
  const guarded = Object.defineProperties({}, Object.getOwnPropertyDescriptors(io)) as T;
  if (runnerCouldRead(io.stderr, io.stderrIsTTY)) guarded.stderr = new CommandGuard(io.stderr, 'escape');
  if (runnerCouldRead(io.stdout, io.stdoutIsTTY)) guarded.stdout = new CommandGuard(io.stdout, 'fence');
  else if (!io.stdoutIsTTY) commandsGoTo.set(io.stdout, guarded.stderr);
  if (guarded.stdout instanceof CommandGuard) commandsGoTo.set(guarded.stdout, guarded.stderr);
  return guarded;
}

/**
 * stdout holds a view for people (a table), not data: under GitHub Actions a line of it a runner
 * would obey is fenced, and pds's own workflow commands go out in order with it. Otherwise stdout
 * carries data, written as it is, and pds's own workflow commands go to stderr.
 */
export function viewOnStdout(io: IO): void {
  if (io.stdout instanceof CommandGuard) io.stdout.carriesData = false;
}

/**
 * Under GitHub Actions, `write`'s lines of a view on stdout (a table on a runner's pipe, never
 * data) folded in a `::group::` of the log, so a long table leaves the counts and the errors in view.
 */
export async function inLogGroup(stream: Writable, title: string, write: () => void): Promise<void> {
  const folds = stream instanceof CommandGuard && !stream.carriesData;
  if (folds) await stream.writeOwn(`::group::${title.replace(/[\r\n]/g, ' ')}\n`);
  write();
  if (folds) await stream.writeOwn('::endgroup::\n');
}

/** Streams pds's own workflow commands went to: a run that annotated its failures needs no other annotation. */
const annotated = new WeakSet<Writable>();

/**
 * Writes pds's own workflow commands (annotations): through the guard, never fenced or escaped.
 * Meant for a stdout that carries data (a file, a format), they go to stderr.
 */
export async function writeWorkflowCommands(stream: Writable, text: string): Promise<void> {
  if (text !== '') annotated.add(stream);
  const carriesData = stream instanceof CommandGuard ? stream.carriesData : commandsGoTo.has(stream);
  const to = carriesData ? (commandsGoTo.get(stream) ?? stream) : stream;
  if (to instanceof CommandGuard) await to.writeOwn(text);
  else to.write(text);
}

/** Whether pds wrote workflow commands of its own to `stream` in this run. */
export function wroteWorkflowCommands(stream: Writable): boolean {
  return annotated.has(stream);
}

/** The stream under the guard, for output that is a protocol and no log (an MCP server's stdout). */
export function unguarded(stream: Writable): Writable {
  return stream instanceof CommandGuard ? stream.target : stream;
}

/** At the end of a run: a last line without a line feed goes out, guarded. */
export async function flushGuards(io: IO): Promise<void> {
  for (const stream of [io.stdout, io.stderr]) if (stream instanceof CommandGuard) await stream.flush();
}

// The built CLI (bin/pds.js → dist/) as a real child process: over pipes, or under a pseudo-terminal
// whose screen is rendered by a headless terminal emulator, so tests read what a person would see.
// Whatever depends on the real process (signals, terminals, proxies, exit timing) is tested here.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_PROJECT, freshConfigDir } from './cli.js';

/**
 * The environment of a pds signed in to `apiUrl` (an emulator) with the organization token, in the
 * first demo project, with a config directory of its own.
 */
export function signedInEnv(
  apiUrl: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    PDS_API_URL: apiUrl,
    PDS_TOKEN: 'demo-org-token',
    PDS_PROJECT: DEMO_PROJECT,
    PDS_CONFIG_DIR: freshConfigDir(),
    ...extra,
  };
}

export const PDS_BIN = fileURLToPath(new URL('../../bin/pds.js', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the start to the exit. */
  ms: number;
  /** Milliseconds from the last byte of output to the exit. */
  afterLastOutputMs: number;
}

export interface PipedRun extends Exit {
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  stdin?: string | Buffer;
  /** A stdin pipe left open, for the test to type into (`child.stdin`). */
  openStdin?: boolean;
  /**
   * Killed with SIGKILL after this long (default 45 s: a hung process fails its test with its output,
   * before the test's own 60 s deadline; never a bound on how fast pds is).
   */
  killAfterMs?: number;
}

/**
 * The environment of a child: only what a test run may rely on (PATH to find programs, the file's
 * own TMPDIR and HOME from setup-file.ts, a UTF-8 locale, UTC), then `extra`. Nothing else is
 * inherited, so no PDS_*, ROYALTYPORT_*, proxy, pager, browser or colour setting of whoever runs
 * the tests reaches pds; a test that needs one sets it.
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const chosen = {
    PATH: process.env.PATH,
    TMPDIR: process.env.TMPDIR,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...extra,
  };
  // Unset means absent: node-pty would pass an undefined value on as the string "undefined".
  for (const [key, value] of Object.entries(chosen)) if (value !== undefined) env[key] = value;
  return env;
}

/** A running pds over pipes. */
export interface PipedProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout or stderr has shown `pattern`. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  exited: Promise<PipedRun>;
}

export function startPds(args: string[], options: SpawnOptions = {}): PipedProcess {
  const started = Date.now();
  let lastOutput = started;
  const child = spawn(process.execPath, [PDS_BIN, ...args], {
    env: childEnv(options.env),
    stdio: [options.stdin === undefined && !options.openStdin ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const seen = () => {
    lastOutput = Date.now();
    for (const check of waiters) check();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    seen();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    seen();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 45_000);
  const exited = new Promise<PipedRun>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      const now = Date.now();
      resolve({ code, signal, ms: now - started, afterLastOutputMs: now - lastOutput, stdout, stderr });
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern, timeoutMs = 30_000) =>
      waitUntil(
        () => matches(stdout + stderr, pattern),
        waiters,
        timeoutMs,
        () => `stdout: ${stdout}\nstderr: ${stderr}`,
      ),
    exited,
  };
}

/** Runs pds to its end over pipes. */
export function runPds(args: string[], options: SpawnOptions = {}): Promise<PipedRun> {
  return startPds(args, options).exited;
}

export interface PtyOptions {
  env?: Record<string, string | undefined>;
  /** Default: this process's working directory. */
  cwd?: string;
  cols?: number;
  rows?: number;
  killAfterMs?: number;
  /**
   * Every byte read before `exited`, for a test of what the screen shows at the end: Linux may
   * drop what the terminal had not read yet when the process's side of it closes (a screen cut
   * mid-row on a loaded machine), so the test holds that side open too, and `exited` comes about
   * 200 ms later. Not for tests that time the exit.
   */
  wholeScreen?: boolean;
}

/** A running pds on a pseudo-terminal: stdin, stdout and stderr are all the terminal. */
export interface PtyProcess {
  /** Types keys: `'\x03'` is Ctrl-C, `'\x04'` Ctrl-D, `'\r'` Enter. */
  write(keys: string): void;
  /** Everything the process wrote, escape sequences included. */
  raw(): string;
  /** The screen as a person sees it: one string per row, trailing blanks trimmed, empty rows at the end dropped. */
  screen(): Promise<string[]>;
  /** Whether the cursor is visible (not hidden by `ESC [ ? 25 l`). */
  cursorVisible(): boolean;
  /** Resolves when the raw output has shown `pattern`. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  exited: Promise<Exit>;
}

export async function ptyPds(args: string[], options: PtyOptions = {}): Promise<PtyProcess> {
  const [{ spawn: spawnPty }, { Terminal }] = await Promise.all([
    import('@lydell/node-pty'),
    import('@xterm/headless'),
  ]);
  const cols = options.cols ?? 120;
  const rows = options.rows ?? 40;
  const env = childEnv({ TERM: 'xterm-256color', ...options.env });
  const started = Date.now();
  let lastOutput = started;
  const term = spawnPty(process.execPath, [PDS_BIN, ...args], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd ?? process.cwd(),
    env: env as Record<string, string>,
  });
  const screen = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
  let raw = '';
  let pendingWrite: Promise<void> = Promise.resolve();
  const waiters = new Set<() => void>();
  term.onData((data) => {
    raw += data;
    lastOutput = Date.now();
    pendingWrite = pendingWrite.then(() => new Promise<void>((resolve) => screen.write(data, resolve)));
    for (const check of waiters) check();
  });
  const killer = setTimeout(() => term.kill('SIGKILL'), options.killAfterMs ?? 45_000);
  const held = options.wholeScreen ? holdTerminal(term) : undefined;
  const exited = new Promise<Exit>((resolve) => {
    term.onExit(({ exitCode, signal }) => {
      clearTimeout(killer);
      if (held !== undefined) closeSync(held);
      const now = Date.now();
      resolve({
        code: signal ? null : exitCode,
        signal: signal ? (signalName(signal) ?? null) : null,
        ms: now - started,
        afterLastOutputMs: now - lastOutput,
      });
    });
  });
  return {
    write: (keys) => term.write(keys),
    raw: () => raw,
    async screen() {
      await pendingWrite;
      const buffer = screen.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines;
    },
    cursorVisible: () => {
      const hidden = raw.lastIndexOf('\u001b[?25l');
      return hidden === -1 || raw.lastIndexOf('\u001b[?25h') > hidden;
    },
    waitFor: (pattern, timeoutMs = 30_000) =>
      waitUntil(
        () => matches(raw, pattern),
        waiters,
        timeoutMs,
        () => `screen so far: ${JSON.stringify(raw)}`,
      ),
    exited,
  };
}

/** The process's side of the terminal opened here too (never as this process's own terminal). */
function holdTerminal(term: object): number | undefined {
  const name = (term as { ptsName?: unknown }).ptsName;
  return typeof name === 'string' ? openSync(name, constants.O_RDWR | constants.O_NOCTTY) : undefined;
}

function matches(text: string, pattern: RegExp | string): boolean {
  return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
}

function waitUntil(
  check: () => boolean,
  waiters: Set<() => void>,
  timeoutMs: number,
  describe: () => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) {
      resolve();
      return;
    }
    const onOutput = () => {
      if (!check()) return;
      clearTimeout(timer);
      waiters.delete(onOutput);
      resolve();
    };
    const timer = setTimeout(() => {
      waiters.delete(onOutput);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for output; ${describe()}`));
    }, timeoutMs);
    waiters.add(onOutput);
  });
}

function signalName(signal: number): NodeJS.Signals | undefined {
  const names: Record<number, NodeJS.Signals> = { 1: 'SIGHUP', 2: 'SIGINT', 9: 'SIGKILL', 15: 'SIGTERM' };
  return names[signal];
}

/**
 * Seconds of CPU a process has used, all its threads (Linux: /proc/<pid>/stat, whose utime and
 * stime count clock ticks of 1/100 s). A process that has used more than it takes to start is
 * running its own work, however long a loaded machine took to start it.
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces: the state
  // (field 3 of the line) first, utime and stime (fields 14 and 15) at 11 and 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resolves once `check` holds (polled every 20 ms), or fails with what it waited for after
 * `timeoutMs`: a bound a loaded machine meets, never a wait without end.
 */
export async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// The pager: on a terminal, output longer than the screen goes through PDS_PAGER, else PAGER,
// else `less -FRX`. Output is held until it fills the screen, so a short answer prints as usual and
// never starts a pager; once it does not fit, the pager starts and gets everything from the first
// line on. Never when stdout is not a terminal; off with --no-pager or an empty PDS_PAGER.
import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import type { IO } from '../io.js';
import { InterruptedError } from '../errors.js';

export interface Paging {
  /** The streams the command writes to: stdout is the pager's gate. */
  io: IO;
  /** Aborted when the pager is quit before the output ended (the command stops, exit 0). */
  signal: AbortSignal;
  /** Whether the reader quit the pager early. */
  readonly quit: boolean;
  /**
   * Whether Ctrl-C ended the pager. It reaches every process of the terminal's foreground group,
   * pds too, but the pager's end may be seen first: the run is interrupted all the same.
   */
  readonly interrupted: boolean;
  /** Flushes what is held, or ends the pager's input and waits until it is quit. */
  close(): Promise<void>;
}

/** The most a pipe can hold unread on Linux (/proc/sys/fs/pipe-max-size); the default is 64 KiB. */
const PIPE_MAX_BYTES = 1024 * 1024;

/** The pager command, or undefined when paging is off. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PDS_PAGER !== undefined) return env.PDS_PAGER.trim() === '' ? undefined : env.PDS_PAGER;
  if (env.PAGER !== undefined && env.PAGER.trim() !== '') return env.PAGER;
  return 'less -FRX';
}

/** A pager over the real terminal, or undefined when there is none to page on. */
export async function openPager(io: IO, env: NodeJS.ProcessEnv): Promise<Paging | undefined> {
  const command = pagerCommand(env);
  // The pager writes to the terminal itself: only the process's own stdout can be handed over.
  if (command === undefined || !io.stdoutIsTTY || io.stdout !== process.stdout || !process.stdout.isTTY)
    return undefined;
  const { default: stringWidth } = await import('string-width');
  const pager = new PagerGate(io, env, command, {
    rows: process.stdout.rows || 24,
    columns: process.stdout.columns || io.columns,
    stringWidth,
  });
  const gate = new Writable({ write: (chunk: Buffer, _encoding, done) => pager.writeOut(chunk, done) });
  const stderrGate = new Writable({ write: (chunk: Buffer, _encoding, done) => pager.writeErr(chunk, done) });
  return {
    io: { ...io, stdout: gate, stderr: stderrGate, paged: true },
    signal: pager.quitController.signal,
    get quit() {
      return pager.quitController.signal.aborted;
    },
    get interrupted() {
      return pager.interrupted;
    },
    async close() {
      // Everything written to the gate has reached it once its own queue is empty.
      await Promise.all([
        new Promise<void>((resolve) => gate.end(resolve)),
        new Promise<void>((resolve) => stderrGate.end(resolve)),
      ]);
      await pager.close();
    },
  };
}

interface Screen {
  rows: number;
  columns: number;
  stringWidth: (text: string) => number;
}

/**
 * Where the output goes: `holding` it until it fills the screen, then `paging` (the pager has it),
 * `ending` (its input closed, the reader still reading), `direct` to the terminal (no pager after
 * all, or a human line came first), or `gone` (the reader quit early: the rest is dropped).
 */
class PagerGate {
  readonly quitController = new AbortController();
  interrupted = false;
  private state: 'holding' | 'paging' | 'ending' | 'direct' | 'gone' = 'holding';
  private held: Buffer[] = [];
  private lines = 0;
  private lineWidth = 0;
  private pager: ChildProcess | undefined;
  private pagerExited: Promise<void> = Promise.resolve();
  // A copy of what the pager was given, until it surely read some: a shell that cannot find the
  // pager exits 127 having read nothing, and the output then goes to the terminal after all. A
  // pipe holds at most 1 MiB unread, so once more than that was taken, the pager was running.
  private sent: Buffer[] | undefined = [];
  private sentBytes = 0;

  constructor(
    private readonly io: IO,
    private readonly env: NodeJS.ProcessEnv,
    private readonly command: string,
    private readonly screen: Screen,
  ) {}

  writeOut(chunk: Buffer, done: () => void): void {
    if (this.state === 'holding') {
      this.held.push(chunk);
      this.count(chunk.toString('utf8'));
      if (this.lines >= this.screen.rows) this.start();
      done();
    } else if (this.state === 'paging') {
      // Back-pressure: a pager that is not read stops the writer.
      this.toPager(chunk, done);
    } else if (this.state === 'direct') {
      this.io.stdout.write(chunk, () => done());
    } else {
      done();
    }
  }

  /**
   * Human lines keep their place beside the data: while output is held, one ends the holding (what
   * is held prints, and this run does not page); while paging, they go into the pager too.
   */
  writeErr(chunk: Buffer, done: () => void): void {
    if (this.state === 'holding') {
      this.flushHeld();
      this.state = 'direct';
    }
    if (this.state === 'paging') this.toPager(chunk, done);
    else this.io.stderr.write(chunk, () => done());
  }

  async close(): Promise<void> {
    if (this.state === 'holding') {
      this.flushHeld();
      return;
    }
    if (this.state === 'paging') {
      // Its end from here on is the normal one, not an early quit.
      this.state = 'ending';
      this.pager?.stdin?.end();
    }
    // The pager has the terminal until the reader quits it; it is not ended from here.
    await this.pagerExited;
  }

  private flushHeld(): void {
    for (const chunk of this.held) this.io.stdout.write(chunk);
    this.held = [];
  }

  private toPager(chunk: Buffer, done?: () => void): void {
    if (this.sent) {
      this.sent.push(chunk);
      this.sentBytes += chunk.length;
      if (this.sentBytes > PIPE_MAX_BYTES) this.sent = undefined;
    }
    const stdin = this.pager?.stdin;
    if (!stdin?.writable) done?.();
    else if (done) stdin.write(chunk, () => done());
    else stdin.write(chunk);
  }

  /** Screen rows the text takes, long lines wrapped. */
  private count(text: string): void {
    const parts = text.split('\n');
    for (let i = 0; i < parts.length; i++) {
      this.lineWidth += this.screen.stringWidth(parts[i] ?? '');
      if (i < parts.length - 1) {
        this.lines += Math.max(1, Math.ceil(this.lineWidth / this.screen.columns));
        this.lineWidth = 0;
      }
    }
  }

  private start(): void {
    const { env, command } = this;
    const isDefault = env.PDS_PAGER === undefined && (env.PAGER === undefined || env.PAGER.trim() === '');
    // The default runs without a shell, so a missing `less` is an error here, not a lost output.
    const child = isDefault
      ? spawn('less', ['-FRX'], { stdio: ['pipe', 'inherit', 'inherit'], env })
      : spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', LV: '-c', ...env } });
    this.pager = child;
    this.state = 'paging';
    this.pagerExited = new Promise<void>((resolve) => {
      child.once('error', () => {
        // No pager after all: what it did not get goes straight to the terminal.
        if (this.state === 'paging' || this.state === 'ending') this.state = 'direct';
        this.flushHeld();
        resolve();
      });
      child.once('close', (code, signal) => {
        if (signal === 'SIGINT') this.interrupted = true;
        this.onClose(code);
        resolve();
      });
    });
    // Held until the pager runs, in case it cannot start.
    child.once('spawn', () => {
      this.held = [];
    });
    // A pager quit early closes its input: what is still written is dropped.
    child.stdin?.on('error', () => undefined);
    for (const chunk of this.held) this.toPager(chunk);
  }

  private onClose(code: number | null): void {
    if ((code === 127 || code === 126) && this.sent && (this.state === 'paging' || this.state === 'ending')) {
      // The shell could not run the pager (not found, not executable): nothing was paged.
      this.state = 'direct';
      this.io.stderr.write(
        `warning: the pager '${this.command}' could not be started (exit ${code}); printing directly\n`,
      );
      for (const chunk of this.sent) this.io.stdout.write(chunk);
      this.sent = undefined;
      return;
    }
    if (this.state === 'paging') {
      this.state = 'gone';
      this.quitController.abort(new InterruptedError());
    }
  }
}

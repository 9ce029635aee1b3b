// The pager: on a terminal, output longer than the screen goes through PDS_PAGER, else PAGER,
// else `less -FRX`. Output is held until it fills the screen, so a short answer prints as usual and
// never starts a pager; once it does not fit, the pager starts and gets everything from the first
// line on. Never when stdout is not a terminal; off with --no-pager or an empty PDS_PAGER.
import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import type { IO } from './io.js';
import { InterruptedError } from './errors.js';

export interface Paging {
  /** The streams the command writes to: stdout is the pager's gate. */
  io: IO;
  /** Aborted when the pager is quit before the output ended (the command stops, exit 0). */
  signal: AbortSignal;
  /** Whether the reader quit the pager early. */
  readonly quit: boolean;
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
  if (command === undefined || !io.stdoutIsTTY || io.stdout !== process.stdout || !process.stdout.isTTY) return undefined;
  const { default: stringWidth } = await import('string-width');
  const rows = process.stdout.rows || 24;
  const columns = process.stdout.columns || io.columns;
  const quitController = new AbortController();

  let state: 'holding' | 'paging' | 'ending' | 'direct' | 'gone' = 'holding';
  let held: Buffer[] = [];
  let lines = 0;
  let lineWidth = 0;
  let pager: ChildProcess | undefined;
  let pagerExited: Promise<void> = Promise.resolve();
  // A copy of what the pager was given, until it surely read some: a shell that cannot find the
  // pager exits 127 having read nothing, and the output then goes to the terminal after all. A
  // pipe holds at most 1 MiB unread, so once more than that was taken, the pager was running.
  let sent: Buffer[] | undefined = [];
  let sentBytes = 0;
  const toPager = (chunk: Buffer, done?: () => void): void => {
    if (sent) {
      sent.push(chunk);
      sentBytes += chunk.length;
      if (sentBytes > PIPE_MAX_BYTES) sent = undefined;
    }
    if (!pager?.stdin?.writable) done?.();
    else if (done) pager.stdin.write(chunk, () => done());
    else pager.stdin.write(chunk);
  };

  /** Screen rows the text takes, long lines wrapped. */
  const count = (text: string): void => {
    const parts = text.split('\n');
    for (let i = 0; i < parts.length; i++) {
      lineWidth += stringWidth(parts[i] ?? '');
      if (i < parts.length - 1) {
        lines += Math.max(1, Math.ceil(lineWidth / columns));
        lineWidth = 0;
      }
    }
  };

  const start = (): void => {
    const isDefault = env.PDS_PAGER === undefined && (env.PAGER === undefined || env.PAGER.trim() === '');
    // The default runs without a shell, so a missing `less` is an error here, not a lost output.
    const child = isDefault
      ? spawn('less', ['-FRX'], { stdio: ['pipe', 'inherit', 'inherit'], env })
      : spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', LV: '-c', ...env } });
    pager = child;
    state = 'paging';
    pagerExited = new Promise<void>((resolve) => {
      child.once('error', () => {
        // No pager after all: what it did not get goes straight to the terminal.
        if (state === 'paging' || state === 'ending') state = 'direct';
        for (const chunk of held) io.stdout.write(chunk);
        held = [];
        resolve();
      });
      child.once('close', (code) => {
        if ((code === 127 || code === 126) && sent && (state === 'paging' || state === 'ending')) {
          // The shell could not run the pager (not found, not executable): nothing was paged.
          state = 'direct';
          io.stderr.write(`warning: the pager '${command}' could not be started (exit ${code}); printing directly\n`);
          for (const chunk of sent) io.stdout.write(chunk);
          sent = undefined;
          resolve();
          return;
        }
        if (state === 'paging') {
          state = 'gone';
          quitController.abort(new InterruptedError());
        }
        resolve();
      });
    });
    // Held until the pager runs, in case it cannot start.
    child.once('spawn', () => {
      held = [];
    });
    // A pager quit early closes its input: what is still written is dropped.
    child.stdin?.on('error', () => undefined);
    for (const chunk of held) toPager(chunk);
  };

  const gate = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (state === 'holding') {
        held.push(chunk);
        count(chunk.toString('utf8'));
        if (lines >= rows) start();
        done();
        return;
      }
      if (state === 'paging') {
        // Back-pressure: a pager that is not read stops the writer.
        toPager(chunk, done);
        return;
      }
      if (state === 'direct') {
        io.stdout.write(chunk, () => done());
        return;
      }
      done();
    },
  });

  // Human lines keep their place beside the data: while output is held, one ends the holding (what
  // is held prints, and this run does not page); while paging, they go into the pager too.
  const stderrGate = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (state === 'holding') {
        for (const piece of held) io.stdout.write(piece);
        held = [];
        state = 'direct';
      }
      if (state === 'paging') {
        toPager(chunk, done);
        return;
      }
      io.stderr.write(chunk, () => done());
    },
  });

  return {
    io: { ...io, stdout: gate, stderr: stderrGate },
    signal: quitController.signal,
    get quit() {
      return quitController.signal.aborted;
    },
    async close() {
      // Everything written to the gate has reached it once its own queue is empty.
      await Promise.all([new Promise<void>((resolve) => gate.end(resolve)), new Promise<void>((resolve) => stderrGate.end(resolve))]);
      if (state === 'holding') {
        for (const chunk of held) io.stdout.write(chunk);
        held = [];
        return;
      }
      if (state === 'paging') {
        // Its end from here on is the normal one, not an early quit.
        state = 'ending';
        pager?.stdin?.end();
      }
      // The pager has the terminal until the reader quits it; it is not ended from here.
      await pagerExited;
    },
  };
}

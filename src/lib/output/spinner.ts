// What stderr shows while a command works: a spinner on a terminal that animates, a line per new
// text on one that does not, nothing piped; and the spinner that appears by itself once a request
// has been slow, cleared before any other line is written to stderr.
import type { IO } from '../io.js';
import { safeText } from './text.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

export interface ActivityOptions {
  /** stderr takes frames: a terminal, not a CI log. */
  live: boolean;
  /** stderr may animate (not TERM=dumb, not PDS_NO_SPINNER). */
  animates: boolean;
  /** Nothing human is said (-q, or a data format on stdout). */
  silent: boolean;
  /** Says a line on stderr (Output.info). */
  say: (text: string) => void;
}

/** Work that takes longer than this gets a spinner on a terminal (whileSlow). */
const SLOW_MS = 1_000;

export class StderrActivity {
  /** Spinners and live lines on stderr now: a waiting spinner would draw over them. */
  private drawing = 0;
  /** Slow work (requests) in flight, and the spinner that says so once one took over SLOW_MS. */
  private slowWork = 0;
  private waiting: { shown?: Spinner; cleared: boolean } | undefined;

  constructor(
    private readonly io: IO,
    private readonly options: ActivityOptions,
  ) {}

  /**
   * A spinner on stderr when it is a terminal that animates (and not -q or a data format). On a
   * terminal that does not (TERM=dumb, PDS_NO_SPINNER=1), a line for each new text, no frames.
   * Piped, nothing.
   */
  async spinner(text: string): Promise<Spinner> {
    const { live, animates, silent, say } = this.options;
    if (!live || silent) return { update: () => undefined, stop: () => undefined };
    if (!animates || zeroWidth(this.io.stderr)) {
      let last = '';
      const sayNew = (next: string) => {
        if (next !== last) say(next);
        last = next;
      };
      sayNew(text);
      return { update: sayNew, stop: () => undefined };
    }
    const { default: ora } = await import('ora');
    // discardStdin would put the terminal in raw mode, where Ctrl-C is a byte, not SIGINT: it
    // reached nobody, since ora adds its listener without resuming stdin. Cooked mode keeps Ctrl-C.
    const spinner = ora({
      text: safeText(text),
      stream: this.io.stderr,
      color: 'cyan',
      isEnabled: true,
      discardStdin: false,
    }).start();
    this.drawing++;
    let stopped = false;
    return {
      update: (next) => {
        spinner.text = safeText(next);
      },
      stop: () => {
        spinner.stop();
        if (!stopped) this.drawing--;
        stopped = true;
      },
    };
  }

  /** Live lines (or any display of a command's own) hold stderr until the returned function is called. */
  holdStderr(): () => void {
    this.clearWaiting();
    this.drawing++;
    let released = false;
    return () => {
      if (!released) this.drawing--;
      released = true;
    };
  }

  /**
   * `work` (a request) with a spinner once it has taken over SLOW_MS, so that a slow command does
   * not look hung: on a terminal's stderr that animates, not under CI, not -q or a data format,
   * not behind a pager, and not while the command draws its own progress there. One spinner
   * stands for all the work in flight; it is cleared when the last ends, or when a line is said.
   */
  async whileSlow<T>(text: string, work: Promise<T>): Promise<T> {
    const { live, animates, silent } = this.options;
    if (!live || !animates || zeroWidth(this.io.stderr) || silent || this.io.paged) return work;
    this.slowWork++;
    const timer = setTimeout(() => {
      if (this.drawing > 0 || this.waiting) return;
      const waiting: { shown?: Spinner; cleared: boolean } = { cleared: false };
      this.waiting = waiting;
      void this.spinner(text).then((spinner) => {
        if (waiting.cleared) spinner.stop();
        else waiting.shown = spinner;
      });
    }, SLOW_MS);
    try {
      return await work;
    } finally {
      clearTimeout(timer);
      if (--this.slowWork === 0) this.clearWaiting();
    }
  }

  /** The waiting spinner leaves the line before anything else is written to stderr. */
  clearWaiting(): void {
    const { waiting } = this;
    if (!waiting) return;
    this.waiting = undefined;
    waiting.cleared = true;
    waiting.shown?.stop();
  }
}

/**
 * A terminal that says it is 0 columns wide (a pseudo-terminal never sized): ora would clear the
 * spinner's line by moving up once per line it thinks it wrapped to, without end.
 */
function zeroWidth(stream: unknown): boolean {
  return (stream as { columns?: unknown }).columns === 0;
}

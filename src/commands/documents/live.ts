// A block of status lines on a terminal's stderr, one per file, redrawn in place as they change.
// ora animates one line; a batch needs one line per file, and redrawing N lines is a cursor-up and
// N line clears. Used only when stderr is a TTY (and not -q/--json): the caller decides.
//
// The cursor cannot go above the top row of the screen: a block taller than the screen, redrawn,
// would leave its scrolled-off top behind as copies in the scrollback. So at most rows - 1 lines
// are live. When there are more, the lines that are done leave the block from its top, printed
// once as plain lines that scroll away, and the lines that do not fit yet wait below the block as
// one "… N more" line.
import type { Writable } from 'node:stream';
import { safeText } from '../../lib/output/text.js';
import type { Cells } from '../../lib/output/cells.js';

const REDRAW_MS = 80;
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';

export interface TerminalSize {
  columns: number;
  /** Unknown: every line stays live. */
  rows?: number | undefined;
}

export class LiveLines {
  private readonly lines: string[] = [];
  /** Lines that will not change again (settle()). */
  private readonly settled: boolean[] = [];
  /** Lines before this one were printed for good: they are above the block and never redrawn. */
  private top = 0;
  /** Rows of the block on the screen, the cursor below them. */
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastDraw = 0;
  private finished = false;

  constructor(
    private readonly out: Writable,
    private readonly size: TerminalSize,
    /** Widths in terminal cells: a line that wraps breaks the cursor-up count and leaves copies behind. */
    private readonly cells: Cells,
    /** Colors the mark at the start of a line (✓ green, ✗ red); identity without color. */
    private readonly paint: (mark: string) => string = (mark) => mark,
  ) {}

  /** Adds a line; returns its index for set(). */
  add(mark: string, text: string): number {
    this.lines.push(this.compose(mark, text));
    this.settled.push(false);
    this.schedule();
    return this.lines.length - 1;
  }

  set(index: number, mark: string, text: string): void {
    const line = this.compose(mark, text);
    if (this.lines[index] === line) return;
    this.lines[index] = line;
    this.schedule();
  }

  /** The line's last state: once above the live block, it is printed for good. */
  settle(index: number, mark: string, text: string): void {
    this.settled[index] = true;
    this.set(index, mark, text);
    this.schedule();
  }

  /** Draws the final state and leaves it on screen; later writes go below it. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.lines.length > 0) this.draw();
    if (this.drawn > 0) this.out.write(SHOW_CURSOR);
  }

  private compose(mark: string, text: string): string {
    // A wrapped line would break the cursor-up count, so every line fits the width in cells: the
    // mark, a space, the text, and the last column left free.
    const room = Math.max(this.size.columns - this.cells.width(mark) - 2, 10);
    return `${this.paint(mark)} ${this.cells.fit(safeText(text), room)}`;
  }

  /** Redraws at most every REDRAW_MS: byte counters change far faster than a person reads. */
  private schedule(): void {
    if (this.finished || this.timer) return;
    const wait = Math.max(0, REDRAW_MS - (Date.now() - this.lastDraw));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, wait);
  }

  private draw(): void {
    // One row stays free for the cursor; the last draw may be as tall as it likes (nothing redraws it).
    const rows = this.finished ? Infinity : Math.max((this.size.rows ?? Infinity) - 1, 1);
    const printedBefore = this.top;
    while (this.lines.length - this.top > rows && this.settled[this.top]) this.top++;
    const waiting = this.lines.length - this.top - rows;
    const live = waiting > 0 ? this.lines.slice(this.top, this.top + rows - 1) : this.lines.slice(this.top);
    if (waiting > 0) live.push(`  … ${waiting + 1} more`);
    // The block is rewritten from its old top: the lines printed for good now come first, in place.
    const text = [...this.lines.slice(printedBefore, this.top), ...live].map((line) => `\r\u001b[2K${line}\n`).join('');
    this.out.write(`${this.drawn === 0 ? HIDE_CURSOR : `\u001b[${this.drawn}A`}${text}`);
    this.drawn = live.length;
    this.lastDraw = Date.now();
  }
}

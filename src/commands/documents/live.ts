// A block of status lines on a terminal's stderr, one per file, redrawn in place as they change.
// ora animates one line; a batch needs one line per file, and redrawing N lines is a cursor-up and
// N line clears. Used only when stderr is a TTY (and not -q/--json): the caller decides.
import type { Writable } from 'node:stream';
import { safeText } from '../../lib/text.js';
import type { Cells } from '../../lib/cells.js';

const REDRAW_MS = 80;

export class LiveLines {
  private readonly lines: string[] = [];
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastDraw = 0;
  private finished = false;

  constructor(
    private readonly out: Writable,
    private readonly width: number,
    /** Widths in terminal cells: a line that wraps breaks the cursor-up count and leaves copies behind. */
    private readonly cells: Cells,
    /** Colors the mark at the start of a line (✓ green, ✗ red); identity without color. */
    private readonly paint: (mark: string) => string = (mark) => mark,
  ) {}

  /** Adds a line; returns its index for set(). */
  add(mark: string, text: string): number {
    this.lines.push(this.compose(mark, text));
    this.schedule();
    return this.lines.length - 1;
  }

  set(index: number, mark: string, text: string): void {
    const line = this.compose(mark, text);
    if (this.lines[index] === line) return;
    this.lines[index] = line;
    this.schedule();
  }

  /** Draws the final state and leaves it on screen; later writes go below it. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.lines.length > 0) this.draw();
    if (this.drawn > 0) this.out.write('\u001b[?25h');
  }

  private compose(mark: string, text: string): string {
    // A wrapped line would break the cursor-up count, so every line fits the width in cells: the
    // mark, a space, the text, and the last column left free.
    const room = Math.max(this.width - this.cells.width(mark) - 2, 10);
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
    let text = this.drawn === 0 ? '\u001b[?25l' : `\u001b[${this.drawn}A`;
    for (const line of this.lines) text += `\r\u001b[2K${line}\n`;
    this.out.write(text);
    this.drawn = this.lines.length;
    this.lastDraw = Date.now();
  }
}

// What a roll-up, total or check had to leave out, each named (the statement; the line and column
// of a cell): the command still prints what it could, then these make it exit 8 (IncompleteAnswerError),
// and an MCP answer carries them in `incomplete`. A huge export full of unreadable cells keeps the
// first KEPT names and counts the rest.
import { IncompleteAnswerError } from '../../lib/errors.js';

const KEPT = 1_000;

export class Incomplete {
  private readonly kept: string[] = [];
  private readonly named = new Set<string>();
  private more = 0;

  /** Names one problem; one already named is not named again (a statement read for two sides of a report). */
  add(problem: string): void {
    if (this.named.has(problem)) return;
    if (this.kept.length < KEPT) {
      this.kept.push(problem);
      this.named.add(problem);
    } else this.more++;
  }

  /** An amount that cannot be read: where it is, and what it says (`shown`, as shownValue or readAmount shows it). */
  unreadable(where: { statement: string | number; column: string; line?: number }, shown: string): void {
    const at = where.line === undefined ? '' : ` line ${where.line}`;
    this.add(`statement ${where.statement}${at}: ${where.column} ${shown} is not an amount`);
  }

  get count(): number {
    return this.kept.length + this.more;
  }

  /** The named problems, and a line counting those past the first KEPT. */
  list(): string[] {
    return this.more > 0 ? [...this.kept, `… and ${this.more.toLocaleString('en-US')} more`] : [...this.kept];
  }

  /** Throws the error that makes the command exit 8, when anything was left out. */
  throwIfAny(message?: string): void {
    if (this.count > 0) throw new IncompleteAnswerError(this.list(), message, this.count);
  }
}

// One statement's side of `pds statements check`: the amounts its financials state (read by the one
// rule, amount.ts), its lines summed per column and per currency, and the comparison of the two,
// which says "not checkable" (with the reason) whenever it cannot compare like with like.
import { createHash, type Hash } from 'node:crypto';
import { readDecimal, readField, shownValue } from '../../lib/money/amount.js';
import { difference, ExactSum } from '../../lib/money/exact-sum.js';
import { roleOf } from './columns.js';
import type { Finding } from './findings.js';
import { currencyCode, currencyOfStatement, NO_CURRENCY, type Processed } from './select.js';
import { AMOUNTS } from './financials.js';

/** The financials' fields that are not amounts whatever their name. */
const NOT_AMOUNTS = new Set(['currency', 'period']);

/** The amounts a statement's financials state, by column; or why they cannot be compared. */
export function statedAmounts(s: Processed): { amounts: Map<string, string>; problem?: string } {
  const amounts = new Map<string, string>();
  const unreadable: string[] = [];
  for (const field of Object.keys(s.financials)) {
    const name = field.toLowerCase();
    if (NOT_AMOUNTS.has(name)) continue;
    if (!(AMOUNTS as readonly string[]).includes(name) && roleOf(name) !== 'amount') continue;
    const amount = readField(s.financials, field);
    if (amount.kind === 'amount') amounts.set(name, amount.decimal);
    else if (amount.kind === 'unreadable') unreadable.push(`${name} ${amount.shown}`);
  }
  if (unreadable.length > 0) return { amounts, problem: `its financials' ${unreadable.join(', ')}: not an amount` };
  if (amounts.size === 0) return { amounts, problem: 'its financials state no amount' };
  return { amounts };
}

/** The lines of one statement as the check reads them. */
export class LinesOfStatement {
  /** Sums per currency (NO_CURRENCY: a cell not a code), then per column. */
  readonly sums = new Map<string, Map<string, ExactSum>>();
  /** The total columns the export has, and where. */
  readonly columns: [name: string, index: number][];
  /** The first cell that could not be read, and how many there were. */
  unreadable: { line: number; column: string; value: string } | undefined;
  unreadableCount = 0;
  /** A digest of the rows (their cells, in order): two statements with other lines are no duplicates. */
  digest: string | undefined;
  /** Why the export could not be read whole (no export, a failure mid-read, a row left out). */
  failure: string | undefined;
  private readonly hash: Hash = createHash('sha256');
  private readonly currencyAt: number;
  private rows = 0;

  constructor(
    readonly statement: Processed,
    header: string[],
  ) {
    const names = header.map((name) => name.trim().toLowerCase());
    const stated = statedAmounts(statement).amounts;
    this.columns = [...stated.keys()]
      .map((name) => [name, names.indexOf(name)] as [string, number])
      .filter(([, at]) => at >= 0);
    this.currencyAt = names.indexOf('currency');
    this.hash.update(names.join('\u001f'));
  }

  static failed(statement: Processed, message: string): LinesOfStatement {
    const lines = new LinesOfStatement(statement, []);
    lines.fail(message);
    return lines;
  }

  /** The lines could not be read whole: nothing of them is compared. */
  fail(message: string): void {
    this.failure = message;
    this.digest = undefined;
  }

  add(row: string[], line?: number): void {
    this.rows++;
    this.hash.update(`\u001e${row.join('\u001f')}`);
    const cell = this.currencyAt < 0 ? '' : (row[this.currencyAt] ?? '');
    const currency = cell.trim() === '' ? currencyOfStatement(this.statement) : currencyCode(cell);
    let own = this.sums.get(currency);
    if (own === undefined) {
      own = new Map(this.columns.map(([name]) => [name, new ExactSum()]));
      this.sums.set(currency, own);
    }
    for (const [name, at] of this.columns) {
      const value = row[at] ?? '';
      if (value === '') continue;
      const decimal = readDecimal(value);
      if (decimal !== undefined) own.get(name)?.addPlain(decimal);
      else {
        this.unreadableCount++;
        this.unreadable ??= { line: line ?? this.rows + 1, column: name, value };
      }
    }
  }

  finish(): void {
    if (this.failure === undefined) this.digest = this.hash.digest('hex');
  }
}

/** Why the lines cannot be compared with the financials, if they cannot. */
function whyNotComparable(s: Processed, lines: LinesOfStatement | undefined): string | undefined {
  const stated = statedAmounts(s);
  if (stated.problem !== undefined) return stated.problem;
  if (lines === undefined) return 'its lines were not read';
  if (lines.failure !== undefined) return lines.failure;
  if (lines.columns.length === 0)
    return `its lines have no column named as a total (${[...stated.amounts.keys()].join(', ')})`;
  if (lines.unreadable !== undefined) {
    const { line, column, value } = lines.unreadable;
    const more = lines.unreadableCount - 1;
    return `line ${line}: ${column} ${shownValue(value)} is not an amount${more > 0 ? ` (and ${more} more)` : ''}`;
  }
  const own = currencyOfStatement(s);
  const currencies = [...lines.sums.keys()];
  if (currencies.length > 1 || (currencies.length === 1 && currencies[0] !== own && own !== NO_CURRENCY)) {
    const named = currencies.map((c) => c || 'no currency').join(', ');
    return `its lines are in ${named}, its financials in ${own || 'no currency'}: amounts are never added across currencies`;
  }
  return undefined;
}

/** The findings of one statement: not checkable (why), or each total its lines disagree with. */
export function compareStatement(s: Processed, lines: LinesOfStatement | undefined): Finding[] {
  const why = whyNotComparable(s, lines);
  if (why !== undefined || lines === undefined) return [{ check: 'not checkable', statement: s.id, reason: why ?? '' }];
  const [currency = currencyOfStatement(s), sums] = [...lines.sums][0] ?? [];
  const findings: Finding[] = [];
  for (const [name, value] of statedAmounts(s).amounts) {
    if (!lines.columns.some(([column]) => column === name)) continue;
    const summed = sums?.get(name) ?? new ExactSum();
    const stated = new ExactSum();
    stated.addPlain(value);
    const gap = difference(summed, stated);
    if (/^-?0(\.0+)?$/.test(gap)) continue;
    const scale = Math.max(summed.digits, stated.digits);
    findings.push({
      check: 'lines',
      statement: s.id,
      currency,
      column: name,
      financials: stated.atScale(scale),
      lines: summed.atScale(scale),
      difference: gap,
    });
  }
  return findings;
}

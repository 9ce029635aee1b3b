// What `pds statements check` says, as a person reads it: one sentence a finding, money grouped and
// with its currency, and a last line that counts what was checked. On a terminal each sentence wraps
// at word boundaries to the width, its later lines indented under it; a pipe gets one line each.
import { loadCells } from '../../lib/output/cells.js';
import { wrapProse } from '../../lib/output/table-layout.js';
import { safeText } from '../../lib/output/text.js';
import { type CheckResult, fails, type Finding } from './findings.js';

/** `15895.45` as `15,895.45`: grouped, every digit kept (an exact difference is never rounded). */
function grouped(decimal: string): string {
  const [whole = '', fraction] = decimal.split('.');
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}

const plural = (count: number, noun: string, nouns = `${noun}s`): string =>
  `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;

/** One finding as a sentence. */
export function findingText(f: Finding): string {
  switch (f.check) {
    case 'lines': {
      const money = (amount: string) => `${grouped(amount)} ${f.currency}`;
      const column = f.column.replace(/_/g, ' ');
      return `statement ${f.statement}: lines add up to ${money(f.lines)} of ${column}, financials say ${money(f.financials)} (difference ${money(f.difference)})`;
    }
    case 'not checkable':
      return `note: statement ${f.statement} is not checkable (${f.reason})`;
    case 'duplicate':
      return `statements ${f.statements.join(', ')}: likely duplicates (${f.reason})`;
    case 'gap':
      return `note: payor ${f.payor} has no statement for ${f.missing.join(', ')} (between ${f.from} and ${f.to})`;
  }
}

/**
 * The last line: how many statements were compared of those chosen, and what came of it; gaps are
 * counted, and listed only with --gaps.
 */
export function summaryText(result: CheckResult, listsGaps: boolean): string {
  const { findings, checked, chosen } = result;
  const failing = findings.filter(fails).length;
  const unchecked = findings.filter((f) => f.check === 'not checkable').length;
  const gaps = findings.filter((f) => f.check === 'gap').length;
  const notes = [
    ...(unchecked > 0 ? [`${unchecked} not checkable`] : []),
    ...(gaps > 0 ? [`${plural(gaps, 'payor')} with a missing period${listsGaps ? '' : ' (--gaps lists them)'}`] : []),
  ].join(', ');
  const outcome =
    failing > 0
      ? `${failing} disagree${failing === 1 ? 's' : ''}`
      : checked > 0
        ? 'lines agree with financials, no duplicates'
        : 'nothing compared';
  return `checked ${checked.toLocaleString('en-US')} of ${plural(chosen, 'statement')}: ${outcome}${notes ? `; ${notes}` : ''}`;
}

/** The findings and the summary, each wrapped to `width` cells when a terminal is read (else whole). */
export async function checkText(lines: string[], width: number | undefined): Promise<string> {
  const cells = width === undefined ? undefined : await loadCells();
  // An amount and its currency stay on one line.
  const held = (line: string) => line.replace(/(\d) ([A-Z]{3})\b/g, '$1\u00a0$2');
  return lines
    .map(safeText)
    .flatMap((line) =>
      cells === undefined || width === undefined ? [line] : wrapProse(cells, held(line), width, '  '),
    )
    .map((line) => `${line}\n`)
    .join('');
}

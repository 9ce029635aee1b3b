// `pds statements check` as a CI gate: under GITHUB_ACTIONS=true each finding that fails the
// check becomes one `::error` annotation naming the statement, its payor, its period and the
// difference (the first FILE_ANNOTATIONS of them: GitHub shows 10 a step, the command's own closing
// annotation counts the rest), and the step summary gets a table of every finding. The closing
// annotation's hint (failure.ts) points at the statements, not at the network.
import { appendFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { writeWorkflowCommands } from '../io.js';
import { escapeCommandData, escapeCommandProperty, FILE_ANNOTATIONS, markdownText, noteAnnotations } from './report.js';
import { safeText } from '../output/text.js';

/** One finding of the check as the job page shows it (built by the check from its findings). */
export interface CheckRow {
  /** `statement 40005`, `statements 40001, 40023`. */
  subject: string;
  payor: string | undefined;
  period: string | undefined;
  /** `lines`, `duplicate`, `not checkable`, `gap`. */
  check: string;
  /** The exact difference (lines minus financials) with its currency, where there is one. */
  difference: string | undefined;
  /** The finding in one sentence, as the log says it. */
  text: string;
  /** A failing finding (annotated); the others are in the summary only. */
  fails: boolean;
}

export const CHECK_HINT =
  'the annotations and the step summary name each statement that disagrees with its financials or repeats another: correct it in the service (or upload it again), then re-run the job';

/** The annotation lines: one per failing finding, the first FILE_ANNOTATIONS of them. */
export function checkAnnotations(rows: readonly CheckRow[]): string {
  return rows
    .filter((row) => row.fails)
    .slice(0, FILE_ANNOTATIONS)
    .map((row) => {
      const where = [row.payor && `payor ${row.payor}`, row.period].filter(Boolean).join(', ');
      const title = `${row.subject}${where ? ` (${where})` : ''}: ${row.check === 'lines' ? 'lines disagree' : row.check}`;
      return `::error title=${escapeCommandProperty(safeText(title))}::${escapeCommandData(safeText(row.text))}\n`;
    })
    .join('');
}

/** The step summary: every finding, the failing ones first, with payor, period and difference. */
export function checkSummary(statements: number, rows: readonly CheckRow[]): string {
  const failing = rows.filter((row) => row.fails).length;
  const head = `### pds statements check: ${failing === 0 ? 'all agree' : `${failing} failing`} (${statements} statement${statements === 1 ? '' : 's'})`;
  const lines = [head, ''];
  if (rows.length > 0) {
    lines.push(
      '| Statement | Payor | Period | Check | Difference | Finding |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const row of [...rows.filter((r) => r.fails), ...rows.filter((r) => !r.fails)]) {
      const cells = [row.subject, row.payor, row.period, row.check, row.difference, row.text];
      lines.push(`| ${cells.map((cell) => markdownText(cell)).join(' | ')} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Under GitHub Actions: the annotations (to `stdout`, or stderr when it carries data), the step
 * summary, and the note the closing annotation reads (how many went without one, and the hint).
 */
export async function reportCheckToCi(
  env: NodeJS.ProcessEnv,
  stdout: Writable,
  statements: number,
  rows: readonly CheckRow[],
): Promise<void> {
  if (env.GITHUB_ACTIONS !== 'true') return;
  const failing = rows.filter((row) => row.fails).length;
  await writeWorkflowCommands(stdout, checkAnnotations(rows));
  noteAnnotations(stdout, { more: Math.max(0, failing - FILE_ANNOTATIONS), hint: CHECK_HINT, items: 'finding' });
  // The runner's own file, appended to (report.ts); a failure to write it is not the check's.
  if (env.GITHUB_STEP_SUMMARY)
    await appendFile(env.GITHUB_STEP_SUMMARY, checkSummary(statements, rows)).catch(() => undefined);
}

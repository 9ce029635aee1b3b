// `pds statements check [--all | ids…]`: does each processed statement's lines export add up to its
// financials (for the totals the export has a column of, by name; a statement with none is "not
// checkable", never ok), is any statement a likely duplicate of another, and is any period of a
// payor missing between its first and last (said, not failed)? Exit 1 listing what disagrees; 0
// with one line.
import type { Context } from '../../lib/context.js';
import { difference, ExactSum } from '../../lib/money/exact-sum.js';
import { UsageError } from '../../lib/errors.js';
import { checkText, findingText, summaryText } from './check-view.js';
import { reportCheckToGitHub } from './check-ci.js';
import { readExports } from './exports.js';
import { duplicates, gaps, type Finding } from './findings.js';
import { withProgress } from './progress.js';
import { checkChoice, sayPending, selectStatements, type Processed } from './select.js';
import type { CheckOptions } from './definitions.js';

/** The financials that are amounts (what lines can add up to). */
const amountsOf = (s: Processed): [string, string][] =>
  Object.entries(s.financials)
    .filter(([, value]) => typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)))
    .map(([name, value]) => [name.toLowerCase(), String(value)]);

/** Each statement's lines summed in the columns its financials name; else why they could not be. */
async function sumLines(
  ctx: Context,
  statements: readonly Processed[],
  where: { projectId?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<Map<string | number, Map<string, ExactSum> | string>> {
  const sums = new Map<string | number, Map<string, ExactSum> | string>();
  const problems = await withProgress(ctx, (update) =>
    readExports(
      ctx,
      statements,
      {
        header: (statement, header) => {
          const names = header.map((name) => name.trim().toLowerCase());
          const columns = amountsOf(statement)
            .map(([name]) => [name, names.indexOf(name)] as const)
            .filter(([, at]) => at >= 0);
          if (columns.length === 0) {
            sums.set(statement.id, 'its lines have no column named as a total');
            return () => undefined;
          }
          const own = new Map(columns.map(([name]) => [name, new ExactSum()]));
          sums.set(statement.id, own);
          return (row) => {
            for (const [name, at] of columns) own.get(name)?.add(row[at] ?? '');
          };
        },
      },
      { onProgress: update, ...where },
    ),
  );
  // A statement whose export was not read whole cannot be said to agree or disagree.
  for (const problem of problems) {
    const said = sums.get(problem.statement);
    if (typeof said !== 'string' || !said.startsWith('its export was not read whole'))
      sums.set(problem.statement, `its export was not read whole: ${problem.text}`);
  }
  return sums;
}

/** What disagrees between lines and financials, and what could not be checked. */
function sumFindings(
  statements: readonly Processed[],
  sums: Map<string | number, Map<string, ExactSum> | string>,
): Finding[] {
  const findings: Finding[] = [];
  for (const s of statements) {
    const own = sums.get(s.id);
    if (own === undefined || typeof own === 'string') {
      findings.push({ check: 'not checkable', statement: s.id, reason: own ?? 'its export was not read' });
      continue;
    }
    for (const [name, value] of amountsOf(s)) {
      const lines = own.get(name);
      if (lines === undefined) continue;
      const stated = new ExactSum();
      stated.add(value);
      const gap = difference(lines, stated);
      if (/^-?0(\.0+)?$/.test(gap)) continue;
      const scale = Math.max(lines.digits, stated.digits);
      findings.push({
        check: 'lines',
        statement: s.id,
        currency: s.financials.currency,
        column: name,
        financials: stated.atScale(scale),
        lines: lines.atScale(scale),
        difference: gap,
      });
    }
  }
  return findings;
}

/** Everything the check finds in these statements, what fails first. */
export async function checkStatements(
  ctx: Context,
  statements: readonly Processed[],
  where: { projectId?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<Finding[]> {
  const sums = await sumLines(ctx, statements, where);
  const findings = [...sumFindings(statements, sums), ...duplicates(statements), ...gaps(statements)];
  return [...findings.filter(fails), ...findings.filter((f) => !fails(f))];
}

/** Gaps and statements without a total column are said, not failed: a payor may skip a period. */
export const fails = (f: Finding): boolean => f.check === 'lines' || f.check === 'duplicate';

export async function run(opts: CheckOptions, ctx: Context): Promise<number> {
  const given = { ...opts, args: opts.args[0] ?? [] };
  if (opts.all !== true && given.args.length === 0) throw new UsageError('give statement ids, or --all');
  const ids = checkChoice(given, 'check');
  const selection = await selectStatements(ctx, given, ids);
  const statements = selection.processed;
  const findings = await checkStatements(ctx, statements);
  const failing = findings.filter(fails);
  if (!(await ctx.output.asData(findings))) {
    const said = [...findings.map(findingText), summaryText(statements.length, findings, failing.length)];
    ctx.output.write(await checkText(said, ctx.io.stdoutIsTTY ? ctx.io.columns : undefined));
  }
  await reportCheckToGitHub(ctx, statements, findings);
  await sayPending(ctx, selection);
  return failing.length === 0 ? 0 : 1;
}

// `pds statements check [--all | ids…]`: does each processed statement's lines export add up to its
// financials, in the statement's currency (for the totals the export has a column of, by name), is
// any statement a likely duplicate of another (judged on the lines' content, which pds reads), and,
// with --gaps, is any period of a payor missing between its first and last? It passes only for what
// it compared: a disagreement or a duplicate exits 1; a statement it could not check (still
// processing, no export, an amount it cannot read, lines in another currency, no total column) or
// nothing to check at all exits 8; each is named.
import type { Context } from '../../lib/context.js';
import {
  ForbiddenError,
  AuthError,
  IncompleteAnswerError,
  InterruptedError,
  PdsError,
  RateLimitError,
  UsageError,
} from '../../lib/errors.js';
import { checkText, findingText, summaryText } from './check-view.js';
import { reportCheckToGitHub } from './check-ci.js';
import { readExports } from './exports.js';
import { type CheckResult, duplicates, fails, gaps, notWhole, type Finding } from './findings.js';
import { withProgress } from './progress.js';
import { checkChoice, pendingReason, selectStatements, type Processed, type Selection } from './select.js';
import { compareStatement, LinesOfStatement, statedAmounts } from './check-lines.js';
import type { CheckOptions } from './definitions.js';

/** A failure reading one statement's export that ends its check, not the whole run. */
const endsOneStatement = (error: unknown): error is PdsError =>
  error instanceof PdsError &&
  !(error instanceof InterruptedError) &&
  !(error instanceof AuthError) &&
  !(error instanceof ForbiddenError) &&
  !(error instanceof RateLimitError);

/** Each statement's lines, read (its sums per column and currency, its content's digest). */
async function readLines(
  ctx: Context,
  statements: readonly Processed[],
  where: { projectId?: string | undefined; signal?: AbortSignal | undefined },
): Promise<Map<string | number, LinesOfStatement>> {
  const read = new Map<string | number, LinesOfStatement>();
  const problems = await withProgress(ctx, (update) =>
    readExports(
      ctx,
      statements,
      {
        header: (statement, header) => {
          const lines = new LinesOfStatement(statement, header);
          read.set(statement.id, lines);
          return (row, line) => lines.add(row, line);
        },
        done: (statement) => read.get(statement.id)?.finish(),
      },
      {
        onProgress: update,
        ...where,
        notRead: (statement, error) => {
          if (!endsOneStatement(error)) return false;
          read.set(statement.id, LinesOfStatement.failed(statement, `its lines could not be read: ${error.message}`));
          return true;
        },
      },
    ),
  );
  // A statement whose export was not read whole (a ragged row, a header refused) cannot be said to agree.
  for (const problem of problems) {
    const lines = read.get(problem.statement);
    if (lines?.failure !== undefined) continue;
    const statement = statements.find((s) => s.id === problem.statement);
    if (lines !== undefined) lines.fail(`its export was not read whole: ${problem.text}`);
    else if (statement !== undefined)
      read.set(problem.statement, LinesOfStatement.failed(statement, `its export was not read whole: ${problem.text}`));
  }
  return read;
}

/** Everything the check finds in these statements, failures first. */
export async function checkStatements(
  ctx: Context,
  selection: Selection,
  where: { projectId?: string | undefined; signal?: AbortSignal | undefined; gaps?: boolean } = {},
): Promise<CheckResult> {
  const statements = selection.processed;
  // A statement whose financials hold no amount it can read is not worth fetching the lines of.
  const readable = statements.filter((s) => statedAmounts(s).problem === undefined);
  const lines = await readLines(ctx, readable, where);
  const compared: Finding[] = [];
  let checked = 0;
  for (const s of statements) {
    const found = compareStatement(s, lines.get(s.id));
    if (found.every((f) => f.check !== 'not checkable')) checked++;
    compared.push(...found);
  }
  const processing: Finding[] = selection.pending.map((s) => ({
    check: 'not checkable',
    statement: s.id,
    reason: pendingReason(s),
  }));
  const digests = new Map([...lines].map(([id, read]) => [id, read.digest]));
  const findings = [
    ...compared,
    ...processing,
    ...duplicates(statements, digests),
    ...gaps(statements, selection.pending),
  ];
  const order = (f: Finding) => (fails(f) ? 0 : f.check === 'not checkable' ? 1 : 2);
  return {
    findings: findings.sort((a, b) => order(a) - order(b)),
    checked,
    chosen: statements.length + selection.pending.length,
  };
}

export async function run(opts: CheckOptions, ctx: Context): Promise<number> {
  const given = { ...opts, args: opts.args[0] ?? [] };
  if (opts.all !== true && given.args.length === 0) throw new UsageError('give statement ids, or --all');
  const ids = checkChoice(given, 'check');
  const selection = await selectStatements(ctx, given, ids);
  const result = await checkStatements(ctx, selection, { gaps: opts.gaps === true });
  const listsGaps = opts.gaps === true;
  const shown = listsGaps ? result.findings : result.findings.filter((f) => f.check !== 'gap');
  if (!(await ctx.output.asData(shown))) {
    const said = [...shown.map(findingText), summaryText(result, listsGaps)];
    ctx.output.write(await checkText(said, ctx.io.stdoutIsTTY ? ctx.io.columns : undefined));
  }
  await reportCheckToGitHub(ctx, selection.processed, shown);
  if (result.findings.some(fails)) return 1;
  const problems = notWhole(result);
  if (problems.length > 0) throw new IncompleteAnswerError(problems);
  return 0;
}

// `pds statements check` under GitHub Actions: each finding as the job page shows it (which
// statement, its payor and period, the difference), handed to lib/ci/check-report.ts for the
// annotations and the step summary.
import type { Context } from '../../lib/context.js';
import type { CheckRow } from '../../lib/ci/check-report.js';
import { findingText } from './check-view.js';
import { fails, type Finding } from './findings.js';
import { payorOf, periodOfStatement, type Processed } from './select.js';

/** A finding as the job page shows it. */
function ciRow(f: Finding, statements: readonly Processed[]): CheckRow {
  const byId = (id: string | number) => statements.find((s) => String(s.id) === String(id));
  const first = byId(f.check === 'duplicate' ? (f.statements[0] ?? '') : f.check === 'gap' ? '' : f.statement);
  const row = {
    payor: first && payorOf(first),
    period: first && periodOfStatement(first),
    check: f.check,
    text: findingText(f),
    fails: fails(f),
    difference: undefined,
  };
  switch (f.check) {
    case 'lines':
      return { ...row, subject: `statement ${f.statement}`, difference: `${f.difference} ${f.currency}` };
    case 'not checkable':
      return { ...row, subject: `statement ${f.statement}` };
    case 'duplicate':
      return { ...row, subject: `statements ${f.statements.join(', ')}` };
    case 'gap':
      return { ...row, subject: `payor ${f.payor}`, payor: f.payor, period: f.missing.join(', ') };
  }
}

/** Under GITHUB_ACTIONS=true: the check's annotations and step summary. */
export async function reportCheckToGitHub(
  ctx: Context,
  statements: readonly Processed[],
  findings: readonly Finding[],
): Promise<void> {
  if (ctx.env.GITHUB_ACTIONS !== 'true') return;
  const { reportCheckToCi } = await import('../../lib/ci/check-report.js');
  const rows = findings.map((finding) => ciRow(finding, statements));
  await reportCheckToCi(ctx.env, ctx.io.stdout, statements.length, rows);
}

// A command that fails as a whole under GitHub Actions (a wrong token, no access, the service down,
// bad usage, a cancelled job) leaves what a job page shows: one `::error` annotation with what to
// change in the workflow (the secret to set, the input to fix), a step summary, and the outputs it
// can (`exit-code`, `error`).
import { appendFile } from 'node:fs/promises';
import type { IO } from '../io.js';
import { wroteWorkflowCommands, writeWorkflowCommands } from '../io.js';
import { ExitCode, STOP_SIGNALS } from '../errors.js';
import type { ErrorReport } from '../error-report.js';
import {
  annotationNote,
  escapeCommandData,
  escapeCommandProperty,
  markdownText,
  withoutDesktopHints,
} from './report.js';
import { safeLines, safeText } from '../output/text.js';

const CANCELLED =
  'the job was cancelled (or timed out): uploads that arrived go on processing; a re-run with skip-existing sends the rest';

/** What to change in the workflow, by the failure's exit code. */
const CI_HINTS: Readonly<Record<number, string>> = {
  [ExitCode.usage]: "fix the step's inputs (files, kind, project, args): the message says which",
  [ExitCode.unauthenticated]:
    'set the repository secret that holds the API token (e.g. PDS_TOKEN) and pass it as the `token` input (env PDS_TOKEN)',
  [ExitCode.forbidden]:
    'the token has no access to this project: check the `project` input (PDS_PROJECT), or use a token of its organization',
  [ExitCode.notFound]: 'check the ids and the `project` input (PDS_PROJECT)',
  [ExitCode.rateLimited]:
    'the service kept refusing with its rate limit: lower the `concurrency` input, or allow a longer wait (`args: --retry-budget 5m`)',
  [ExitCode.processingFailed]:
    'the service could not process a file, or a file is paused (a quota): the annotations and the summary say which and why; fix the file, or wait for the quota, and re-run the job',
  [ExitCode.incomplete]:
    'the answer is not whole: pds left out what it could not read or check (the message says what); a statement still processing is checked once it completed, so re-run the job then',
  [STOP_SIGNALS.SIGTERM]: CANCELLED,
  [STOP_SIGNALS.SIGHUP]: CANCELLED,
  [STOP_SIGNALS.SIGINT]: CANCELLED,
};

/** What to change in the workflow for a failure with this exit code. */
export function ciHint(code: number): string {
  return CI_HINTS[code] ?? 'check the `api-url` input (PDS_API_URL) and that the service is up; a re-run may pass';
}

const FILES_FAILED = 'the annotations name the files that failed: fix them (or the inputs) and re-run the job';

/**
 * Under GITHUB_ACTIONS, for a run that exits `code` (not 0): one annotation for the command, with
 * the error and what to change in the workflow, a step summary and outputs. After a batch that
 * annotated its own files, the command's annotation and summary say only the exit and the hint.
 */
export async function reportFailureToCi(
  io: IO,
  env: NodeJS.ProcessEnv,
  command: string,
  code: number,
  failure: ErrorReport | undefined,
): Promise<void> {
  if (env.GITHUB_ACTIONS !== 'true' || code === ExitCode.ok) return;
  const annotated = wroteWorkflowCommands(io.stdout);
  const own = annotated ? undefined : failure;
  const title = `${command} failed (exit ${code})`;
  const note = annotated ? annotationNote(io.stdout) : undefined;
  // A batch whose files failed alike for a reason of the workflow (token, access, rate limit, a
  // stop) gets that hint; one with files that failed for their own reasons points to them; a
  // command that annotated what it found (a check) gives its own.
  const hint =
    note?.hint && code === ExitCode.failure
      ? note.hint
      : annotated && code === ExitCode.usage
        ? FILES_FAILED
        : annotated && code === ExitCode.failure
          ? `${FILES_FAILED}; if all failed alike, ${ciHint(code)}`
          : ciHint(code);
  // Past GitHub's 10 annotations a step, what went without one is counted here.
  const more = note?.more ?? 0;
  const moreLine =
    more > 0
      ? [
          `${more} more failed ${note?.items ?? 'file'}${more === 1 ? '' : 's'} without an annotation: the step summary lists every one`,
        ]
      : [];
  const lines = [...(own ? [own.message, ...withoutDesktopHints(own.details)] : []), ...moreLine, `in CI: ${hint}`];
  await writeWorkflowCommands(
    io.stdout,
    `::error title=${escapeCommandProperty(title)}::${escapeCommandData(safeLines(lines.join('\n')))}\n`,
  );
  // Files of the runner's (see writeBatchReports): appended to, and a failure to write one is not
  // this run's failure, which is already said.
  const writes: Promise<void>[] = [];
  if (env.GITHUB_STEP_SUMMARY) {
    const details = own ? withoutDesktopHints(own.details) : [];
    const said = own ? [markdownText(own.message), '', ...details.map((line) => `- ${markdownText(line)}`)] : [];
    const summary = [`### ${title}`, '', ...said, '', ...moreLine, '', `**In CI:** ${markdownText(hint)}`, '', ''].join(
      '\n',
    );
    writes.push(appendFile(env.GITHUB_STEP_SUMMARY, summary.replace(/\n{3,}/g, '\n\n')));
  }
  if (env.GITHUB_OUTPUT) {
    // A batch names its first failed file and why; a command that failed as a whole, its error.
    const error = safeText(failure?.message ?? note?.first ?? title).replace(/[\r\n]/g, ' ');
    writes.push(appendFile(env.GITHUB_OUTPUT, `exit-code=${code}\nerror=${error}\n`));
  }
  await Promise.allSettled(writes);
}

/** `pds upload statement`: the words of the command line before its first option or argument past the verb. */
export function commandName(argv: readonly string[]): string {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  return ['pds', ...words].join(' ');
}

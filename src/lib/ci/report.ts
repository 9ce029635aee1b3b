// What a batch says to the machines that run it: GitHub Actions' workflow commands, step summary and
// step outputs (when GITHUB_ACTIONS=true), and the JUnit XML and JSON report files other CI systems
// read. File names and messages come from the user's disk and from the service: each format's own
// escaping is applied, so no name or message can end a line and start a command of its own.
import { lstatSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { relative, resolve, sep } from 'node:path';
import { PdsError, UsageError } from '../errors.js';
import { writeWorkflowCommands } from '../io.js';
import { writeReplacing } from '../config/private-files.js';
import { safeLines, safeText } from '../output/text.js';

export type Outcome =
  | 'uploaded'
  | 'processed'
  | 'processing failed'
  | 'skipped'
  | 'failed'
  | 'would upload'
  | 'would skip'
  | 'would fail';

/** One file's line in every report. */
export interface FileReport {
  /** As given: a path, or `-` for stdin. */
  path: string;
  outcome: Outcome;
  /** `staging id 45`, `statement 123`. */
  record?: string;
  /** The staging id of an upload, for the step outputs. */
  stagingId?: string;
  /** The id of the statement or contract its processing made (--wait). */
  resultId?: string;
  /** Why it failed or was skipped; further lines are details. */
  reason?: string;
  /** Failed because a stop (--fail-fast, a signal) came before it started: the stop's own annotation says why. */
  notStarted?: boolean;
  ms?: number;
}

/** The batch's counts; `failed` counts every file that failed, in its upload or (--wait) its processing. */
export interface Counts {
  uploaded: number;
  skipped: number;
  failed: number;
  /** With --wait: how many completed processing, and how many failed it. */
  processed?: number;
  processingFailed?: number;
}

/** A file that failed: its upload or local check, or (uploaded, with --wait) its processing. */
function isFailure(file: FileReport): boolean {
  return (
    file.outcome === 'failed' ||
    file.outcome === 'would fail' ||
    file.outcome === 'processing failed' ||
    ((file.outcome === 'uploaded' || file.outcome === 'processed') && file.reason !== undefined)
  );
}

/** A failure with an annotation of its own: a file a stop left unstarted has the stop's. */
const annotated = (file: FileReport): boolean => isFailure(file) && file.notStarted !== true;

/** Not sent, and no failure: the JUnit `skipped` cases. */
const isSkip = (file: FileReport): boolean => file.outcome === 'skipped' || file.outcome === 'would skip';

/** `%`, CR and LF in a workflow command's message (the runner decodes them back). */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * A property value also loses `:` and `,`, which end it. Control characters other than CR and LF
 * (ESC, BEL…) and the bidi controls are left out: GitHub shows a property as it is, where they
 * would redraw the log or reorder the name.
 */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(
    text.replace(
      /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
      '',
    ),
  )
    .replace(/:/g, '%3A')
    .replace(/,/g, '%2C');
}

/**
 * A detail that tells a person at a desk what to run (`pds auth login`, `pds emulator start`, `pds
 * use`, `pds config set`): no step of a job can, and the CI hint says what to change instead.
 */
const DESKTOP_COMMAND = /`pds (auth login|emulator start|use|config set)\b/;

/** The lines without the desktop hints among them. */
export function withoutDesktopHints(lines: readonly string[]): string[] {
  return lines.filter((line) => !DESKTOP_COMMAND.test(line));
}

/**
 * GitHub shows at most 10 error annotations of a step: a batch annotates its first 9 failed files,
 * and the command's own annotation at the end (failure.ts) says how many more the summary lists.
 */
export const FILE_ANNOTATIONS = 9;

/** What a run's own annotations left for the command's closing one to say (failure.ts). */
export interface AnnotationNote {
  /** How many failed items went without an annotation of their own (past FILE_ANNOTATIONS). */
  more: number;
  /** `file`, `finding`: what `more` counts. */
  items: string;
  /** What to change, when the annotated items (not the workflow) are what failed. */
  hint?: string;
  /** The first item that failed and why, in one line: the step's `error` output. */
  first?: string;
}

const notes = new WeakMap<Writable, AnnotationNote>();

/** Records what the annotations written to `stream` in this run left unsaid. */
export function noteAnnotations(stream: Writable, note: AnnotationNote): void {
  notes.set(stream, note);
}

/** What the annotations written to `stream` left unsaid, if a command noted it. */
export function annotationNote(stream: Writable): AnnotationNote | undefined {
  return notes.get(stream);
}

/**
 * `::error file=…,title=pds upload::reason` for each file that failed, the first FILE_ANNOTATIONS
 * of them. The reason (the service's words, often) is shown as everywhere else, control and bidi
 * characters as escapes, and keeps its lines; the file stays the path it is, for GitHub to find the
 * file by. Both then get the runner's own escaping, so neither can end the line.
 */
export function githubAnnotations(files: readonly FileReport[], workspace: string | undefined): string {
  let out = '';
  for (const file of files.filter(annotated).slice(0, FILE_ANNOTATIONS)) {
    const properties = file.path === '-' ? [] : [`file=${escapeCommandProperty(workspacePath(file.path, workspace))}`];
    properties.push(`title=${escapeCommandProperty('pds upload')}`);
    const reason = withoutDesktopHints((file.reason ?? file.outcome).split('\n')).join('\n');
    out += `::error ${properties.join(',')}::${escapeCommandData(safeLines(reason))}\n`;
  }
  return out;
}

/** The path GitHub shows files by (annotations, summary, reports): relative to the workspace, `/`-separated. */
export function workspacePath(path: string, workspace: string | undefined): string {
  if (!workspace) return path;
  const inside = relative(workspace, resolve(path));
  return inside.startsWith('..') ? path : inside.split(sep).join('/');
}

/**
 * A Markdown table cell that reads as the text it holds: one line, no `|` to split it, and nothing
 * GitHub would render from a name or a service message: no HTML, link, image, emphasis, code, math
 * or strikethrough (each such character backslash-escaped), no bare `https://` link (its colon
 * escaped), and no @mention (an empty comment splits it from the name: GitHub finds mentions in
 * the rendered text, where an escape or an entity would read as `@` again).
 */
export function markdownText(text: string | undefined): string {
  return safeText(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]()!~$|]|:(?=\/\/)/g, (char) => `\\${char}`)
    .replace(/@/g, '@<!-- -->');
}

/** Past this many files, the summary shows the failures and folds the rest. */
const SUMMARY_OPEN_ROWS = 20;

/** The step summary: the counts, then the failures, then the other files (folded when many). */
export function stepSummary(title: string, countsLine: string, files: readonly FileReport[]): string {
  const reason = (file: FileReport) => file.reason?.split('\n')[0] ?? (isFailure(file) ? file.outcome : undefined);
  const row = (file: FileReport) =>
    `| ${markdownText(file.path)} | ${file.outcome} | ${markdownText(file.record)} | ${markdownText(reason(file))} |`;
  const table = (rows: readonly FileReport[]) =>
    rows.length === 0
      ? []
      : ['| File | Outcome | Record | Reason |', '| --- | --- | --- | --- |', ...rows.map(row), ''];
  const failures = files.filter(isFailure);
  const others = files.filter((file) => !isFailure(file));
  const lines = [`### ${title}`, '', countsLine, ''];
  if (files.length <= SUMMARY_OPEN_ROWS) lines.push(...table([...failures, ...others]));
  else {
    if (failures.length > 0) lines.push(`**${failures.length} failed**`, '', ...table(failures));
    lines.push(
      '<details>',
      `<summary>${others.length} other file${others.length === 1 ? '' : 's'}</summary>`,
      '',
      ...table(others),
      '</details>',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Ids as outputs: only characters that cannot start a line or a command. */
const idList = (ids: readonly string[]): string =>
  ids
    .map((id) => id.replace(/[^A-Za-z0-9_.-]/g, ''))
    .filter(Boolean)
    .join(',');

/**
 * `name=value` lines for $GITHUB_OUTPUT: the counts (`processed` and `processing-failed` with
 * --wait), the staging ids, and the ids of the records processing made (`statement-ids`).
 */
export function stepOutputs(
  counts: Counts,
  stagingIds: readonly string[],
  records?: { kind: string; ids: readonly string[] },
): string {
  let out = `uploaded=${counts.uploaded}\nskipped=${counts.skipped}\nfailed=${counts.failed}\n`;
  if (counts.processed !== undefined) out += `processed=${counts.processed}\n`;
  if (counts.processingFailed !== undefined) out += `processing-failed=${counts.processingFailed}\n`;
  out += `staging-ids=${idList(stagingIds)}\n`;
  if (records) out += `${records.kind}-ids=${idList(records.ids)}\n`;
  return out;
}

/** Text in XML 1.0: escaped, and the control characters it cannot hold shown as `\xNN`. */
function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;')
    .replace(/[\u0000-\u001f\ufffe\uffff]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

/** JUnit XML: one testcase per file, a failure with its reason, a skip as skipped. */
export function junitXml(suite: string, files: readonly FileReport[], totalMs: number): string {
  const failures = files.filter(isFailure).length;
  const skipped = files.filter(isSkip).length;
  const counts = `tests="${files.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(totalMs)}"`;
  const cases = files.map((file) => {
    const open = `    <testcase classname="${xml(suite)}" name="${xml(file.path)}" time="${seconds(file.ms)}"`;
    const reason = xml(file.reason ?? file.outcome);
    if (isFailure(file)) {
      return `${open}>\n      <failure message="${xml((file.reason ?? file.outcome).split('\n')[0] as string)}">${reason}</failure>\n    </testcase>`;
    }
    if (!isSkip(file)) return `${open}/>`;
    return `${open}>\n      <skipped message="${reason}"/>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pds" ${counts}>`,
    `  <testsuite name="${xml(suite)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * A report is never written through a symbolic link (a checked-out repository can commit one named
 * pds.xml that points anywhere the job may write): one at `path` is refused, exit 2. Checked before
 * anything is sent, and again when the report is written (which replaces whatever is there by a
 * rename, so a link that appears in between is replaced, not followed).
 */
export function refuseLinkedReport(path: string): void {
  let linked: boolean;
  try {
    linked = lstatSync(path).isSymbolicLink();
  } catch {
    return;
  }
  if (linked) {
    throw new UsageError(
      `refusing to write the report ${path}: it is a symbolic link, and pds does not write through one`,
      {
        details: [`remove the link (\`rm '${path}'\`), or name another file`],
      },
    );
  }
}

export interface BatchReport {
  /** `pds upload statement`: the step summary's heading and the JUnit suite. */
  title: string;
  /** `statement`: names the output of the processed records' ids (`statement-ids`). */
  kind: string;
  countsLine: string;
  counts: Counts;
  files: FileReport[];
  /** The `--json` records, for the JSON report. */
  records: unknown[];
  totalMs: number;
  reports: { format: 'junit' | 'json'; path: string }[];
  /** A dry run writes no file: only the annotations, on stdout. */
  dryRun: boolean;
}

/** The counts as the JSON report names them. */
function jsonCounts({ processingFailed, ...counts }: Counts): Record<string, number> {
  return processingFailed === undefined ? { ...counts } : { ...counts, processing_failed: processingFailed };
}

/**
 * Writes every report asked for, and under GitHub Actions its annotations (stdout), step summary
 * and outputs. A report that cannot be written is an error of the command (the CI job relies on it).
 *
 * The step summary and outputs are appended to, as the runner expects, and not replaced: their
 * paths come from the runner's environment, not from the repository, and name files the runner
 * made in its own temporary directory for this step, which other programs of the step append to
 * as well (a rename would drop their lines). Whoever could put a link there already runs code in the job.
 */
export async function writeBatchReports(env: NodeJS.ProcessEnv, stdout: Writable, report: BatchReport): Promise<void> {
  const github = env.GITHUB_ACTIONS === 'true';
  const workspace = github ? env.GITHUB_WORKSPACE : undefined;
  // Every report names a file as the job page does: relative to the workspace.
  const files = report.files.map((file) =>
    file.path === '-' ? file : { ...file, path: workspacePath(file.path, workspace) },
  );
  if (github) {
    await writeWorkflowCommands(stdout, githubAnnotations(files, undefined));
    const failed = files.filter(isFailure);
    const first = failed[0];
    noteAnnotations(stdout, {
      more: Math.max(0, failed.filter(annotated).length - FILE_ANNOTATIONS),
      items: 'file',
      ...(first
        ? {
            first: `${first.path}: ${(first.reason ?? first.outcome).split('\n')[0]}${failed.length > 1 ? ` (and ${failed.length - 1} more failed)` : ''}`,
          }
        : {}),
    });
  }
  if (report.dryRun) return;
  const writes: [string, () => Promise<void>][] = [];
  if (github && env.GITHUB_STEP_SUMMARY) {
    const path = env.GITHUB_STEP_SUMMARY;
    writes.push([path, () => appendFile(path, stepSummary(report.title, report.countsLine, files))]);
  }
  if (github && env.GITHUB_OUTPUT) {
    const path = env.GITHUB_OUTPUT;
    const stagingIds = files.flatMap((f) => (f.stagingId === undefined ? [] : [f.stagingId]));
    const resultIds = files.flatMap((f) => (f.resultId === undefined ? [] : [f.resultId]));
    const records = report.counts.processed === undefined ? undefined : { kind: report.kind, ids: resultIds };
    writes.push([path, () => appendFile(path, stepOutputs(report.counts, stagingIds, records))]);
  }
  for (const { format, path } of report.reports) {
    const records = report.records.map((record) =>
      typeof record === 'object' && record !== null && 'file' in record && typeof record.file === 'string'
        ? { ...record, file: record.file === '-' ? '-' : workspacePath(record.file, workspace) }
        : record,
    );
    const text =
      format === 'junit'
        ? junitXml(report.title, files, report.totalMs)
        : `${JSON.stringify({ ...jsonCounts(report.counts), files: records }, null, 2)}\n`;
    writes.push([
      path,
      () => {
        refuseLinkedReport(path);
        return writeReplacing(path, text, 0o666);
      },
    ]);
  }
  for (const [path, write] of writes) {
    try {
      await write();
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = typeof error === 'object' && error !== null && 'code' in error ? `: ${String(error.code)}` : '';
      throw new PdsError(`cannot write the report ${path}${code}`, { cause: error });
    }
  }
}

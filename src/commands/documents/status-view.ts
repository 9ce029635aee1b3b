// What `pds statements status` and `pds contracts status` draw on a terminal, in the manner of
// `gh run view`: a heading with what the upload became, then one line per step with its mark
// (✓ done, ✗ failed, … waiting or running, ⏸ paused) and, under a step that failed or paused, why.
// Several ids are a table, one row each with its steps joined. The marks read without color.
import type { DocumentKind, DocumentProcesses } from '../../lib/api/documents.js';
import { formatBytes } from '../../lib/output/text.js';
import type { LayoutColumn } from '../../lib/output/table-layout.js';
import { KEEP } from '../../lib/output/table-layout.js';
import { isPlainObject } from '../../lib/shape.js';
import { type Progress, shortExtraction, stagingCheck, statementRun } from './processes.js';

export type Mark = '✓' | '✗' | '…' | '⏸';

export interface Step {
  mark: Mark;
  text: string;
  /** Said after the text on a step's own line (the check's name, the result), not in a table row. */
  more?: string;
  /** Why a step failed or paused, and what to do: lines under it. */
  why: string[];
}

/** A value of the service's as a short text for a line. */
const said = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);

/** The staging check: its name and, once it passed, the size it checked. */
function checkStep(processes: DocumentProcesses, progress: Progress): Step {
  const check = stagingCheck(processes.data.staging_processes.info);
  const name = typeof check.check === 'string' && check.check !== '' ? ` (${check.check})` : '';
  switch (progress.stagingStage) {
    case 'queued':
      return { mark: '…', text: 'check queued', why: [] };
    case 'processing':
      return { mark: '…', text: 'checking', ...(name ? { more: name.trim() } : {}), why: [] };
    case 'failed':
      return {
        mark: '✗',
        text: 'check failed',
        ...(name ? { more: name.trim() } : {}),
        why: [said(check.message) || 'the service gave no reason'],
      };
    case 'paused':
      return { mark: '⏸', text: 'paused', why: progress.failure.slice(1) };
    default: {
      const details = [
        ...(typeof check.check === 'string' && check.check !== '' ? [check.check] : []),
        ...(typeof check.file_size === 'number' ? [formatBytes(check.file_size)] : []),
      ];
      return {
        mark: '✓',
        text: 'checked',
        ...(details.length > 0 ? { more: `(${details.join(', ')})` } : {}),
        why: [],
      };
    }
  }
}

/** A statement's processing run, in either form. */
function processStep(processes: DocumentProcesses, progress: Progress): Step | undefined {
  if (processes.kind !== 'statement' || progress.stagingStage !== 'completed') return undefined;
  const { run } = statementRun(processes.data);
  const result = progress.resultId === null ? {} : { more: `→ statement ${progress.resultId}` };
  if (progress.outcome === 'completed') return { mark: '✓', text: 'processed', ...result, why: [] };
  if (progress.outcome === 'failed') return { mark: '✗', text: 'processing failed', why: progress.failure.slice(1) };
  const stage = run?.stage === null || run?.stage === undefined ? '' : ` (stage ${run.stage})`;
  if (run === null || run.status === 'queued' || run.status === 'pending')
    return { mark: '…', text: 'processing queued', why: [] };
  return { mark: '…', text: `processing${stage}`, why: [] };
}

/** A contract's extractions, one step each; or one waiting step before the service lists them. */
function extractionSteps(processes: DocumentProcesses, progress: Progress): Step[] {
  if (processes.kind !== 'contract' || progress.stagingStage !== 'completed') return [];
  if (progress.extractions.length === 0) {
    // None asked for: nothing to wait on once the run says it is done.
    if (progress.outcome === 'completed') return [];
    const run = processes.data.extraction_processes;
    const failed = isPlainObject(run) && run.stage === 'failed';
    return [
      failed ? { mark: '✗', text: 'extraction failed', why: [] } : { mark: '…', text: 'extraction queued', why: [] },
    ];
  }
  return progress.extractions.map((e): Step => {
    const name = shortExtraction(e.name);
    if (e.status === 'completed') return { mark: '✓', text: `extracted ${name}`, why: [] };
    if (e.status === 'failed') return { mark: '✗', text: `extraction ${name} failed`, why: [] };
    if (e.status === 'processing') return { mark: '…', text: `extracting ${name}`, why: [] };
    return { mark: '…', text: `${name} ${e.status}`, why: [] };
  });
}

/** The steps of one upload, in order: uploaded, checked, then processing or the extractions. */
export function stepsOf(processes: DocumentProcesses, progress: Progress): Step[] {
  const steps: Step[] = [{ mark: '✓', text: 'uploaded', why: [] }, checkStep(processes, progress)];
  const processed = processStep(processes, progress);
  if (processed) steps.push(processed);
  steps.push(...extractionSteps(processes, progress));
  return steps;
}

/** The state in a word, as the steps' marks say it. */
const STATE: Record<Progress['outcome'], string> = {
  completed: 'completed',
  failed: 'failed',
  paused: 'paused',
  running: 'in progress',
};

/** What the upload became, once it became something: `statement 40141`. */
const resultOf = (kind: DocumentKind, progress: Progress): string =>
  progress.resultId === null ? '' : `${kind} ${progress.resultId}`;

/** One upload: a heading, then its steps a line each, why under a step that failed or paused. */
export function statusLines(kind: DocumentKind, processes: DocumentProcesses, progress: Progress): string[] {
  // A statement's result is said by its processing step; a contract's extractions do not say it.
  const result = kind === 'contract' ? resultOf(kind, progress) : '';
  const lines = [`${kind} upload ${progress.stagingId} · ${STATE[progress.outcome]}${result ? ` → ${result}` : ''}`];
  for (const step of stepsOf(processes, progress)) {
    lines.push(`${step.mark} ${step.text}${step.more ? ` ${step.more}` : ''}`);
    for (const why of step.why) lines.push(`  ${why}`);
  }
  return lines;
}

export const STATUS_COLUMNS: LayoutColumn[] = [
  { header: 'UPLOAD', overflow: 'never', priority: KEEP },
  { header: 'STATE', overflow: 'never', priority: KEEP },
  { header: 'STEPS', overflow: 'wrap', priority: 50 },
  { header: 'RESULT', overflow: 'never', priority: 60 },
];

/** One upload as a row of the table of several: its steps joined, a failure's first reason beside. */
export function statusRow(kind: DocumentKind, processes: DocumentProcesses, progress: Progress): string[] {
  // No-break spaces hold a step together when a narrow row wraps; a reason may wrap anywhere.
  const steps = stepsOf(processes, progress).map((step) => {
    const why = step.mark === '✗' || step.mark === '⏸' ? step.why[0] : undefined;
    return `${step.mark} ${step.text}`.replace(/ /g, '\u00a0') + (why ? `: ${why}` : '');
  });
  return [String(progress.stagingId), STATE[progress.outcome], steps.join('\u00a0· '), resultOf(kind, progress)];
}

/** A row for an id that could not be read. */
export const errorRow = (id: string, message: string): string[] => [id, 'error', `✗ ${message}`, ''];

// progressOf and the status view read either form of a processes object: the spec's, and the
// deployed service's (a failed staging check's reason under `info.staging_check`, statement
// processing as `extraction_processes`), here as a service sends them without the other form.
import { describe, expect, it } from 'vitest';
import { progressOf } from '../../src/commands/documents/processes.js';
import { statusView } from '../../src/commands/documents/status.js';
import { StatementProcesses } from '../../src/lib/schemas.js';

const statement = (data: unknown) => ({ kind: 'statement' as const, data: StatementProcesses.parse(data) });

describe('processes in the deployed forms only', () => {
  it('reads a failed staging check from info.staging_check = {status, info}', () => {
    const processes = statement({
      staging_id: 7,
      statement_id: null,
      staging_done: true,
      extraction_done: false,
      staging_processes: { stage: 'failed', info: { staging_check: { status: 'failed', info: 'not a PDF' } } },
      extraction_processes: null,
    });
    const progress = progressOf(processes);
    expect(progress.outcome).toBe('failed');
    expect(progress.failure).toEqual(['the staging check failed', 'status: failed', 'message: not a PDF']);
    expect(statusView(processes, progress)).toMatchObject({
      'staging_check.status': 'failed',
      'staging_check.message': 'not a PDF',
    });
  });

  it('reads statement processing from extraction_done and extraction_processes {stage, step, remarks}', () => {
    const running = statement({
      staging_id: 8,
      statement_id: 40200,
      staging_done: true,
      extraction_done: false,
      staging_processes: { stage: 'completed', info: {} },
      extraction_processes: { stage: 'processing', step: 2, remarks: {} },
      staging_terminal: true,
      requires_action: false,
      available_actions: [],
    });
    expect(progressOf(running)).toMatchObject({
      outcome: 'running',
      resultId: 40200,
      processing: { status: 'processing', stage: 2 },
    });
    const failed = statement({
      ...running.data,
      extraction_processes: { stage: 'failed', step: 2, remarks: { reason: 'unreadable' } },
    });
    expect(progressOf(failed)).toMatchObject({
      outcome: 'failed',
      failure: ['processing failed', 'reason: unreadable'],
    });
    const done = statement({
      ...running.data,
      extraction_done: true,
      extraction_processes: { stage: 'completed', step: null },
    });
    expect(progressOf(done).outcome).toBe('completed');
    expect(statusView(done, progressOf(done))).toMatchObject({
      processing_status: 'completed',
      processing_stage: null,
    });
  });
});

// What an upload's live line says of its progress: never a word twice.
import { describe, expect, it } from 'vitest';
import { briefOf, type Progress } from '../../src/commands/documents/processes.js';

const progress = (overrides: Partial<Progress>): Progress => ({
  outcome: 'running',
  stagingId: 7,
  stagingStage: 'completed',
  resultId: 40001,
  extractions: [],
  processing: null,
  failure: [],
  ...overrides,
});

describe('briefOf', () => {
  it('says a statement being processed once ("processing", not "processing processing"), with its stage', () => {
    expect(briefOf('statement', progress({ processing: { status: 'processing', stage: 2 } }))).toBe(
      'statement 40001 · processing (stage 2)',
    );
    expect(briefOf('statement', progress({ processing: { status: 'pending', stage: null } }))).toBe(
      'statement 40001 · processing pending',
    );
    expect(
      briefOf('statement', progress({ outcome: 'completed', processing: { status: 'completed', stage: 3 } })),
    ).toBe('statement 40001 · processing completed (stage 3) · completed');
  });
});

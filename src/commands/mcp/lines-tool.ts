// `statement_lines`: a processed statement's lines as CSV, for agents (`pds statements lines`). The
// signed link is fetched as the CLI fetches it (no credential, bounded, Ctrl-C), into memory, and
// handed out a slice of characters per call with a cursor, as sandbox_read hands out a file.
import { Writable } from 'node:stream';
import * as z from 'zod/mini';
import { IncompleteAnswerError, PdsError } from '../../lib/errors.js';
import { StorageDeniedError, saveToStream, storageOptions } from '../../lib/transfer/download.js';
import { formatBytes } from '../../lib/output/text.js';
import { checkResourceId } from '../catalog/get.js';
import { linesOf } from '../statements/lines-link.js';
import { textHeaderFault } from '../statements/exports.js';
import { MAX_TEXT_CHARS, dataResult } from './results.js';
import { describe, nextCursor, numberOrText } from './inputs.js';
import { defineTool, type Call, type ToolDefinition } from './tool.js';

/** What an agent may read of one statement's lines; past it, `pds statements lines -o` saves them. */
const MAX_LINES_BYTES = 16 * 1024 * 1024;

/** The CSV, whole, from the statement's signed link (asked for again once if it was refused). */
async function fetchLines(call: Call, projectId: string, id: string): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      chunks.push(chunk);
      done();
    },
  });
  const options = {
    ...storageOptions(call.ctx, false, MAX_LINES_BYTES),
    signal: call.signal,
    pdf: false,
    maxSizeHint: `an agent reads at most ${formatBytes(MAX_LINES_BYTES)} of a statement's lines: save them with \`pds statements lines ${id} -o lines.csv\``,
  };
  try {
    await saveToStream((await linesOf(call.ctx, projectId, id)).url, sink, options);
  } catch (error) {
    if (!(error instanceof StorageDeniedError)) throw error;
    chunks.length = 0;
    await saveToStream((await linesOf(call.ctx, projectId, id)).url, sink, options);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function statementLinesTool(read: ToolDefinition['annotations']): ToolDefinition {
  return defineTool({
    name: 'statement_lines',
    title: "Read a statement's lines",
    description:
      "A processed statement's lines (its rows of usage and revenue) as CSV, as the service exports them (`pds statements lines`). " +
      'Long exports come in parts: pass the cursor a call ends with, alone, for the next part.',
    toolset: 'documents',
    write: false,
    annotations: read,
    project: true,
    output: z.object({ id: z.string(), csv: z.string(), next_cursor: nextCursor }),
    input: {
      id: describe(numberOrText, "the statement's id"),
      cursor: describe(z.optional(z.string()), 'the cursor a previous call ended with, passed alone'),
    },
    async run(args, call, cursor) {
      const id = checkResourceId('statements', args.id);
      const projectId = call.project(args.projectId);
      const csv = await fetchLines(call, projectId, id).catch((error: unknown) => {
        throw error instanceof PdsError
          ? error
          : new PdsError(`the lines of statement ${id} could not be read`, { cause: error });
      });
      // The answer loses invisible characters: a column's zero-width twin would read as the column.
      const fault = textHeaderFault(csv);
      if (fault !== undefined)
        throw new IncompleteAnswerError([`statement ${id}: its export's header ${fault}; its lines were left out`]);
      const end = Math.min(csv.length, cursor.offset + MAX_TEXT_CHARS);
      const part = { id, csv: csv.slice(cursor.offset, end) };
      if (cursor.offset === 0 && end === csv.length)
        return dataResult(part, { structured: { ...part, next_cursor: null } });
      const more = end < csv.length ? cursor.next({ ...args, projectId }, end) : null;
      return dataResult(part, {
        before: `characters ${cursor.offset + 1}-${end} of ${csv.length}`,
        after: [more ? `more: call statement_lines with {"cursor": "${more}"}` : 'end of the lines'],
        structured: { ...part, next_cursor: more },
      });
    },
  });
}

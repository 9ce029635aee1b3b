// Where a processed statement's lines are: `GET /v1/statements/{id}?detailed=true` names a signed
// CSV link (`detailed.csv_url`); a statement without one says why. Shared by the verb that prints one
// export as it comes and the readers of many (exports.ts), which fetch the link as downloads do.
import type { Context } from '../../lib/context.js';
import type { StatementLines } from '../../lib/api/documents.js';
import { NotFoundError, PdsError } from '../../lib/errors.js';
import { notFoundIn } from '../../lib/not-found.js';

/** The lines are CSV: the storage host is told so (any answer is still read as CSV). */
export const LINES_ACCEPT = 'text/csv, */*';

/** The statement's signed CSV link; a statement not processed yet is an error with the service's reason. */
export async function linesOf(
  ctx: Context,
  projectId: string,
  id: string,
): Promise<Extract<StatementLines, { ready: true }>> {
  const lines = await ctx.api.documents.statementLines(projectId, id).catch(async (error: unknown) => {
    throw error instanceof NotFoundError ? await notFoundIn(ctx.api, 'statement', id, projectId, error) : error;
  });
  if (lines.ready) return lines;
  // A service without the lines export sends the statement without `detailed` at all.
  if (!('detailed' in lines.statement) && !('detailed_error' in lines.statement))
    throw new PdsError(`the service at ${ctx.settings.apiUrl} exports no statement lines`, {
      details: [`statement ${id} came without the \`detailed\` export; the deployed service has it`],
    });
  const stage = lines.statement.extraction_stage ?? lines.statement.processing_status;
  if (stage === 'completed' && lines.reason === undefined)
    throw new PdsError(`statement ${id} is processed, but the service sent no export of its lines and no reason`);
  throw new PdsError(
    `statement ${id} has no lines yet: ${lines.reason ?? 'the service sent none and gave no reason'}`,
    {
      details: [`its processing must complete first: follow it with \`pds statements status ${id}\``],
    },
  );
}

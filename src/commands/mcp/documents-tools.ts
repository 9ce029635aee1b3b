// The documents' tools besides their lists and gets: each kind's processing status and upload (the
// upload is offered with the uploads), a statement's lines, and what the statements earned.
import type { DocumentKind } from '../../lib/api/documents.js';
import { DOCUMENT_KINDS } from '../../lib/api/documents.js';
import { UsageError } from '../../lib/errors.js';
import { ContractProcesses, StatementProcesses } from '../../lib/schemas.js';
import { checkDocumentId, progressOf } from '../documents/processes.js';
import { statementLinesTool } from './lines-tool.js';
import { earnedTools } from './earned-tools.js';
import { dataResult } from './results.js';
import { READ, defineTool, documentIdName, notFound, type ToolDefinition } from './tool.js';
import { uploadTool } from './uploads-tools.js';
import { describe, numberOrText } from './verb-tools.js';

export function documentTools(): ToolDefinition[] {
  return [
    ...(Object.keys(DOCUMENT_KINDS) as DocumentKind[]).flatMap((kind) => [statusTool(kind), uploadTool(kind)]),
    statementLinesTool(READ),
    ...earnedTools(READ),
  ];
}

/** `<kind>_status`: the processing status of an upload. */
function statusTool(kind: DocumentKind): ToolDefinition {
  const idName = documentIdName(kind);
  return defineTool({
    name: `${kind}_status`,
    title: `Processing status of a ${kind} upload`,
    description:
      kind === 'contract'
        ? 'Processing status of a contract upload, by the stagingId upload_contract returned: state (running, completed, failed), stages, extractions, why it failed.'
        : 'Processing status of a statement upload, by the staging id upload_statement returned or a statement id: state (running, completed, failed), stages, why it failed.',
    toolset: 'documents',
    write: false,
    annotations: READ,
    project: true,
    output: kind === 'contract' ? ContractProcesses : StatementProcesses,
    input: {
      [idName]: describe(
        numberOrText,
        kind === 'contract' ? 'the staging_id of the upload' : 'a staging_id, or a statement id',
      ),
    },
    async run(args, call) {
      const given = args[idName];
      // Required by the schema (the key is the kind's name for it, so the type cannot say so).
      if (given === undefined) throw new UsageError(`${idName}: required`);
      const id = checkDocumentId(kind, given);
      const projectId = call.project(args.projectId);
      const processes = await call.ctx.api.documents
        .processes(kind, projectId, id)
        .catch(notFound(`${kind} upload`, id, projectId));
      const progress = progressOf(processes);
      // Why it failed is the service's text: it stays in the data, inside the markers.
      return dataResult(processes.data, { before: `state: ${progress.outcome}` });
    },
  });
}

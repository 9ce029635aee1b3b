// The documents' tools besides their lists and gets: each kind's processing status and upload (the
// upload is offered with the uploads), a statement's lines, and what the statements earned.
import type { DocumentKind, DocumentProcesses } from '../../lib/api/documents.js';
import { ExitCode } from '../../lib/errors.js';
import { ContractProcesses, StatementProcesses } from '../../lib/schemas.js';
import { checkDocumentId, progressOf } from '../documents/processes.js';
import { earnedTools } from './earned-tools.js';
import { describe, numberOrText } from './inputs.js';
import { statementLinesTool } from './lines-tool.js';
import { READ, documentIdName, type ToolDefinition } from './tool.js';
import { uploadTool } from './uploads-tools.js';
import { DOCUMENT_VERB_KINDS, documentVerb, verbTool } from './verb-tools.js';

export function documentTools(): ToolDefinition[] {
  return [
    ...DOCUMENT_VERB_KINDS.flatMap((kind) => [statusTool(kind), uploadTool(kind)]),
    statementLinesTool(READ),
    ...earnedTools(READ),
  ];
}

/** The processes the status verb printed, read by the kind's schema. */
function processesOf(kind: DocumentKind, data: unknown): DocumentProcesses {
  return kind === 'contract'
    ? { kind, data: ContractProcesses.parse(data) }
    : { kind, data: StatementProcesses.parse(data) };
}

/** `<kind>_status`: the processing status of one upload (`pds <kind>s status`, which takes several). */
function statusTool(kind: DocumentKind): ToolDefinition {
  const idName = documentIdName(kind);
  return verbTool({
    verb: documentVerb(kind, 'status'),
    command: `${kind}s status`,
    name: `${kind}_status`,
    title: `Processing status of a ${kind} upload`,
    description:
      kind === 'contract'
        ? 'Processing status of a contract upload, by the stagingId upload_contract returned: state (running, completed, failed), stages, extractions, why it failed.'
        : 'Processing status of a statement upload, by the staging id upload_statement returned or a statement id: state (running, completed, failed), stages, why it failed.',
    toolset: 'documents',
    write: false,
    annotations: READ,
    output: { record: kind === 'contract' ? ContractProcesses : StatementProcesses },
    input: {
      [idName]: describe(
        numberOrText,
        kind === 'contract' ? 'the staging_id of the upload' : 'a staging_id, or a statement id',
      ),
    },
    // The verb takes a list of ids; the tool, one.
    toVerb: ({ args }) => {
      const id = args[idName];
      return { args: [id === undefined ? [] : [id]] };
    },
    // A failed upload is its status, not the call's failure: why it failed is in the data.
    answers: [ExitCode.processingFailed],
    notFound: ({ args }) => ({ what: `${kind} upload`, id: checkDocumentId(kind, String(args[idName])) }),
    fromVerb: (printed) => ({
      data: printed.data,
      // Why it failed is the service's text: it stays in the data, inside the markers.
      before: `state: ${progressOf(processesOf(kind, printed.data)).outcome}`,
    }),
  });
}

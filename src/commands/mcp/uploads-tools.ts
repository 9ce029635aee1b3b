// The uploads' tools: a local file uploaded as `pds upload` does it, a paused upload queued again and
// a statement's details changed, as `pds contracts|statements retry` and `pds statements update` do them.
import * as z from 'zod/mini';
import type { DocumentKind } from '../../lib/api/documents.js';
import { STATEMENT_EXTENSIONS } from '../../lib/transfer/formats.js';
import { EXTRACTIONS, StagingRetry, StatementUpdate } from '../../lib/schemas.js';
import { formatBytes } from '../../lib/output/text.js';
import { flagSchema } from '../../lib/verbs/options.js';
import { shortExtraction } from '../documents/processes.js';
import { updateStatement } from '../statements/index.js';
import { extractionNames, uploadContext } from '../upload/plan.js';
import { CONTEXT_FLAGS, STATEMENT_ONLY, UPLOAD_FLAGS } from '../upload/definitions.js';
import { releaseLocalFile } from './roots.js';
import { dataResult } from './results.js';
import { TAGGING } from './tags-tools.js';
import { defineTool, documentIdName, writing, type ToolDefinition } from './tool.js';
import { describe, flagInputs, verbInputs, type FlagInputs } from './inputs.js';
import { DOCUMENT_VERB_KINDS, documentVerbInputs, verbTool } from './verb-tools.js';

/**
 * What an upload returns, by either flow: the seed's multipart record (ContractUpload,
 * StatementUpload) or the signed-URL flow's completion (UploadComplete with staging_stage). Both
 * carry staging_id and staging_stage; the rest depends on the flow, so it is optional.
 */
const uploadOutput = (kind: DocumentKind) =>
  z.looseObject({
    staging_id: z.int(),
    staging_stage: z.string(),
    staging_done: z.optional(z.boolean()),
    ...(kind === 'contract'
      ? { extractions_done: z.optional(z.boolean()) }
      : { processing_done: z.optional(z.boolean()) }),
    created_at: z.optional(z.string()),
    status: z.optional(z.string()),
    pause_reason: z.optional(z.string()),
  });

// An upload adds a document (and a second call adds a second one); it changes nothing that exists.
const UPLOAD = writing(false, false);
/** `upload_<kind>`: a local file uploaded, with the upload context `pds upload` takes. */
export function uploadTool(kind: DocumentKind): ToolDefinition {
  const idName = documentIdName(kind);
  return defineTool({
    name: `upload_${kind}`,
    title: kind === 'contract' ? 'Upload a contract PDF' : 'Upload a statement file',
    description:
      (kind === 'contract'
        ? 'Uploads a contract PDF from the local disk (at most 50 MiB) for processing; returns its staging_id. '
        : `Uploads a statement file from the local disk (at most 50 MiB; ${STATEMENT_EXTENSIONS.join(' ')}, or a PDF alone where the service predates the other formats) for processing; returns its staging_id. `) +
      `Follow it with ${kind}_status. Each call adds a document: do not repeat a call that may have succeeded.`,
    toolset: 'uploads',
    write: true,
    annotations: UPLOAD,
    project: true,
    output: uploadOutput(kind),
    input: {
      path: describe(
        z.string(),
        `path of the ${kind === 'contract' ? 'PDF' : 'file'} on this machine (absolute, or relative to the directory pds mcp runs in), inside the roots pds mcp was started with; hidden files are refused`,
      ),
      ...(kind === 'contract'
        ? {
            extract: describe(
              flagSchema('extract', UPLOAD_FLAGS.extract),
              `extractions to run: ${EXTRACTIONS.map(shortExtraction).join(', ')} (with or without the extract- prefix)`,
            ),
          }
        : {}),
      ...contextInputs(kind),
    },
    async run(args, call) {
      const extractions = extractionNames(args.extract);
      // Checked before the file is read: a bad period sends nothing.
      const context = uploadContext({
        ...args,
        tag: args.tag ?? [],
        kind,
      });
      const projectId = call.project(args.projectId);
      const file = await call.localFile(args.path, kind);
      let shown = -1;
      const record = await call.ctx.api.documents
        .upload(kind, projectId, file, {
          ...(extractions ? { extractions } : {}),
          ...context,
          idleTimeoutMs: call.ctx.settings.timeoutMs,
          allowHttp: call.ctx.settings.allowHttp,
          signal: call.signal,
          onBytes: (sent, total) => {
            // One notification per whole percent: a 50 MiB body is some 200 chunks.
            const percent = Math.floor((sent / total) * 100);
            if (percent === shown) return;
            shown = percent;
            call.progress(sent, total, `${formatBytes(sent)} of ${formatBytes(total)} sent`);
          },
        })
        .finally(() => releaseLocalFile(file));
      return dataResult(record, {
        before: `uploaded ${file.fileName} (${file.size} bytes)`,
        after: [`follow it with ${kind}_status {"${idName}": ${record.staging_id}}`],
      });
    },
  });
}

/** The upload context a kind takes, as `pds upload <kind>` takes it: a contract's is its tags and folder. */
function contextInputs(kind: DocumentKind): Partial<FlagInputs<typeof CONTEXT_FLAGS>> {
  const inputs: Partial<FlagInputs<typeof CONTEXT_FLAGS>> = flagInputs(CONTEXT_FLAGS);
  if (kind === 'contract') for (const key of STATEMENT_ONLY) Reflect.deleteProperty(inputs, key);
  return inputs;
}

// A retry queues a paused upload again: nothing is lost, and a second call finds it queued.
const RETRY = writing(false, false);

/** Paused uploads queued again, and a statement's details changed. */
export function uploadsTools(): ToolDefinition[] {
  const kinds = DOCUMENT_VERB_KINDS;
  return [
    ...kinds.map((kind) =>
      verbTool({
        ...documentVerbInputs(kind, 'retry', ['stagingId']),
        command: `${kind}s retry`,
        name: `retry_${kind}`,
        title: `Queue a paused ${kind} upload again`,
        toolset: 'uploads',
        write: true,
        annotations: RETRY,
        output: { record: StagingRetry },
        more: `Only for an upload ${kind}_status shows paused.`,
      }),
    ),
    verbTool({
      verb: updateStatement,
      ...verbInputs(updateStatement, ['id']),
      command: 'statements update',
      name: 'update_statement',
      title: "Change a statement's payee, payor, periods or currencies",
      toolset: 'uploads',
      write: true,
      annotations: TAGGING,
      output: { record: StatementUpdate },
    }),
  ];
}

// Contract and statement documents: upload and processing status (docs/service.md, "Uploads"), staging retry
// and the record edits of the deployed service (docs/service.md). The two kinds differ only in path,
// schemas and whether extractions exist, so one table (documents/kinds.ts) describes them.
//
// An upload takes the deployed service's three steps (mint a staging record and a signed URL, PUT
// the bytes to the storage host, complete: documents/signed-flow.ts) and falls back to the seed's
// multipart request with progress events (documents/seed-flow.ts) when the service has no
// `…/uploads` (404 or 405), found out once per command (documents/uploader.ts).
import type { HttpClient, RequestOptions } from '../http/client.js';
import { ContractProcesses, DownloadLink, StatementProcesses, StatementUpdate, type StagingRetry } from '../schemas.js';
import { isPlainObject } from '../shape.js';
import { answerOf, isHttpUrl, malformed, stagingIdOf } from './documents/answers.js';
import { DOCUMENT_KINDS, type DocumentKind, type DocumentProcesses } from './documents/kinds.js';
import { createUploader } from './documents/uploader.js';

export { answerOf, malformed, MalformedAnswerError } from './documents/answers.js';
export {
  DOCUMENT_KINDS,
  receivedHint,
  type DocumentKind,
  type DocumentProcesses,
  type SignedUpload,
  type UploadOptions,
  type UploadRecord,
} from './documents/kinds.js';

export function createDocumentsApi(http: HttpClient) {
  return {
    upload: createUploader(http),

    /** `POST …/staging/{id}/retry`: a paused upload queued again. Never resent. Acts on its status; the rest is kept as sent. */
    async retry(kind: DocumentKind, projectId: string, stagingId: number): Promise<StagingRetry> {
      const request: RequestOptions = {
        method: 'POST',
        path: `${DOCUMENT_KINDS[kind].path}/staging/${stagingId}/retry`,
        query: { projectId },
        json: {},
        retry: false,
      };
      const answer = await answerOf(http, request);
      if (typeof answer.status !== 'string')
        throw malformed(request, 'status', answer.status, 'a status such as queued or paused');
      return { ...answer, staging_id: stagingIdOf(answer.staging_id) ?? stagingId, status: answer.status };
    },

    /**
     * `GET /v1/statements/{id}?detailed=true`: the signed link to the statement's lines as CSV
     * (docs/service.md), or why there is none yet (`detailed_error`, the service's words).
     */
    async statementLines(projectId: string, id: string): Promise<StatementLines> {
      const request: RequestOptions = {
        path: `/v1/statements/${encodeURIComponent(id)}`,
        query: { projectId, detailed: true },
      };
      const statement = await answerOf(http, request);
      const detailed = statement.detailed;
      if (detailed === null || detailed === undefined) {
        const reason =
          typeof statement.detailed_error === 'string' && statement.detailed_error.trim() !== ''
            ? statement.detailed_error
            : undefined;
        return { ready: false, statement, ...(reason === undefined ? {} : { reason }) };
      }
      if (!isPlainObject(detailed))
        throw malformed(request, 'detailed', detailed, 'an object with the csv_url of the lines');
      const url = detailed.csv_url;
      if (!isHttpUrl(url)) throw malformed(request, 'detailed.csv_url', url, 'an http(s) URL');
      return {
        ready: true,
        statement,
        url,
        ...(typeof detailed.file_name === 'string' ? { fileName: detailed.file_name } : {}),
      };
    },

    /** `PUT /v1/statements/{id}`: payee, payor, periods, currencies, tags; null clears a field. */
    updateStatement(projectId: string, id: string, changes: Record<string, unknown>): Promise<StatementUpdate> {
      return http.data(
        {
          method: 'PUT',
          path: `/v1/statements/${encodeURIComponent(id)}`,
          query: { projectId },
          json: changes,
          retry: false,
        },
        StatementUpdate,
      );
    },

    /** `GET /v1/{contracts|statements}/{id}/download`: a signed URL of the document's file (not in the spec). */
    download(kind: DocumentKind, projectId: string, id: string): Promise<DownloadLink> {
      return http.data(
        { path: `${DOCUMENT_KINDS[kind].path}/${encodeURIComponent(id)}/download`, query: { projectId } },
        DownloadLink,
      );
    },

    /** `GET /v1/{contracts|statements}/{id}/processes`; a statement id or a staging id (statements). */
    async processes(kind: DocumentKind, projectId: string, id: string): Promise<DocumentProcesses> {
      const path = `${DOCUMENT_KINDS[kind].path}/${encodeURIComponent(id)}/processes`;
      if (kind === 'contract')
        return { kind, data: await http.data({ path, query: { projectId } }, ContractProcesses) };
      return { kind, data: await http.data({ path, query: { projectId } }, StatementProcesses) };
    },
  };
}

/** A statement's lines: the signed CSV link, or the service's reason why there is none yet. */
export type StatementLines =
  | { ready: true; statement: Record<string, unknown>; url: string; fileName?: string }
  | { ready: false; statement: Record<string, unknown>; reason?: string };

export type DocumentsApi = ReturnType<typeof createDocumentsApi>;

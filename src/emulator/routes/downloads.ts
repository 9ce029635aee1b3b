// `GET /v1/{contracts|statements}/{id}/download`: not in the spec, but offered by the deployed
// service. The answer is a signed URL on the storage host (../storage.ts), which expires.
import { HttpError, queryProject, type Handler, type Route } from '../http.js';
import { findDocumentFile } from '../storage.js';
import type { DocumentKind } from '../store.js';

const download =
  (kind: DocumentKind): Handler =>
  (ctx) => {
    const { project } = queryProject(ctx);
    const id = ctx.params.id ?? '';
    const file = findDocumentFile(ctx.state, kind, project.id, id);
    if (!file) throw new HttpError(404, `${kind} '${id}' not found`);
    if (!ctx.storage) throw new HttpError(503, 'the storage host is not running');
    const ttl = ctx.options.urlTtlSeconds;
    return {
      body: {
        data: {
          url: ctx.storage.sign(kind, project.id, id, ctx.now(), ttl),
          fileName: file.fileName,
          // A file never uploaded here is served as a generated PDF.
          fileType: ctx.storage.stored(file.stagingId ?? -1) ? file.fileType : 'application/pdf',
          expiresIn: ttl,
        },
      },
    };
  };

export const downloadRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/contracts/:id/download', handler: download('contract') },
  { method: 'GET', pattern: '/v1/statements/:id/download', handler: download('statement') },
];

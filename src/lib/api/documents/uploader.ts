import type { HttpClient } from '../../http/client.js';
import type { UploadMint } from '../../schemas.js';
import type { LocalUpload } from '../../transfer/local-upload.js';
import { DOCUMENT_KINDS, type DocumentKind, type UploadOptions, type UploadRecord } from './kinds.js';
import { uploadSeed } from './seed-flow.js';
import { mint, uploadSigned } from './signed-flow.js';

/**
 * The upload of one file, by whichever flow the service takes: the first upload of a command finds
 * out (signed URLs, or the seed's multipart request), the others wait for it and follow.
 */
export function createUploader(http: HttpClient) {
  /** Which flow this service takes, once the first upload has found out. */
  let flow: 'signed' | 'seed' | undefined;
  /** The first upload's mint, which the others wait for while the flow is unknown. */
  let probing: Promise<unknown> | undefined;

  /** The first upload of a command finds out which flow the service takes; the others wait for it. */
  async function probe(
    kind: DocumentKind,
    projectId: string,
    file: LocalUpload,
    options: UploadOptions,
  ): Promise<UploadRecord> {
    let release = (): void => undefined;
    probing = new Promise<void>((resolve) => {
      release = resolve;
    });
    let minted: UploadMint | undefined;
    try {
      minted = await mint(http, kind, projectId, file, options, true);
      flow = minted ? 'signed' : 'seed';
      http.trace(
        minted
          ? "* uploading over signed URLs (the service's three-step flow)"
          : `* this service has no ${DOCUMENT_KINDS[kind].path}/uploads: uploading with the seed's multipart request`,
      );
    } finally {
      probing = undefined;
      release();
    }
    return minted
      ? uploadSigned(http, kind, projectId, file, options, minted)
      : uploadSeed(http, kind, projectId, file, options);
  }

  /**
   * Uploads one file, by the service's signed-URL flow or the seed's multipart one. Neither resends
   * a request that may have acted (a mint, a complete, a multipart body that started): a second
   * one could create a second document, so the failure is reported instead. The PUT is resent.
   */
  async function upload(
    kind: DocumentKind,
    projectId: string,
    file: LocalUpload,
    options: UploadOptions = {},
  ): Promise<UploadRecord> {
    while (flow === undefined && probing) await probing;
    if (flow === 'seed') return uploadSeed(http, kind, projectId, file, options);
    if (flow === undefined) return probe(kind, projectId, file, options);
    const minted = (await mint(http, kind, projectId, file, options, false)) as UploadMint;
    return uploadSigned(http, kind, projectId, file, options, minted);
  }
  return upload;
}

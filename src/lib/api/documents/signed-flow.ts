// The deployed service's upload in three steps: mint a staging record and a signed URL, PUT the
// bytes to the storage host, complete.
import type { HttpClient, RequestOptions } from '../../http/client.js';
import { refusePlainHttp } from '../../http/safety.js';
import { PdsError, RateLimitError, ServiceError } from '../../errors.js';
import { errorCode, NEVER_CONNECTED } from '../../http/failures.js';
import type { UploadMint } from '../../schemas.js';
import type { LocalUpload } from '../../transfer/local-upload.js';
import { openRaw } from '../../transfer/upload-body.js';
import { UploadCutError } from '../../transfer/upload-answer.js';
import { answerOf, isHttpUrl, MalformedAnswerError, malformed, stagingIdOf, withDetails } from './answers.js';
import { IdleWatch } from './idle-watch.js';
import { DOCUMENT_KINDS, receivedHint, type DocumentKind, type SignedUpload, type UploadOptions } from './kinds.js';

/** The statuses for which a service has no such route: it predates the signed-URL flow. */
const NO_SUCH_ROUTE = new Set([404, 405]);
/** A PUT cut by a reset is sent again this many times (an upsert: a second PUT replaces the first). */
const PUT_RETRIES = 2;

/** Step 1: a staging record and a signed URL; undefined when the service has no such route. Never resent. */

export async function mint(
  http: HttpClient,
  kind: DocumentKind,
  projectId: string,
  file: LocalUpload,
  options: UploadOptions,
  probing: boolean,
): Promise<UploadMint | undefined> {
  const spec = DOCUMENT_KINDS[kind];
  const json: Record<string, unknown> = { fileName: file.fileName, fileType: file.fileType, fileSize: file.size };
  const dot = file.fileName.lastIndexOf('.');
  if (dot > 0) json.fileExtension = file.fileName.slice(dot + 1).toLowerCase();
  if (options.extractions) json.extractions = options.extractions;
  if (options.folderName !== undefined) json.folderName = options.folderName;
  if (options.context) json.context = options.context;
  options.onStart?.();
  const request: RequestOptions = {
    method: 'POST',
    path: `${spec.path}/uploads`,
    query: { projectId },
    json,
    retry: 'unsent',
    ...(options.onRateLimited ? { onRateLimited: options.onRateLimited } : {}),
  };
  let answer: Record<string, unknown>;
  try {
    answer = await answerOf(http, request);
  } catch (error) {
    if (probing && error instanceof PdsError && error.status !== undefined && NO_SUCH_ROUTE.has(error.status))
      return undefined;
    // A connection never made (refused, no such host) sent nothing: the request was already tried
    // again within the retry budget, and the error says the service cannot be reached.
    if (
      error instanceof ServiceError &&
      error.status === undefined &&
      !NEVER_CONNECTED.has(errorCode(error) ?? '') &&
      !(error instanceof UploadCutError) &&
      !(error instanceof MalformedAnswerError)
    ) {
      throw new UploadCutError(
        `the request for an upload URL of ${file.fileName} got no answer; pds did not resend it (a second one could create a second staging record)`,
        {
          details: [receivedHint(kind)],
          cause: error,
        },
      );
    }
    if (error instanceof MalformedAnswerError) throw withDetails(error, [receivedHint(kind)]);
    throw error;
  }
  // The service answered: what pds acts on must be there; a fault is said as the answer's, with its value.
  const stagingId = stagingIdOf(answer.staging_id);
  if (stagingId === undefined)
    throw withDetails(malformed(request, 'staging_id', answer.staging_id, 'a staging id (a whole number)'), [
      receivedHint(kind),
    ]);
  const uploadUrl = answer.upload_url;
  if (!isHttpUrl(uploadUrl)) {
    throw withDetails(malformed(request, 'upload_url', uploadUrl, 'an http(s) URL'), [
      `staging id ${stagingId} holds no file`,
      receivedHint(kind),
    ]);
  }
  return { ...answer, staging_id: stagingId, upload_url: uploadUrl };
}

/** Step 2: the bytes to the storage host, streamed from disk, with no credential; resent after a reset. */
async function put(
  http: HttpClient,
  _kind: DocumentKind,
  url: string,
  file: LocalUpload,
  options: UploadOptions,
  stagingId: number,
): Promise<void> {
  const target = new URL(url);
  // Before any connection: the signed URL is a credential for this file, and the file is the user's data.
  refusePlainHttp({
    url: target,
    allowHttp: options.allowHttp === true,
    what: `${file.fileName} and its signed upload URL`,
    instead: 'a service whose storage answers over https',
    details: [
      `the service's upload URL for staging id ${stagingId} is http://${target.host}${target.pathname}; staging id ${stagingId} holds no file`,
    ],
  });
  for (let attempt = 0; ; attempt++) {
    const idle = new IdleWatch(options.idleTimeoutMs ?? 0);
    const done = new AbortController();
    const raw = await openRaw(file, {
      onBytes: (sent, total) => {
        if (done.signal.aborted) return;
        idle.touch();
        options.onBytes?.(sent, total);
      },
    });
    try {
      idle.touch();
      const response = await http.sendToStorage(target, {
        method: 'PUT',
        headers: { 'content-type': file.fileType, 'content-length': String(raw.length), 'x-upsert': 'true' },
        body: raw.body,
        signal: AbortSignal.any([idle.signal, done.signal, ...(options.signal ? [options.signal] : [])]),
        fresh: true,
      });
      const text = await response.text(64 * 1024).catch(() => '');
      if (response.ok) return;
      throw new ServiceError(
        `the storage host ${target.origin} refused the upload of ${file.fileName} with HTTP ${response.status}`,
        {
          status: response.status,
          details: [storageMessage(text), `staging id ${stagingId} holds no file: upload it again`].filter(
            (d) => d !== '',
          ),
        },
      );
    } catch (error) {
      if (error instanceof PdsError) throw error;
      // Abandoned (a cancel, a batch's deadline): why is the signal's to say; never sent again.
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (idle.fired)
        throw new UploadCutError(
          `the upload of ${file.fileName} to the storage host stalled: nothing moved for ${idle.ms / 1000} s`,
          { details: ['raise the limit with --timeout <seconds>'], cause: error },
        );
      if (attempt >= PUT_RETRIES) {
        throw new ServiceError(
          `the connection to the storage host ${target.origin} broke during the upload of ${file.fileName}, ${attempt + 1} times`,
          { cause: error, details: [`staging id ${stagingId} holds no file: upload it again`] },
        );
      }
      http.trace(
        `* the PUT to the storage host broke (${error instanceof Error ? error.message : String(error)}): sending it again (it replaces what came)`,
      );
    } finally {
      done.abort(new Error('the upload is over'));
      idle.stop();
      await raw.close();
    }
  }
}

/** Step 3: the service takes the stored bytes in. Never resent; a failure names the staging id. */
async function complete(
  http: HttpClient,
  kind: DocumentKind,
  projectId: string,
  stagingId: number,
  file: LocalUpload,
): Promise<SignedUpload> {
  const spec = DOCUMENT_KINDS[kind];
  const request: RequestOptions = {
    method: 'POST',
    path: `${spec.path}/uploads/complete`,
    query: { projectId },
    json: { stagingId },
    retry: 'unsent',
  };
  const next = `check it with \`pds ${spec.noun} status ${stagingId}\` before uploading again`;
  let answer: Record<string, unknown>;
  try {
    answer = await answerOf(http, request);
  } catch (error) {
    if (error instanceof MalformedAnswerError)
      throw withDetails(error, [`the bytes of ${file.fileName} are stored under staging id ${stagingId}`, next]);
    const cause = error instanceof PdsError ? error : new ServiceError(String(error));
    const stored = `the bytes of ${file.fileName} are stored under staging id ${stagingId}, but the service did not confirm the upload${cause.status === undefined ? ' (no answer; pds did not resend it)' : ''}`;
    const details = [cause.message, ...cause.details, next];
    if (cause.status === undefined) throw new UploadCutError(stored, { details, cause: error });
    // Refused for the rate limit after every wait the budget allowed: nothing was done with it, and
    // it says so as a rate limit (exit 6, wait longer), not as a failed upload.
    if (cause instanceof RateLimitError)
      throw new RateLimitError(stored, { details, status: cause.status, cause: error });
    throw new ServiceError(stored, { details, status: cause.status, cause: error });
  }
  // pds acts on the status (paused or not); the staging id it follows is the one the mint gave.
  // Everything else (`enqueued`, `paused`: counts; `snapshot_hash`; new fields) is kept as sent.
  const status = answer.status;
  if (typeof status !== 'string' || status === '') {
    throw withDetails(malformed(request, 'status', status, 'a status such as uploaded, queued or paused'), [
      `the bytes of ${file.fileName} are stored under staging id ${stagingId}`,
      next,
    ]);
  }
  const signed: SignedUpload = {
    ...answer,
    staging_id: stagingIdOf(answer.staging_id) ?? stagingId,
    status,
    staging_stage: status,
  };
  if (status === 'paused') {
    const reason = await pauseReason(http, kind, projectId, stagingId);
    if (reason) signed.pause_reason = reason;
  }
  return signed;
}

/** Why a staging is paused, from its status; undefined when the service does not say. */
async function pauseReason(
  http: HttpClient,
  kind: DocumentKind,
  projectId: string,
  stagingId: number,
): Promise<string | undefined> {
  try {
    const processes = await answerOf(http, {
      path: `${DOCUMENT_KINDS[kind].path}/${stagingId}/processes`,
      query: { projectId },
    });
    const reason =
      (processes as { pause_reason?: unknown; staging_processes?: { info?: { pause_reason?: unknown } } })
        .pause_reason ??
      (processes as { staging_processes?: { info?: { pause_reason?: unknown } } }).staging_processes?.info
        ?.pause_reason;
    return typeof reason === 'string' ? reason : undefined;
  } catch {
    return undefined;
  }
}

export async function uploadSigned(
  http: HttpClient,
  kind: DocumentKind,
  projectId: string,
  file: LocalUpload,
  options: UploadOptions,
  minted: UploadMint,
): Promise<SignedUpload> {
  await put(http, kind, minted.upload_url, file, options, minted.staging_id);
  // A cancel (an agent's) before the complete step leaves no record: the staging never completes.
  options.signal?.throwIfAborted();
  return complete(http, kind, projectId, minted.staging_id, file);
}

/** The message of a storage host's XML error (`<Message>…</Message>`), or its first line. */
function storageMessage(text: string): string {
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1];
  return message ?? text.split('\n', 1)[0]?.slice(0, 300) ?? '';
}

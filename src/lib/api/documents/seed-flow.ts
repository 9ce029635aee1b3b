// The seed's upload: one multipart request whose answer may stream progress events, for a service
// that has no signed-URL uploads.
import type { HttpClient } from '../../http/client.js';
import { ServiceError, PdsError, UsageError } from '../../errors.js';
import { envelope, IN_ENGLISH, issueLines } from '../../schemas.js';
import { LocalFileError, type LocalUpload } from '../../transfer/local-upload.js';
import { openMultipart } from '../../transfer/upload-body.js';
import { readUploadAnswer, UploadCutError } from '../../transfer/upload-answer.js';
import { IdleWatch } from './idle-watch.js';
import { DOCUMENT_KINDS, receivedHint, type DocumentKind, type UploadOptions, type UploadRecord } from './kinds.js';

/** The seed's flow cannot carry what only the signed-URL flow can: refused, never dropped. */
function checkSeedFlow(kind: DocumentKind, file: LocalUpload, options: UploadOptions): void {
  if (kind === 'statement' && file.fileType !== 'application/pdf') {
    throw new UsageError(
      `this service takes only PDF statements (it has no signed-URL uploads, which carry other formats)`,
    );
  }
  if (options.context || options.folderName !== undefined) {
    throw new UsageError(
      'this service cannot carry upload context (--accounting-period, --currency-*, --payee, --payor, --scenario, --target-family, --tag, --folder): it has no signed-URL uploads',
      {
        details: ['upload without those flags, then set them with `pds statements update` where the service allows it'],
      },
    );
  }
}

/**
 * The seed's upload (docs/service.md, "Uploads"), once the flow is checked to carry what was asked.
 * The request is resent only when it failed before its body started (e.g. the connection was
 * refused): once a byte of the body may have reached the service, a resend could create a
 * duplicate document, so the failure is reported instead.
 */
export async function uploadSeed(
  http: HttpClient,
  kind: DocumentKind,
  projectId: string,
  file: LocalUpload,
  options: UploadOptions,
): Promise<UploadRecord> {
  checkSeedFlow(kind, file, options);
  const spec = DOCUMENT_KINDS[kind];
  let started = false;
  let answered = false;
  let sentAll = false;
  const idle = new IdleWatch(options.idleTimeoutMs ?? 0);
  // Ends the request once the upload is decided: a service that answers (503, 413, 401) before
  // reading the body leaves the body still being sent, and its socket and byte callbacks kept
  // the process alive until the idle limit.
  const done = new AbortController();
  // Events that keep coming without a confirmation are not silence: this bounds them overall.
  const overall = new AbortController();
  let overallTimer: NodeJS.Timeout | undefined;
  const fields: [string, string][] = options.extractions ? [['extractions', JSON.stringify(options.extractions)]] : [];
  const multipart = await openMultipart(file, fields, {
    onStart: () => {
      started = true;
      options.onStart?.();
    },
    onBytes: (sent, total) => {
      // The transport may pull one more chunk after the answer came: it must neither re-arm the
      // idle timer nor redraw progress over the result.
      if (done.signal.aborted) return;
      if (sent === total) sentAll = true;
      idle.touch();
      options.onBytes?.(sent, total);
    },
  });
  try {
    idle.touch();
    const response = await http.send({
      method: 'POST',
      path: spec.path,
      query: { projectId },
      headers: {
        accept: 'text/event-stream, application/json;q=0.9',
        'content-type': multipart.contentType,
        'content-length': String(multipart.length),
      },
      body: multipart.body,
      retry: () => !started,
      // A 50 MiB upload on a slow link outlasts any fixed limit; the idle watch replaces it.
      timeoutMs: 0,
      signal: AbortSignal.any([idle.signal, done.signal, overall.signal, ...(options.signal ? [options.signal] : [])]),
      stream: true,
      fresh: true,
    });
    answered = true;
    idle.touch();
    if (options.answerTimeoutMs)
      overallTimer = setTimeout(() => overall.abort(new Error('--wait-timeout')), options.answerTimeoutMs);
    const answer = await readUploadAnswer(response, {
      onEvent: () => idle.touch(),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const parsed = envelope(spec.upload).safeParse(answer, IN_ENGLISH);
    if (!parsed.success) {
      throw new ServiceError(`unexpected answer to the upload (POST ${spec.path})`, {
        details: issueLines(parsed.error),
      });
    }
    return (parsed.data as { data: UploadRecord }).data;
  } catch (error) {
    if (overall.signal.aborted) throw unconfirmed(kind, (options.answerTimeoutMs ?? 0) / 1000, error);
    throw explain(error, kind, started && !answered, idle, answered && sentAll);
  } finally {
    clearTimeout(overallTimer);
    done.abort(new Error('the upload is over'));
    idle.stop();
    await multipart.close();
  }
}

/** The service took the file but did not confirm it in time: where to follow it, so nothing is lost. */
function unconfirmed(kind: DocumentKind, seconds: number, cause: unknown): UploadCutError {
  const noun = DOCUMENT_KINDS[kind].noun;
  return new UploadCutError(
    `the service answered the upload but did not confirm it within ${seconds} s (--wait-timeout); pds stopped waiting`,
    {
      details: [
        `the service has received the file: follow it with \`pds ${noun} status <staging-id>\` (find the id with \`pds ${noun} ls\`)`,
      ],
      cause,
    },
  );
}

/**
 * An upload failure, said so that the user knows whether the document may exist: after the body
 * started, a broken connection, a timeout or a cut stream leave that open.
 */
function explain(
  error: unknown,
  kind: DocumentKind,
  sentUnanswered: boolean,
  idle: IdleWatch,
  received: boolean,
): unknown {
  const hint = receivedHint(kind);
  if (error instanceof LocalFileError) return error;
  // The whole body went out and the service answered: it has the file, only its events stopped.
  if (idle.fired && received) {
    const noun = DOCUMENT_KINDS[kind].noun;
    return new UploadCutError(
      `the service answered the upload but sent no event for ${idle.ms / 1000} s; pds stopped waiting`,
      {
        details: [
          `the service has received the file: follow it with \`pds ${noun} status <staging-id>\` (find the id with \`pds ${noun} ls\`)`,
          'wait longer with --timeout <seconds>',
        ],
        cause: error,
      },
    );
  }
  if (idle.fired) {
    return new UploadCutError(`the upload stalled: nothing moved for ${idle.ms / 1000} s`, {
      details: [hint, 'raise the limit with --timeout <seconds>'],
      cause: error,
    });
  }
  if (error instanceof UploadCutError)
    return new UploadCutError(error.message, { details: [hint], cause: error.cause });
  // A network failure (no HTTP status) after the body started and before an answer: the service may
  // have the file.
  if (sentUnanswered && error instanceof ServiceError && error.status === undefined) {
    return new UploadCutError('the connection broke during the upload', {
      details: [hint],
      cause: error.cause ?? error,
    });
  }
  if (error instanceof PdsError || !(error instanceof Error)) return error;
  return new ServiceError(error.message, { details: sentUnanswered ? [hint] : [], cause: error });
}

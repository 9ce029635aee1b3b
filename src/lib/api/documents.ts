// Contract and statement documents: upload and processing status (docs/service.md, "Uploads"), staging retry
// and the record edits of the deployed service (docs/service.md). The two kinds differ only in path,
// schemas and whether extractions exist, so one table describes them.
//
// An upload takes the deployed service's three steps (mint a staging record and a signed URL, PUT
// the bytes to the storage host, complete) and falls back to the seed's multipart request with
// progress events when the service has no `…/uploads` (404 or 405), found out once per command.
import type { HttpClient, RequestOptions } from '../http.js';
import { refusePlainHttp } from '../http-safety.js';
import { ServiceError, PdsError, UsageError } from '../errors.js';
import {
  ContractProcesses,
  ContractUpload,
  DownloadLink,
  StatementProcesses,
  StatementUpdate,
  StatementUpload,
  envelope,
  type StagingRetry,
  type UploadComplete,
  type UploadMint,
  type UploadProgressEvent,
} from '../schemas.js';
import { MAX_BODY_BYTES } from '../transport.js';
import { safeText } from '../text.js';
import { isPlainObject } from '../shape.js';
import {
  LocalFileError,
  openMultipart,
  openRaw,
  readUploadAnswer,
  UploadCutError,
  type LocalUpload,
} from '../upload.js';

export const DOCUMENT_KINDS = {
  contract: { path: '/v1/contracts', noun: 'contracts', upload: ContractUpload, processes: ContractProcesses },
  statement: { path: '/v1/statements', noun: 'statements', upload: StatementUpload, processes: StatementProcesses },
} as const;

export type DocumentKind = keyof typeof DOCUMENT_KINDS;
/** The answer of a signed-URL upload, with `staging_stage` its status so both flows print alike. */
export type SignedUpload = UploadComplete & { staging_stage: string; pause_reason?: string };
export type UploadRecord = ContractUpload | StatementUpload | SignedUpload;

/** The processes object of either kind, tagged so callers can tell them apart. */
export type DocumentProcesses =
  | { kind: 'contract'; data: ContractProcesses }
  | { kind: 'statement'; data: StatementProcesses };

export interface UploadOptions {
  /** Contract uploads only: full extraction names (`extract-…`). */
  extractions?: string[];
  /** The upload's `context` (docs/service.md); only the signed-URL flow can carry it. */
  context?: Record<string, unknown>;
  /** The folder to file it under; only the signed-URL flow can carry it. */
  folderName?: string;
  /** A request that may act (a mint, or a body that started) is on its way: the service may have something. */
  onStart?(): void;
  /** Body bytes handed to the transport, of the whole body. */
  onBytes?(sent: number, total: number): void;
  /** The service's `progress` events. */
  onProgress?(event: UploadProgressEvent): void;
  /**
   * Fail when nothing moves for this long (0: never): while the body goes out, a sent chunk; once
   * the service answers, an event (its keep-alive comments do not count: they prove a connection,
   * not progress).
   */
  idleTimeoutMs?: number;
  /** --wait-timeout: the longest the answer may take to confirm the upload once it began (0: no limit). */
  answerTimeoutMs?: number;
  /** Abandons the upload (an MCP client's cancel): the body stops, so the service makes no document. */
  signal?: AbortSignal;
  /** --allow-http and its kin: a signed upload URL over plain http to a host that is not loopback is used. */
  allowHttp?: boolean;
}

/** The hint every uncertain upload failure carries: the document may exist already. */
export function receivedHint(kind: DocumentKind): string {
  return `check with \`pds ${DOCUMENT_KINDS[kind].noun} ls\` before retrying: the upload may have been received`;
}

/** The statuses for which a service has no such route: it predates the signed-URL flow. */
const NO_SUCH_ROUTE = new Set([404, 405]);
/** A PUT cut by a reset is sent again this many times (an upsert: a second PUT replaces the first). */
const PUT_RETRIES = 2;

/** Step 1: a staging record and a signed URL; undefined when the service has no such route. Never resent. */
async function mint(
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
  };
  let answer: Record<string, unknown>;
  try {
    answer = await answerOf(http, request);
  } catch (error) {
    if (probing && error instanceof PdsError && error.status !== undefined && NO_SUCH_ROUTE.has(error.status))
      return undefined;
    if (
      error instanceof ServiceError &&
      error.status === undefined &&
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

/**
 * An answer that came (a 2xx) but does not hold what pds acts on: said as what it is, with the
 * request, the field and the value, never as a request that got no answer.
 */
export class MalformedAnswerError extends ServiceError {}

/** A staging id as the service may send it: a whole number, or its digits as a string. */
function stagingIdOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** A URL pds can follow: text that parses as one, over http(s). */
function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** A value of an answer as an error shows it: JSON, cut short, with nothing a terminal would act on. */
function shownValue(value: unknown): string {
  if (value === undefined) return 'missing';
  const json = JSON.stringify(value) ?? String(value);
  return safeText(json.length > 80 ? `${json.slice(0, 79)}…` : json);
}

/** `the answer to POST /v1/statements/uploads has staging_id "abc", not a staging id (a whole number)`. */
export function malformed(
  request: Pick<RequestOptions, 'method' | 'path'>,
  field: string,
  value: unknown,
  expected: string,
): MalformedAnswerError {
  const what = value === undefined ? `no ${field}` : `${field} ${shownValue(value)}`;
  return new MalformedAnswerError(
    `the service answered ${request.method ?? 'GET'} ${request.path} with ${what}, not ${expected}`,
  );
}

const withDetails = (error: MalformedAnswerError, details: string[]): MalformedAnswerError =>
  new MalformedAnswerError(error.message, { details: [...error.details, ...details], cause: error.cause });

/**
 * The `data` object of an answer to `request`, read whole. A failure to send or an HTTP error
 * comes as http.ts throws it; an answer that came but is not `{data: {…}}` is a MalformedAnswerError.
 */
export async function answerOf(http: HttpClient, request: RequestOptions): Promise<Record<string, unknown>> {
  const response = await http.send(request);
  const text = await response.text(MAX_BODY_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new MalformedAnswerError(
      `the service answered ${request.method ?? 'GET'} ${request.path} with HTTP ${response.status} and a body that is not JSON`,
    );
  }
  const data = isPlainObject(body) ? body.data : undefined;
  if (!isPlainObject(data)) throw malformed(request, 'data', data, 'an object');
  return data;
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

async function uploadSigned(
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

async function uploadSeed(
  http: HttpClient,
  kind: DocumentKind,
  projectId: string,
  file: LocalUpload,
  options: UploadOptions,
): Promise<UploadRecord> {
  checkSeedFlow(kind, file, options);
  return uploadMultipart(http, kind, projectId, file, options);
}

/**
 * The seed's upload (docs/service.md, "Uploads"). The request is resent only when it failed before its body
 * started (e.g. the connection was refused): once a byte of the body may have reached the
 * service, a resend could create a duplicate document, so the failure is reported instead.
 */
async function uploadMultipart(
  http: HttpClient,
  kind: DocumentKind,
  projectId: string,
  file: LocalUpload,
  options: UploadOptions,
): Promise<UploadRecord> {
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
    const parsed = envelope(spec.upload).safeParse(answer);
    if (!parsed.success) {
      throw new ServiceError(`unexpected answer to the upload (POST ${spec.path})`, {
        details: parsed.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`),
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

/**
 * The upload of one file, by whichever flow the service takes: the first upload of a command finds
 * out (signed URLs, or the seed's multipart request), the others wait for it and follow.
 */
function createUploader(http: HttpClient) {
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

/** The message of a storage host's XML error (`<Message>…</Message>`), or its first line. */
function storageMessage(text: string): string {
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1];
  return message ?? text.split('\n', 1)[0]?.slice(0, 300) ?? '';
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

/** Aborts when nothing happened for `ms`; every `touch` restarts the count. */
class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private stopped = false;
  fired = false;

  constructor(readonly ms: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    // After stop, a body chunk still being pulled must not arm a timer that keeps the process alive.
    if (this.ms <= 0 || this.fired || this.stopped) return;
    this.last = Date.now();
    // One timer, re-armed lazily: touching on every 64 KiB chunk must stay cheap.
    this.timer ??= setTimeout(() => this.check(), this.ms);
  }

  private check(): void {
    const quiet = Date.now() - this.last;
    if (quiet >= this.ms) {
      this.fired = true;
      this.timer = undefined;
      this.controller.abort(new Error('upload stalled'));
      return;
    }
    this.timer = setTimeout(() => this.check(), this.ms - quiet);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

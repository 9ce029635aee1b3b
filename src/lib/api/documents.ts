// Contract and statement documents: upload (SPEC 4.8, 4.9, 6) and processing status (4.10). The two
// kinds differ only in path, schemas and whether extractions exist, so one table describes them.
import type { HttpClient } from '../http.js';
import { ServiceError, PdsError } from '../errors.js';
import {
  ContractProcesses,
  ContractUpload,
  DownloadLink,
  StatementProcesses,
  StatementUpload,
  envelope,
  type UploadProgressEvent,
} from '../schemas.js';
import { LocalFileError, openMultipart, readUploadAnswer, UploadCutError, type LocalUpload } from '../upload.js';

export const DOCUMENT_KINDS = {
  contract: { path: '/v1/contracts', noun: 'contracts', upload: ContractUpload, processes: ContractProcesses },
  statement: { path: '/v1/statements', noun: 'statements', upload: StatementUpload, processes: StatementProcesses },
} as const;

export type DocumentKind = keyof typeof DOCUMENT_KINDS;
export type UploadRecord = ContractUpload | StatementUpload;

/** The processes object of either kind, tagged so callers can tell them apart. */
export type DocumentProcesses =
  | { kind: 'contract'; data: ContractProcesses }
  | { kind: 'statement'; data: StatementProcesses };

export interface UploadOptions {
  /** Contract uploads only: full extraction names (`extract-…`). */
  extractions?: string[];
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
  /** Abandons the upload (an MCP client's cancel): the body stops, so the service makes no document. */
  signal?: AbortSignal;
}

/** The hint every uncertain upload failure carries: the document may exist already. */
export function receivedHint(kind: DocumentKind): string {
  return `check with \`pds ${DOCUMENT_KINDS[kind].noun} ls\` before retrying: the upload may have been received`;
}

export function createDocumentsApi(http: HttpClient) {
  return {
    /**
     * Uploads one PDF. The request is resent only when it failed before its body started (e.g. the
     * connection was refused): once a byte of the body may have reached the service, a resend could
     * create a duplicate document, so the failure is reported instead.
     */
    async upload(kind: DocumentKind, projectId: string, file: LocalUpload, options: UploadOptions = {}): Promise<UploadRecord> {
      const spec = DOCUMENT_KINDS[kind];
      let started = false;
      let answered = false;
      let sentAll = false;
      const idle = new IdleWatch(options.idleTimeoutMs ?? 0);
      // Ends the request once the upload is decided: a service that answers (503, 413, 401) before
      // reading the body leaves the body still being sent, and its socket and byte callbacks kept
      // the process alive until the idle limit.
      const done = new AbortController();
      const fields: [string, string][] = options.extractions ? [['extractions', JSON.stringify(options.extractions)]] : [];
      const multipart = await openMultipart(file, fields, {
        onStart: () => {
          started = true;
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
          signal: AbortSignal.any([idle.signal, done.signal, ...(options.signal ? [options.signal] : [])]),
          stream: true,
          fresh: true,
        });
        answered = true;
        idle.touch();
        const answer = await readUploadAnswer(response, {
          onEvent: () => idle.touch(),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        });
        const parsed = envelope(spec.upload).safeParse(answer);
        if (!parsed.success) {
          throw new ServiceError(`unexpected answer to the upload (POST ${spec.path})`, {
            details: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`),
          });
        }
        return (parsed.data as { data: UploadRecord }).data;
      } catch (error) {
        throw explain(error, kind, started && !answered, idle, answered && sentAll);
      } finally {
        done.abort(new Error('the upload is over'));
        idle.stop();
        await multipart.close();
      }
    },

    /** `GET /v1/{contracts|statements}/{id}/download`: a signed URL of the document's file (not in the spec). */
    download(kind: DocumentKind, projectId: string, id: string): Promise<DownloadLink> {
      return http.data({ path: `${DOCUMENT_KINDS[kind].path}/${encodeURIComponent(id)}/download`, query: { projectId } }, DownloadLink);
    },

    /** `GET /v1/{contracts|statements}/{id}/processes`; a statement id or a staging id (statements). */
    async processes(kind: DocumentKind, projectId: string, id: string): Promise<DocumentProcesses> {
      const path = `${DOCUMENT_KINDS[kind].path}/${encodeURIComponent(id)}/processes`;
      if (kind === 'contract') return { kind, data: await http.data({ path, query: { projectId } }, ContractProcesses) };
      return { kind, data: await http.data({ path, query: { projectId } }, StatementProcesses) };
    },
  };
}

export type DocumentsApi = ReturnType<typeof createDocumentsApi>;

/**
 * An upload failure, said so that the user knows whether the document may exist: after the body
 * started, a broken connection, a timeout or a cut stream leave that open.
 */
function explain(error: unknown, kind: DocumentKind, sentUnanswered: boolean, idle: IdleWatch, received: boolean): unknown {
  const hint = receivedHint(kind);
  if (error instanceof LocalFileError) return error;
  // The whole body went out and the service answered: it has the file, only its events stopped.
  if (idle.fired && received) {
    const noun = DOCUMENT_KINDS[kind].noun;
    return new UploadCutError(`the service answered the upload but sent no event for ${idle.ms / 1000} s; pds stopped waiting`, {
      details: [
        `the service has received the file: follow it with \`pds ${noun} status <staging-id>\` (find the id with \`pds ${noun} ls\`)`,
        'wait longer with --timeout <seconds>',
      ],
      cause: error,
    });
  }
  if (idle.fired) {
    return new UploadCutError(`the upload stalled: nothing moved for ${idle.ms / 1000} s`, {
      details: [hint, 'raise the limit with --timeout <seconds>'],
      cause: error,
    });
  }
  if (error instanceof UploadCutError) return new UploadCutError(error.message, { details: [hint], cause: error.cause });
  // A network failure (no HTTP status) after the body started and before an answer: the service may
  // have the file.
  if (sentUnanswered && error instanceof ServiceError && error.status === undefined) {
    return new UploadCutError('the connection broke during the upload', { details: [hint], cause: error.cause ?? error });
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

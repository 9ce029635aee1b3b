// 4.8–4.10: contract and statement uploads (JSON or server-sent progress events) and their
// processing status. The state machine itself lives in ../processing.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HttpError,
  deployedForms,
  driftedForms,
  notSaved,
  queryProject,
  type Handler,
  type Reply,
  type RouteContext,
  type Route,
} from '../http.js';
import { advance } from '../upload-records.js';
import {
  contractProcesses,
  deployedProcesses,
  seededStatementProcesses,
  statementProcesses,
  uploadBody,
} from '../processing.js';
import { invalidateWorkspace } from '../sandbox/workspace.js';
import { countersOf, newUpload, type DocumentKind, type UploadRecord } from '../store.js';
import { hasPdfTrailer, receiveUpload, uploadForm } from '../uploads.js';
import { contentLength, errorReply } from '../request-body.js';

/**
 * Moves every upload along its state machine to the current time; called before each request.
 * What that derives is written to the journal before the request is answered; when the write
 * fails the request is a 500, and the next snapshot catches up (the change is already applied).
 */
export async function advanceUploads(ctx: RouteContext, markBehind: () => void): Promise<void> {
  const { changed, changes } = advance(ctx.state, ctx.now(), ctx.options.processingMs, deployedForms(ctx.options));
  if (changes.length === 0) return;
  for (const data of changed) invalidateWorkspace(data);
  try {
    await ctx.commit(changes);
  } catch {
    markBehind();
    throw notSaved('the progress of uploads');
  }
}

const PROGRESS_BYTES_UNKNOWN_TOTAL = 64 * 1024;

/**
 * The event stream of docs/service.md, "Uploads". It opens (200, then events) only once every 400 check is
 * decided (receiveUpload's onReady): for multipart, the fields before the file valid and its first
 * bytes a PDF's; for JSON, whose members come in any order, the whole body read and checked (its
 * bytes still counted as they arrive; the stream then carries one progress event at 100 %). Until
 * then nothing is sent, so a bad upload gets the plain 400 of docs/service.md, "Uploads", as it would without
 * the stream. A problem found after that (the size limit crossed mid-file) is an `error` event
 * carrying the `{"error": …}` body and, as clients read it, `message` at the top level.
 * Progress counts body bytes against Content-Length: for multipart that includes the few hundred
 * bytes of part headers, which is what a client sees its own upload counter do.
 */
class ProgressStream {
  private received = 0;
  private lastPercent = -1;
  private lastReported = 0;
  private opened = false;

  constructor(
    private readonly res: ServerResponse,
    /** Content-Length; undefined for a chunked body, whose progress then reads 0 % until the end. */
    private readonly total: number | undefined,
  ) {}

  get isOpen(): boolean {
    return this.opened;
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    this.res.flushHeaders();
  }

  /** One event per new whole percent (or per 64 KiB when the total is unknown); 100 % waits for the checks. */
  bytes(received: number): void {
    this.received = received;
    if (!this.opened) return;
    if (this.total) {
      const percent = Math.floor((received * 100) / this.total);
      if (percent >= 100 || percent <= this.lastPercent) return;
      this.lastPercent = percent;
      this.send('progress', { bytesUploaded: received, bytesTotal: this.total, percent });
    } else if (received - this.lastReported >= PROGRESS_BYTES_UNKNOWN_TOTAL) {
      this.lastReported = received;
      this.send('progress', { bytesUploaded: received, bytesTotal: 0, percent: 0 });
    }
  }

  complete(body: unknown): void {
    this.open();
    const total = this.total ?? this.received;
    this.send('progress', { bytesUploaded: this.received, bytesTotal: total, percent: 100 });
    this.send('complete', body);
    this.res.end();
  }

  fail(error: HttpError): void {
    this.send('error', { ...error.body(), message: messageOf(error) });
    this.res.end();
  }

  private send(event: string, data: unknown): void {
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

/** One line for an error: its message, or its field errors as `field: problem; …`. */
const messageOf = (error: HttpError): string =>
  typeof error.detail === 'string'
    ? error.detail
    : Object.entries(error.detail)
        .map(([field, problems]) => `${field}: ${problems.join(', ')}`)
        .join('; ');

const wantsEventStream = (req: IncomingMessage): boolean =>
  (req.headers.accept ?? '').toLowerCase().includes('text/event-stream');

async function upload(ctx: RouteContext, kind: DocumentKind): Promise<Reply | undefined> {
  const { project } = queryProject(ctx);
  const form = uploadForm(ctx.req);
  const stream = wantsEventStream(ctx.req) ? new ProgressStream(ctx.res, contentLength(ctx.req)) : undefined;
  let received: Awaited<ReturnType<typeof receiveUpload>>;
  const file = ctx.storage?.receive();
  try {
    received = await receiveUpload(ctx.req, form, {
      kind,
      ...(stream && { onBytes: (n: number) => stream.bytes(n), onReady: () => stream.open() }),
      ...(file && { onFileChunk: file.write }),
    });
  } catch (error) {
    file?.discard();
    if (!(error instanceof HttpError)) throw error;
    if (!stream?.isOpen) return errorReply(error);
    stream.fail(error);
    return undefined;
  }
  const now = ctx.now();
  const stored = {
    kind,
    project_id: project.id,
    file_name: received.fileName,
    // The magic bytes proved it; a declared application/octet-stream is not worth keeping.
    file_type: 'application/pdf',
    file_size: received.size,
  };
  const record = newUpload(ctx.state, now, stored, {
    ...(!hasPdfTrailer(received.tail) && {
      staging_error: 'the file does not end with %%EOF; it may be truncated or damaged',
    }),
    extractions: received.extractions ?? [],
  });
  // The file is in place before its record is durable (its staging id is never given again).
  file?.commit(record.staging_id);
  try {
    // Durable before it is answered; applied to the state only once durable.
    await ctx.commit([{ upload: record }, countersOf(ctx.state)]);
  } catch {
    const error = notSaved('the upload');
    if (!stream?.isOpen) return errorReply(error);
    stream.fail(error);
    return undefined;
  }
  ctx.record.upload = {
    fileName: received.fileName,
    size: received.size,
    form: received.form,
    ...(received.extractions && { extractions: received.extractions }),
  };
  const body = { data: uploadBody(record, now, ctx.options.processingMs) };
  if (!stream) return { body };
  stream.complete(body);
  return undefined;
}

/**
 * The numeric id in a processes path. A non-numeric id names no upload, so it is a 404 like any
 * unknown id: docs/service.md, "Processes" keeps its 400 for the projectId.
 */
function pathId(ctx: RouteContext, kind: DocumentKind): number {
  const raw = ctx.params.id ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(404, `${kind} upload '${raw}' not found`);
  return Number(raw);
}

const findUpload = (
  ctx: RouteContext,
  kind: DocumentKind,
  projectId: string,
  matches: (upload: UploadRecord) => boolean,
): UploadRecord | undefined =>
  ctx.state.uploads.find((u) => u.kind === kind && u.project_id === projectId && matches(u));

/** A processes answer in the flavor's form. */
const processesReply = (ctx: RouteContext, body: Record<string, unknown>): Reply => ({
  body: { data: deployedForms(ctx.options) ? deployedProcesses(body) : body },
});

const getContractProcesses: Handler = (ctx) => {
  const { project } = queryProject(ctx);
  const id = pathId(ctx, 'contract');
  const record = findUpload(ctx, 'contract', project.id, (u) => u.staging_id === id);
  if (!record) throw new HttpError(404, `contract upload '${id}' not found`);
  return processesReply(ctx, contractProcesses(record, ctx.now(), ctx.options.processingMs));
};

const getStatementProcesses: Handler = (ctx) => {
  const { project, data } = queryProject(ctx);
  const id = pathId(ctx, 'statement');
  // The staging id first: it is what the upload answered, and the spec lets both resolve.
  const record =
    findUpload(ctx, 'statement', project.id, (u) => u.staging_id === id) ??
    findUpload(ctx, 'statement', project.id, (u) => u.result_id === id);
  const drift = driftedForms(ctx.options);
  if (record) return processesReply(ctx, statementProcesses(record, ctx.now(), ctx.options.processingMs, drift));
  const statement = data.statements.find((s) => s.id === id);
  if (statement) return processesReply(ctx, seededStatementProcesses(statement, drift));
  throw new HttpError(404, `statement or statement upload '${id}' not found`);
};

export const documentRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/contracts', handler: (ctx) => upload(ctx, 'contract') },
  { method: 'POST', pattern: '/v1/statements', handler: (ctx) => upload(ctx, 'statement') },
  { method: 'GET', pattern: '/v1/contracts/:id/processes', handler: getContractProcesses },
  { method: 'GET', pattern: '/v1/statements/:id/processes', handler: getStatementProcesses },
];

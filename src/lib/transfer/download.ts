// Saving a file from a signed URL on a storage host. Two promises: the storage host never sees a
// pds credential (the request carries no Authorization header and no cookie: it is another host),
// and a failure or Ctrl-C never leaves a half-written file at the target. The bytes go to a
// temporary file beside the target, which takes the target's name only once complete: its length
// matches Content-Length when there is one, and it starts with %PDF-.
import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { cannotWrite, exists, place, sameContent, targetKind } from './save-target.js';
import type { Writable } from 'node:stream';
import { InterruptedError, PdsError, ServiceError } from '../errors.js';
import type { Context } from '../context.js';
import { createTransport, type HttpResponse, type Transport } from '../http/transport.js';
import { refusePlainHttp } from '../http/safety.js';
import { formatBytes } from '../output/text.js';
import { invalidResponse } from '../http/failures.js';
import { decoded, decodeFailure, encodingOf, PROGRESS_BYTES, rawBody, type Progress } from './body.js';
import { DEFAULT_MAX_BYTES } from './sizes.js';

const PDF_MAGIC = Buffer.from('%PDF-');

/** The storage host refused the URL (403): it expired, or its signature no longer matches. */
export class StorageDeniedError extends ServiceError {}

export interface SaveOptions {
  transport: Transport;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** Fail when no byte arrives for this long. */
  idleTimeoutMs: number;
  /** --max-size: a file larger than this is cut and refused, whatever the storage host says. */
  maxBytes: number;
  userAgent: string;
  /** Replace an existing target. */
  force: boolean;
  /** One line per request and answer, when --verbose; the URL's query (its signature) is left out. */
  trace?: (line: string) => void;
  /** Bytes received so far, and the total when the storage host announced it. */
  onBytes?(received: number, total: number | undefined): void;
  /** The file is a PDF (its first bytes are checked); false for a statement of another format. */
  pdf?: boolean;
  /** The Accept header: what the file is expected to be (a PDF by default). */
  accept?: string;
  /** --allow-http and its kin: a signed URL over plain http to a host that is not loopback is fetched. */
  allowHttp: boolean;
  /** How the user raises maxBytes, for the error that says it was reached (a command without --max-size says none). */
  maxSizeHint?: string;
}

/** Whether a download link names a PDF: by its type, else by its name; a link naming neither is taken as one. */
export function isPdf(link: Record<string, unknown>): boolean {
  if (typeof link.fileType === 'string' && link.fileType !== '')
    return link.fileType.toLowerCase() === 'application/pdf';
  return typeof link.fileName !== 'string' || link.fileName === '' || /\.pdf$/i.test(link.fileName);
}

/** What every fetch from storage in a command shares: its Ctrl-C, its timeout as the idle limit, --verbose. */
export function storageOptions(
  ctx: Context,
  force: boolean,
  maxBytes = DEFAULT_MAX_BYTES,
): Omit<SaveOptions, 'onBytes'> {
  return {
    transport: createTransport(ctx.env),
    signal: ctx.signal,
    idleTimeoutMs: ctx.settings.timeoutMs,
    maxBytes,
    userAgent: `pds/${ctx.version} node/${process.versions.node}`,
    force,
    allowHttp: ctx.settings.allowHttp,
    maxSizeHint: 'raise the limit with --max-size <size> (e.g. 2G), if the file is expected to be that large',
    ...(ctx.settings.verbose ? { trace: (line: string) => ctx.io.stderr.write(`${line}\n`) } : {}),
  };
}

export interface Saved {
  bytes: number;
  /** The target existed with the same size: nothing was written. */
  upToDate: boolean;
}

/**
 * Fetches `url` into the file `target`; see the module comment for the guarantees. A target that is
 * a FIFO, a character device or a descriptor (`/dev/fd/N`, `/dev/stdout`, a shell's `>(…)`) is
 * written into as it is: no temporary file, no rename, --force or not.
 */
export async function saveToFile(url: string, target: string, options: SaveOptions): Promise<Saved> {
  const kind = await targetKind(target);
  if (kind === 'stream') return saveIntoStream(url, target, options);
  const existing = kind === 'new' ? undefined : kind.size;
  // The file is made before storage is asked: a target that cannot be written costs no download.
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  let handle: FileHandle | undefined = await open(temporary, 'wx').catch((error: unknown) => {
    throw cannotWrite(target, error);
  });
  try {
    const request = await get(url, options);
    const { response, total } = request;
    try {
      // Another size is other content: known before a byte is read when Content-Length says it.
      if (existing !== undefined && !options.force && total !== undefined && total !== existing)
        throw exists(target, existing, total);
      const file = handle;
      const bytes = await receive(response, total, request, options, (chunk) =>
        file.write(chunk).then(() => undefined),
      );
      await handle.close();
      handle = undefined;
      if (existing !== undefined && !options.force) {
        // Up to date means the same bytes, not the same size: a statement reprocessed with other
        // amounts of the same length must not be kept.
        if (bytes === existing && (await sameContent(temporary, target))) return { bytes, upToDate: true };
        throw exists(target, existing, bytes, bytes === existing);
      }
      await place(temporary, target, options.force, bytes);
      return { bytes, upToDate: false };
    } finally {
      request.done();
    }
  } finally {
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true });
  }
}

/** Fetches `url` to a stream (stdout): nothing is written until the first bytes prove a PDF. */
export async function saveToStream(url: string, out: Writable, options: SaveOptions): Promise<Saved> {
  return saveInto(
    url,
    (chunk) =>
      out.write(chunk)
        ? undefined
        : new Promise<void>((resolve, reject) => {
            const onError = (error: Error) => reject(error);
            out.once('error', onError);
            out.once('drain', () => {
              out.off('error', onError);
              resolve();
            });
          }),
    options,
  );
}

/**
 * Fetches `url` chunk by chunk into `write` (decoded when the storage host sent it encoded), the next
 * chunk read once the promise `write` answers settles. A PdsError `write` throws ends the fetch as it is.
 */
export async function saveInto(
  url: string,
  write: (chunk: Uint8Array) => Promise<void> | undefined,
  options: SaveOptions,
): Promise<Saved> {
  const request = await get(url, options);
  try {
    const bytes = await receive(request.response, request.total, request, options, write);
    return { bytes, upToDate: false };
  } finally {
    request.done();
  }
}

interface OpenRequest extends Progress {
  origin: string;
  response: HttpResponse;
  total: number | undefined;
  /** Whether the idle limit ended the request. */
  idle(): boolean;
  /** Ends the request (and its timer), read or not. */
  done(): void;
}

/** GET without any credential; a 2xx answer or a typed error. */
async function get(url: string, options: SaveOptions): Promise<OpenRequest> {
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    throw new ServiceError(`the service gave a download URL that is not http(s): ${target.protocol}`);
  }
  // Before any connection: the signed URL is a credential for the file, and the file is the user's data.
  refusePlainHttp({
    url: target,
    allowHttp: options.allowHttp,
    what: 'the signed download URL',
    instead: 'a service whose storage answers over https',
    details: [`the service's download URL is http://${target.host}${target.pathname}`],
  });
  const ending = new AbortController();
  let idled = false;
  const timer = setTimeout(() => {
    idled = true;
    ending.abort(new Error('download stalled'));
  }, options.idleTimeoutMs);
  const signal = AbortSignal.any([options.signal, ending.signal]);
  let sinceProgress = 0;
  let first = true;
  const request: Omit<OpenRequest, 'response' | 'total'> = {
    origin: target.origin,
    // A trickle (a byte every few seconds) is a stall too: only the first chunk and every
    // PROGRESS_BYTES after it count as progress.
    touch: (bytes) => {
      sinceProgress += bytes;
      if (!first && sinceProgress < PROGRESS_BYTES) return;
      first = false;
      sinceProgress = 0;
      timer.refresh();
    },
    idle: () => idled,
    done: () => {
      clearTimeout(timer);
      ending.abort(new Error('done'));
    },
  };
  let response: HttpResponse;
  options.trace?.(`> GET ${target.origin}${target.pathname} (signed URL, sent without credentials)`);
  // Only these two headers: no Authorization, no cookie, nothing that names the user.
  const headers = { 'user-agent': options.userAgent, accept: options.accept ?? 'application/pdf, */*' };
  try {
    try {
      response = await options.transport(target, { method: 'GET', headers, signal });
    } catch (error) {
      // A kept-alive connection the storage host closed as it was reused: a GET asked again, once, on a new one.
      if (signal.aborted || !isStaleConnection(error)) throw error;
      response = await options.transport(target, { method: 'GET', headers, signal, fresh: true });
    }
  } catch (error) {
    request.done();
    throw failure(error, options, { origin: target.origin, idled });
  }
  options.trace?.(`< ${response.status} ${response.statusText}`);
  timer.refresh();
  if (!response.ok) {
    request.done();
    const message = `the storage host ${target.origin} answered HTTP ${response.status}`;
    if (response.status === 403)
      throw new StorageDeniedError(`${message}: the download URL expired or was refused`, { status: 403 });
    throw new ServiceError(message, { status: response.status });
  }
  const header = response.headers.get('content-length');
  const total = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
  return { response, total, ...request };
}

/**
 * Reads the body into `write`, decoded when the storage host encoded it, checking the PDF magic
 * first and the length last. The size limit applies to the decoded bytes; Content-Length to the
 * bytes as sent.
 */
async function receive(
  response: HttpResponse,
  total: number | undefined,
  request: OpenRequest,
  options: SaveOptions,
  write: (chunk: Uint8Array) => Promise<void> | undefined,
): Promise<number> {
  let received = 0;
  let head = Buffer.alloc(0);
  const pdf = options.pdf !== false;
  const encoding = encodingOf(response);
  if (encoding === undefined && total !== undefined && total > options.maxBytes)
    throw tooLarge(options, `it is ${formatBytes(total)}`);
  let writeFailure: unknown;
  const put = async (chunk: Uint8Array): Promise<void> => {
    try {
      await write(chunk);
    } catch (error) {
      writeFailure = error;
      throw error;
    }
  };
  // The bytes as sent (encoded), to say how much of a body that was cut short arrived.
  let sent = 0;
  const counted: Progress = {
    touch: (bytes) => {
      sent += bytes;
      request.touch(bytes);
    },
  };
  try {
    const source = rawBody(response, total, counted);
    const body = encoding === undefined ? source : await decoded(source, encoding);
    for await (const chunk of body) {
      const after = received + (pdf && head.length < PDF_MAGIC.length ? head.length : 0) + chunk.length;
      if (after > options.maxBytes) throw tooLarge(options, 'more arrived');
      if (pdf && head.length < PDF_MAGIC.length) {
        head = Buffer.concat([head, chunk]);
        const n = Math.min(head.length, PDF_MAGIC.length);
        if (!head.subarray(0, n).equals(PDF_MAGIC.subarray(0, n))) throw notPdf();
        if (head.length < PDF_MAGIC.length) continue;
        received += head.length;
        await put(head);
      } else {
        received += chunk.length;
        await put(chunk);
      }
      options.onBytes?.(received, encoding === undefined ? total : undefined);
    }
  } catch (error) {
    if (error instanceof PdsError && (error instanceof ServiceError || error === writeFailure)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('HPE_')) {
      throw new ServiceError(
        `the storage host sent more than its answer announced, or not HTTP (${code}); pds stopped reading`,
        { cause: error },
      );
    }
    const undecodable = decodeFailure(error, encoding, sent);
    if (undecodable) throw undecodable;
    // Content-Length counts the bytes as sent: an encoded body cut short says how many of those arrived.
    const arrived = encoding === undefined ? received : sent;
    throw failure(error, options, { origin: request.origin, idled: request.idle(), received: arrived, total });
  }
  if (received === 0) throw new ServiceError('the storage host sent an empty file');
  if (pdf && received < PDF_MAGIC.length) throw notPdf();
  if (encoding === undefined && total !== undefined && received !== total) {
    throw new ServiceError(`the download was cut short: ${received} of ${total} bytes arrived`);
  }
  return received;
}

/** A transport or stream failure, said for a person; Ctrl-C becomes InterruptedError. */
function failure(
  error: unknown,
  options: SaveOptions,
  { origin, idled, received, total }: { origin: string; idled: boolean; received?: number; total?: number | undefined },
): Error {
  if (options.signal.aborted) return new InterruptedError();
  if (idled) {
    return new ServiceError(
      `the download stalled: less than ${PROGRESS_BYTES / 1024} KiB arrived in ${options.idleTimeoutMs / 1000} s`,
      {
        details: ['raise the limit with --timeout <seconds>'],
      },
    );
  }
  const invalid = invalidResponse(error, `the storage host ${origin}`);
  if (invalid) return invalid;
  if (received !== undefined) {
    const of = total === undefined ? '' : ` of ${total}`;
    return new ServiceError(`the download was cut short: ${received}${of} bytes arrived`, { cause: error });
  }
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return new ServiceError(`cannot reach the storage host ${origin}${code ? ` (${code})` : ''}`, { cause: error });
}

const isStaleConnection = (error: unknown): boolean => {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return code === 'ECONNRESET' || code === 'EPIPE';
};

/** The body is larger than SaveOptions.maxBytes: reading stopped there (or never began, by its Content-Length). */
export class TooLargeError extends ServiceError {}

const tooLarge = ({ maxBytes, maxSizeHint }: SaveOptions, what: string): TooLargeError =>
  new TooLargeError(
    `the download is larger than the ${maxSizeHint === undefined ? '' : '--max-size '}limit of ${formatBytes(maxBytes)} (${what}); pds stopped reading it`,
    {
      details: maxSizeHint === undefined ? [] : [maxSizeHint],
    },
  );

const notPdf = (): ServiceError =>
  new ServiceError('the storage host sent a file that is not a PDF (it does not start with %PDF-)');

/** Writes the download into a FIFO, device or descriptor, opened as it is (never created or renamed). */
async function saveIntoStream(url: string, target: string, options: SaveOptions): Promise<Saved> {
  const handle = await open(target, 'w').catch((error: unknown) => {
    throw cannotWrite(target, error);
  });
  try {
    const request = await get(url, options);
    try {
      const bytes = await receive(request.response, request.total, request, options, (chunk) =>
        handle.write(chunk).then(() => undefined),
      );
      return { bytes, upToDate: false };
    } finally {
      request.done();
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

// The client side of an upload (docs/service.md, "Uploads"): local checks before anything is sent, a
// multipart body that streams from disk with a known length, byte counting as the transport pulls
// the body, and the answer, which is a server-sent event stream or a plain JSON body.
//
// Why a hand-written multipart encoder rather than FormData: FormData hides how many bytes have
// gone out, and the live progress line needs that count. The encoder is ~40 lines; the parser is
// the service's business. The body has a known Content-Length so the service can report a percent.
import { randomBytes } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { UploadProgressEvent } from './schemas.js';
import { HEAD_BYTES, formatOf, magicProblem, type DocumentKind } from './formats.js';
import { ServiceError, errorFromResponse, type PdsError } from './errors.js';
import type { HttpResponse } from './transport.js';
import { formatBytes } from './text.js';

/** docs/service.md, "Two forms" says "50 MB"; the service (and its emulator) read it as MiB. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;

/** A file that passed the local checks, ready to be sent. */
export interface LocalUpload {
  /** What the user typed: a path, or `-` for stdin. */
  arg: string;
  /** The name the service is told (the base name, or --file-name). */
  fileName: string;
  /** The MIME type its extension names (docs/service.md), sent as `fileType`. */
  fileType: string;
  size: number;
  /** The file's device and inode (`dev:ino`): the same file reached by two paths, or two links, has one. */
  identity?: string;
  /**
   * `handle`: the file already open, checked as it is open (checkOpenFile, for pds mcp): the upload
   * reads it and never the path, and whoever opened it closes it.
   */
  source: { kind: 'file'; path: string; handle?: FileHandle } | { kind: 'buffer'; data: Buffer };
}

/** Why a file cannot be uploaded; one line, prefixed by the file when shown. */
export class LocalFileError extends Error {
  constructor(
    readonly arg: string,
    readonly problem: string,
  ) {
    super(`${arg}: ${problem}`);
  }
}

function sizeProblem(size: number): string | undefined {
  if (size === 0) return 'the file is empty';
  if (size > MAX_UPLOAD_BYTES) {
    return `${formatBytes(size)} (${size} bytes) is over the 50 MiB upload limit (${MAX_UPLOAD_BYTES} bytes)`;
  }
  return undefined;
}

function fsProblem(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a file';
  return error instanceof Error ? error.message : String(error);
}

/** The format a name has for a kind, and whether the first bytes are that format's; throws LocalFileError. */
function checkFormat(arg: string, kind: DocumentKind, fileName: string, head: Uint8Array): string {
  const format = formatOf(kind, fileName);
  if (typeof format === 'string') throw new LocalFileError(arg, format);
  const problem = magicProblem(format, head);
  if (problem) throw new LocalFileError(arg, arg === '-' ? problem.replace('the file', 'stdin') : problem);
  return format.type;
}

/** Checks a file on disk (exists, regular file, size, format by name and first bytes); throws LocalFileError. */
export async function checkFile(path: string, kind: DocumentKind, fileName?: string): Promise<LocalUpload> {
  const name = fileName ?? basename(path);
  // The name first: a refused extension needs no disk access.
  if (typeof formatOf(kind, name) === 'string') checkFormat(path, kind, name, new Uint8Array());
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    throw new LocalFileError(path, fsProblem(error));
  }
  if (info.isDirectory()) throw new LocalFileError(path, 'is a directory, not a file');
  if (!info.isFile()) throw new LocalFileError(path, 'is not a regular file');
  const tooBig = sizeProblem(info.size);
  if (tooBig) throw new LocalFileError(path, tooBig);
  let handle: FileHandle | undefined;
  const head = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
  try {
    handle = await open(path, 'r');
    await handle.read(head, 0, head.length, 0);
  } catch (error) {
    throw new LocalFileError(path, fsProblem(error));
  } finally {
    await handle?.close();
  }
  const fileType = checkFormat(path, kind, name, head);
  return {
    arg: path,
    fileName: name,
    fileType,
    size: info.size,
    identity: `${info.dev}:${info.ino}`,
    source: { kind: 'file', path },
  };
}

/**
 * Checks a file already open (regular, size, format by name and first bytes), reading only from
 * `handle`: the upload then reads the same handle, so what is sent is what was checked.
 */
export async function checkOpenFile(
  handle: FileHandle,
  arg: string,
  kind: DocumentKind,
  fileName: string,
): Promise<LocalUpload> {
  if (typeof formatOf(kind, fileName) === 'string') checkFormat(arg, kind, fileName, new Uint8Array());
  const info = await handle.stat();
  if (info.isDirectory()) throw new LocalFileError(arg, 'is a directory, not a file');
  if (!info.isFile()) throw new LocalFileError(arg, 'is not a regular file');
  const tooBig = sizeProblem(info.size);
  if (tooBig) throw new LocalFileError(arg, tooBig);
  const head = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
  await handle.read(head, 0, head.length, 0);
  const fileType = checkFormat(arg, kind, fileName, head);
  return { arg, fileName, fileType, size: info.size, source: { kind: 'file', path: arg, handle } };
}

/**
 * Reads one file from stdin. It is read whole (at most 50 MiB, refused beyond) so that it can be
 * checked like a file before anything is sent and be sent with a known length; a pipe cannot be
 * rewound. So a stdin upload holds the document in memory, unlike a file upload.
 */
export async function readStdin(stream: Readable, fileName: string, kind: DocumentKind): Promise<LocalUpload> {
  if (typeof formatOf(kind, fileName) === 'string') checkFormat('-', kind, fileName, new Uint8Array());
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_UPLOAD_BYTES) {
      stream.destroy();
      throw new LocalFileError('-', `stdin holds more than the 50 MiB upload limit (${MAX_UPLOAD_BYTES} bytes)`);
    }
    chunks.push(buffer);
  }
  const data = Buffer.concat(chunks);
  const tooSmall = sizeProblem(data.length);
  if (tooSmall) throw new LocalFileError('-', tooSmall.replace('the file', 'stdin'));
  const fileType = checkFormat('-', kind, fileName, data.subarray(0, HEAD_BYTES));
  return { arg: '-', fileName, fileType, size: data.length, source: { kind: 'buffer', data } };
}

export interface MultipartBody {
  /**
   * Re-iterable: each iteration sends the whole body again (only ever used before a byte went out).
   * A chunk is valid only until the next one is pulled: the file is read into one reused buffer,
   * because 50 MB of fresh chunk buffers is garbage the GC reclaims late (it doubled peak memory).
   * The transport waits for each chunk to reach the socket before pulling the next (the proxy path
   * copies each chunk as it pulls it).
   */
  body: AsyncIterable<Uint8Array>;
  contentType: string;
  length: number;
  close(): Promise<void>;
}

export interface BodyHooks {
  /** The transport pulled the first bytes: from now on the request must not be resent. */
  onStart?(): void;
  /** Body bytes handed to the transport so far, of `total`. */
  onBytes?(sent: number, total: number): void;
}

/** `filename="…"` as browsers write it, plus the RFC 5987 form when the name is not ASCII. */
function dispositionName(name: string): string {
  const quoted = name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  // eslint-disable-next-line no-control-regex
  if (/^[\x20-\x7e]*$/.test(name)) return `filename="${quoted}"`;
  // eslint-disable-next-line no-control-regex
  const fallback = quoted.replace(/[^\x20-\x7e]/g, '_');
  return `filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The file's bytes, read from the handle opened when the upload started (or from memory). */
interface OpenSource {
  size: number;
  /**
   * Each call starts again at byte 0 (a resend, or a retried PUT). A chunk is valid only until the
   * next one is pulled: the file is read into one reused buffer, because 50 MB of fresh chunk
   * buffers is garbage the GC reclaims late (it doubled peak memory).
   */
  chunks(): AsyncGenerator<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Opens the file before the request, so a file that vanished since the check fails without a
 * request; the handle is then read from, never the path again.
 */
async function openSource(upload: LocalUpload): Promise<OpenSource> {
  const source = upload.source;
  if (source.kind === 'buffer') {
    return {
      size: source.data.length,
      async *chunks() {
        for (let offset = 0; offset < source.data.length; offset += CHUNK_BYTES)
          yield source.data.subarray(offset, offset + CHUNK_BYTES);
      },
      close: async () => undefined,
    };
  }
  let handle: FileHandle | undefined;
  let size: number;
  try {
    handle = source.handle ?? (await open(source.path, 'r'));
    size = (await handle.stat()).size;
  } catch (error) {
    if (!source.handle) await handle?.close();
    throw new LocalFileError(upload.arg, `cannot be read any more: ${fsProblem(error)}`);
  }
  const changed = sizeProblem(size);
  if (changed) {
    if (!source.handle) await handle.close();
    throw new LocalFileError(upload.arg, `changed since it was checked: ${changed}`);
  }
  const fileHandle = handle;
  return {
    size,
    async *chunks() {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
      let read = 0;
      while (read < size) {
        const { bytesRead } = await fileHandle.read(buffer, 0, Math.min(buffer.length, size - read), read);
        if (bytesRead === 0) throw new Error(`${upload.arg} shrank while it was being uploaded`);
        read += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    },
    close: source.handle ? async () => undefined : () => fileHandle.close(),
  };
}

/** A body that reports its first pull and each chunk's bytes as the transport takes them. */
function countedBody(
  length: number,
  parts: () => AsyncGenerator<Uint8Array>,
  hooks: BodyHooks,
): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      let sent = 0;
      for await (const chunk of parts()) {
        if (sent === 0) hooks.onStart?.();
        sent += chunk.length;
        hooks.onBytes?.(sent, length);
        yield chunk;
      }
    },
  };
}

/**
 * Opens the file and builds the multipart body around it (the seed's upload, docs/service.md, "Uploads"). Fields go
 * before the file so the service can refuse them before the large part.
 */
export async function openMultipart(
  upload: LocalUpload,
  fields: [string, string][],
  hooks: BodyHooks = {},
): Promise<MultipartBody> {
  const source = await openSource(upload);
  const boundary = `----pds-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    fields
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${dispositionName(upload.fileName)}\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + source.size + tail.length;
  async function* parts(): AsyncGenerator<Uint8Array> {
    yield head;
    yield* source.chunks();
    yield tail;
  }
  return {
    body: countedBody(length, parts, hooks),
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    close: source.close,
  };
}

/** The file's raw bytes as a re-iterable body (the signed-URL PUT), with its length. */
export async function openRaw(
  upload: LocalUpload,
  hooks: BodyHooks = {},
): Promise<{ body: AsyncIterable<Uint8Array>; length: number; close(): Promise<void> }> {
  const source = await openSource(upload);
  return { body: countedBody(source.size, () => source.chunks(), hooks), length: source.size, close: source.close };
}

/** The answer to an upload ended before the service confirmed it (SSE cut short, connection lost). */
export class UploadCutError extends ServiceError {}

export interface AnswerHooks {
  onProgress?(event: UploadProgressEvent): void;
  /**
   * Called for every event of a stream that says something new (keeps an idle watchdog quiet): not
   * for comments, nor for a progress event that repeats the one before (an endless 100 %).
   */
  onEvent?(): void;
}

/** What a stream may send without completing an event: far above any event the service sends. */
const MAX_PENDING_EVENT_BYTES = 1024 * 1024;

/**
 * The body of an upload's answer: `{data: …}` from a plain JSON answer or from the `complete`
 * event of an event stream. An `error` event becomes the service's error; a stream that ends
 * without `complete` an UploadCutError. What the caller should do next is its business (it knows
 * the kind of document); the messages here say what happened.
 */
export async function readUploadAnswer(response: HttpResponse, hooks: AnswerHooks = {}): Promise<unknown> {
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (!type.includes('text/event-stream')) {
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ServiceError(
        `the service answered the upload with a body that is neither JSON nor an event stream (${type || 'no content type'})`,
      );
    }
  }
  let complete: { body: unknown } | undefined;
  let failure: PdsError | undefined;
  let pendingBytes = 0;
  let lastProgress: string | undefined;
  const onEvent = (event: EventSourceMessage): void => {
    pendingBytes = 0;
    if (event.event !== 'progress' || event.data !== lastProgress) hooks.onEvent?.();
    if (event.event === 'progress') lastProgress = event.data;
    if (complete || failure) return;
    const data = parseJson(event.data);
    if (event.event === 'progress') {
      const progress = UploadProgressEvent.safeParse(data);
      if (progress.success) hooks.onProgress?.(progress.data);
    } else if (event.event === 'complete') {
      complete = { body: data };
    } else if (event.event === 'error') {
      failure = eventError(data);
    }
  };
  const parser = createParser({ onEvent });
  const decoder = new TextDecoder();
  const body = response.body;
  try {
    if (body) {
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        pendingBytes += chunk.length;
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (complete || failure) break;
        // Comments and an endless unfinished event are bytes the parser may hold on to: bounded.
        if (pendingBytes > MAX_PENDING_EVENT_BYTES) {
          throw new StreamTooLargeError(
            `the service sent more than ${MAX_PENDING_EVENT_BYTES / (1024 * 1024)} MiB of its event stream without an event`,
          );
        }
      }
    }
    parser.feed(decoder.decode());
  } catch (error) {
    if (error instanceof StreamTooLargeError) throw new UploadCutError(error.message);
    if (!complete && !failure) {
      throw new UploadCutError('the connection broke before the service confirmed the upload', { cause: error });
    }
  }
  if (failure) throw failure;
  if (!complete) throw new UploadCutError('the service ended the progress stream without confirming the upload');
  return complete.body;
}

class StreamTooLargeError extends Error {}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An `error` event carries the error body of docs/service.md, "Two forms", and a status when the service sends one. */
function eventError(data: unknown): PdsError {
  const status =
    typeof data === 'object' && data !== null && 'status' in data && typeof data.status === 'number'
      ? data.status
      : undefined;
  const fallback = 'the service reported an error during the upload';
  if (status !== undefined && status >= 400) return errorFromResponse(status, data, fallback);
  // No status: the message and field details still come from the standard error body.
  const parsed = errorFromResponse(500, data, fallback);
  return new ServiceError(parsed.message, { details: parsed.details });
}

// The body of an upload, streamed from the file opened when the upload starts: a multipart form
// (the seed's upload) or the raw bytes (the signed-URL PUT), each with a known length, counting the
// bytes as the transport pulls them.
//
// Why a hand-written multipart encoder rather than FormData: FormData hides how many bytes have
// gone out, and the live progress line needs that count. The encoder is ~40 lines; the parser is
// the service's business. The body has a known Content-Length so the service can report a percent.
import { randomBytes } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { LocalFileError, fsProblem, sizeProblem, type LocalUpload } from './local-upload.js';

const CHUNK_BYTES = 256 * 1024;

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
  if (/^[\x20-\x7e]*$/.test(name)) return `filename="${quoted}"`;
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

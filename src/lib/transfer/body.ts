// A download's body as it arrives: each chunk counted against Content-Length and taken as progress
// for the idle limit, and decoded when the storage host sent it encoded (gzip, deflate, br).
import { ServiceError } from '../errors.js';
import type { HttpResponse } from '../http/transport.js';

/** What the body tells of its progress. */
export interface Progress {
  /** `bytes` more arrived: the idle count restarts once they add up to PROGRESS_BYTES. */
  touch(bytes: number): void;
}

/** What must arrive within the idle limit (--timeout) for a body not to count as stalled. */
export const PROGRESS_BYTES = 1024;

/** The body's bytes as they came: each counted (against Content-Length) and taken as progress. */
export async function* rawBody(response: HttpResponse, total: number | undefined, request: Progress) {
  let raw = 0;
  for await (const chunk of response.body) {
    request.touch(chunk.length);
    raw += chunk.length;
    // A storage host that sends more than it announced, or a body without end, never fills the disk.
    if (total !== undefined && raw > total)
      throw new ServiceError(
        `the storage host sent more than the ${total} bytes it announced (Content-Length); pds stopped reading`,
      );
    yield chunk;
  }
}

/** The Content-Encoding pds decodes (gzip, deflate, br); undefined for none; refused for another. */
export function encodingOf(response: HttpResponse): 'gzip' | 'deflate' | 'br' | undefined {
  const value = (response.headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return undefined;
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate' || value === 'br') return value;
  throw new ServiceError(`the storage host sent the file encoded as '${value}', which pds cannot decode`);
}

/** The decoded bytes of an encoded body; its failures (and the source's) end the iteration. */
export async function decoded(source: AsyncIterable<Uint8Array>, encoding: 'gzip' | 'deflate' | 'br') {
  const [{ Readable, pipeline }, zlib] = await Promise.all([import('node:stream'), import('node:zlib')]);
  const decoder =
    encoding === 'gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : zlib.createBrotliDecompress();
  pipeline(Readable.from(source), decoder, () => undefined);
  return decoder as AsyncIterable<Buffer>;
}

/**
 * What a decoder's failure says, from `sent`, the bytes that arrived as sent: zlib's "unexpected end
 * of file" (Z_BUF_ERROR) is a body that ended before its encoded data did, cut short (a connection
 * closed early) rather than corrupt; any other zlib or brotli code is a body that does not decode.
 * Undefined for a failure that is not the decoder's.
 */
export function decodeFailure(error: unknown, encoding: string | undefined, sent: number): ServiceError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'Z_BUF_ERROR')
    return new ServiceError(
      `the storage host's ${encoding} body was cut short (truncated: ${sent.toLocaleString('en-US')} bytes received, the stream ended early); pds stopped reading`,
      { cause: error },
    );
  if (code.startsWith('Z_') || /^ERR__?(BROTLI|ERROR_FORMAT|PADDING)/.test(code))
    return new ServiceError(`the storage host's ${encoding} body does not decode (${code}); pds stopped reading`, {
      cause: error,
    });
  return undefined;
}

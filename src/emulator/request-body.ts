// Request bodies as the emulator reads them: streamed with back-pressure into a sink that may
// refuse them mid-way, the rest of a refused body dropped a moment before the connection is cut,
// and small JSON bodies read whole under a size limit. A refusal is meant to be answered at once,
// with `errorReply`, not thrown (see discardRest for why the connection stays open a moment).
import type { IncomingMessage } from 'node:http';
import { HttpError, type Reply } from './http.js';

/**
 * A refusal found while reading a body, as a reply. Thrown, it would make the server close the
 * connection under a client still sending, which may then miss it (see discardRest).
 */
export const errorReply = (error: HttpError): Reply => ({
  status: error.status,
  body: error.body(),
  headers: error.headers,
});

/** The declared body size, or undefined for a chunked body. */
export function contentLength(req: IncomingMessage): number | undefined {
  const raw = req.headers['content-length'];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

export interface Settle<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
  readonly settled: boolean;
}

export interface BodySink {
  /** Takes a chunk; returns a promise when the sink wants no more until it resolves. */
  write(chunk: Buffer): Promise<void> | undefined;
  end(): void;
}

/** How long the rest of a refused body is read and dropped before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * After a refusal in the middle of a body, drops what is left of it. Closing the connection at
 * once would make the kernel reset it while the client is still sending, and a client busy
 * writing may then lose the 400 it was sent (seen under load). So the rest is read and dropped,
 * like nginx's lingering close, until the client stops (clients stop an upload once it is
 * answered) or LINGER_MS pass, then the connection is cut.
 */
export function discardRest(req: IncomingMessage): void {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, LINGER_MS).unref();
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/** The most a body may hold, and the refusal (400) of one that holds more. */
export interface BodyLimit {
  maxBytes: number;
  tooLarge: string;
}

/**
 * Streams a request body into a sink with back-pressure until the sink settles. A sink that
 * refuses the body stops the parsing at once: the rest is dropped unread (see discardRest). With
 * a limit, a body declared or found larger is refused, before a byte of it or at the byte over.
 */
export function streamBody<T>(
  req: IncomingMessage,
  onBytes: ((received: number) => void) | undefined,
  start: (settle: Settle<T>) => BodySink,
  limit?: BodyLimit,
): Promise<T> {
  const declared = contentLength(req);
  if (limit && declared !== undefined && declared > limit.maxBytes) {
    discardRest(req);
    return Promise.reject(new HttpError(400, limit.tooLarge));
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let received = 0;
    const stop = (): void => {
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const settle: Settle<T> = {
      resolve: (value) => {
        if (settled) return;
        stop();
        resolve(value);
      },
      reject: (error) => {
        if (settled) return;
        stop();
        discardRest(req);
        reject(error);
      },
      get settled() {
        return settled;
      },
    };
    const sink = start(settle);
    function onData(chunk: Buffer): void {
      received += chunk.length;
      if (limit && received > limit.maxBytes) {
        settle.reject(new HttpError(400, limit.tooLarge));
        return;
      }
      let wait: Promise<void> | undefined;
      try {
        wait = sink.write(chunk);
      } catch (error) {
        settle.reject(error);
        return;
      }
      if (settled) return;
      onBytes?.(received);
      if (wait) {
        req.pause();
        void wait.then(() => {
          if (!settled) req.resume();
        });
      }
    }
    function onEnd(): void {
      try {
        sink.end();
      } catch (error) {
        settle.reject(error);
      }
    }
    function onClose(): void {
      if (!req.complete) settle.reject(new HttpError(400, 'the upload was interrupted before the body was complete'));
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses a JSON body; 400 when it is not JSON or not an object. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
  if (!isRecord(body)) throw new HttpError(400, 'the request body must be a JSON object');
  return body;
}

/** Reads a whole body of at most `maxBytes`, refusing it (400 `tooLarge`) as soon as it is larger. */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: string,
  onBytes?: (received: number) => void,
): Promise<Buffer> {
  return streamBody<Buffer>(
    req,
    onBytes,
    (settle) => {
      const chunks: Buffer[] = [];
      return {
        write: (chunk) => void chunks.push(chunk),
        end: () => settle.resolve(Buffer.concat(chunks)),
      };
    },
    { maxBytes, tooLarge },
  );
}

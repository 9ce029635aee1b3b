// Reading the rest of a request's body, writing JSON and error answers, and the request log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpError, EmulatorOptions, RecordedRequest, Reply } from './http.js';

/** How long an early answer waits for the rest of a body: in all, and since the last bytes came. */
const DRAIN_MS = 2_000;
const DRAIN_IDLE_MS = 100;

/**
 * Reads and discards what is left of a request body until it ends, the client pauses or the time
 * is up. A client still sending an upload when the answer comes may otherwise get a reset instead
 * of the answer; one that waits for the answer before sending more gets it after a short pause.
 */
function drain(req: IncomingMessage): Promise<void> {
  if (req.complete) return Promise.resolve();
  return new Promise((resolve) => {
    let idle = setTimeout(() => done(), DRAIN_IDLE_MS);
    const overall = setTimeout(() => done(), DRAIN_MS);
    const onData = () => {
      clearTimeout(idle);
      idle = setTimeout(() => done(), DRAIN_IDLE_MS);
    };
    const done = () => {
      clearTimeout(idle);
      clearTimeout(overall);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    req.on('data', onData);
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
  });
}

/**
 * An error answer. A body nobody has read is drained first, unless the handler chose to close the
 * connection instead (it refuses to read an oversized body); a body still unread closes it.
 */
export async function sendError(req: IncomingMessage, res: ServerResponse, error: HttpError): Promise<void> {
  const closing = error.headers.connection === 'close';
  if (!closing && !req.complete && !req.readableDidRead) await drain(req);
  if (res.headersSent || res.destroyed) {
    res.end();
    return;
  }
  if (!req.complete) res.setHeader('connection', 'close');
  sendJson(res, { status: error.status, body: error.body(), headers: error.headers });
}

/** Once the answer is sent: its status into the record, and a line in the log unless quiet. */
export function logWhenFinished(
  req: IncomingMessage,
  res: ServerResponse,
  record: RecordedRequest,
  options: EmulatorOptions,
  log: (line: string) => void,
): void {
  const started = performance.now();
  res.on('finish', () => {
    record.status = res.statusCode;
    if (!options.quiet) {
      log(`${record.method} ${req.url ?? ''} ${res.statusCode} ${Math.round(performance.now() - started)}ms`);
    }
  });
}

/** The request (`url`: its target, parsed), added to the log of the `size` most recent ones that tests read. */
export function recordRequest(
  req: IncomingMessage,
  url: URL,
  requests: RecordedRequest[],
  size: number,
): RecordedRequest {
  const record: RecordedRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { ...req.headers },
    at: Date.now(),
  };
  requests.push(record);
  // A long-running emulator must not keep them all.
  while (requests.length > size) requests.shift();
  return record;
}

export function sendJson(res: ServerResponse, reply: Reply): void {
  const body = JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, {
    ...reply.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

// The service's answer to an upload: a server-sent event stream (progress, then `complete` or
// `error`) or a plain JSON body.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { UploadProgressEvent } from '../schemas.js';
import { ServiceError, errorFromResponse, type PdsError } from '../errors.js';
import type { HttpResponse } from '../http/transport.js';

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

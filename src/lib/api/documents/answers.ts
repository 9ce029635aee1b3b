// Reading the service's answers to the document requests: the `data` object, and an answer that
// came but does not hold what pds acts on, said as such.
import type { HttpClient, RequestOptions } from '../../http/client.js';
import { ServiceError } from '../../errors.js';
import { MAX_BODY_BYTES } from '../../http/transport.js';
import { safeText } from '../../output/text.js';
import { isPlainObject } from '../../shape.js';

/**
 * An answer that came (a 2xx) but does not hold what pds acts on: said as what it is, with the
 * request, the field and the value, never as a request that got no answer.
 */
export class MalformedAnswerError extends ServiceError {}

/** A staging id as the service may send it: a whole number, or its digits as a string. */
export function stagingIdOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** A URL pds can follow: text that parses as one, over http(s). */
export function isHttpUrl(value: unknown): value is string {
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

export const withDetails = (error: MalformedAnswerError, details: string[]): MalformedAnswerError =>
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

// What a failed request becomes: the typed error of an error answer, of a request that got no
// complete answer, and of an answer that is not the JSON pds expects.
import type { z } from 'zod/mini';
import { errorFromResponse, InterruptedError, type PdsError, RateLimitError, ServiceError } from '../errors.js';
import { BodyCutError, BodyTooLargeError, MAX_BODY_BYTES, ThroughProxyError, type HttpResponse } from './transport.js';
import { askedDelay, rateLimitText } from './retry.js';
import { parseJson } from '../json-numbers.js';

/** What is read of an error answer (its message); a larger error page is not read further. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/**
 * `{data: schema}`, made once per schema: a zod schema made per request costs its construction and
 * compilation on every page of an `--all` (measured: most of the young-generation growth over
 * 100,000 records).
 */
const envelopes = new WeakMap<z.ZodMiniType, z.ZodMiniType>();
function envelopeOf(schema: z.ZodMiniType, envelope: (data: z.ZodMiniType) => z.ZodMiniType): z.ZodMiniType {
  let wrapped = envelopes.get(schema);
  if (!wrapped) {
    wrapped = envelope(schema);
    envelopes.set(schema, wrapped);
  }
  return wrapped;
}

/** What went wrong with an attempt that got no complete answer, and whether to try again. */
export function failedAttempt(
  error: unknown,
  method: string,
  url: URL,
  { timedOut, timeoutMs, answered }: { timedOut: boolean; timeoutMs: number; answered: boolean },
  client: {
    interrupted: boolean;
    trace?: ((line: string) => void) | undefined;
    unreachableHint?: string[] | undefined;
  },
): { error: PdsError; retryable: boolean } {
  const trace = (line: string) => client.trace?.(line);
  if (client.interrupted) return { error: new InterruptedError(), retryable: false };
  if (timedOut) {
    trace(`< timed out after ${timeoutMs} ms`);
    return {
      error: new ServiceError(`request timed out after ${timeoutMs / 1000} s: ${method} ${url.pathname}`, {
        details: ['raise it with --timeout <seconds>'],
      }),
      retryable: false,
    };
  }
  if (error instanceof BodyTooLargeError) {
    trace(`< ${error.message}`);
    return {
      error: new ServiceError(
        `the answer to ${method} ${url.pathname} is larger than ${error.limit / (1024 * 1024)} MiB: pds stopped reading it`,
        {
          details: ['this is not an answer pds expects from the service; check --api-url'],
        },
      ),
      retryable: false,
    };
  }
  // The service was reached and answered wrongly: no hint to start the emulator, and sending again
  // gets the same answer.
  const invalid = invalidResponse(error, `the service at ${url.origin}`);
  if (invalid) {
    trace(`< ${invalid.message}`);
    return { error: invalid, retryable: false };
  }
  if (error instanceof BodyCutError || answered) {
    trace(`< the connection closed during the answer (${errorCode(error) ?? String(error)})`);
    return {
      error: new ServiceError(`the connection closed before the answer was complete: ${method} ${url.pathname}`, {
        cause: error,
      }),
      retryable: true,
    };
  }
  const code = errorCode(error);
  trace(`< network error ${code ?? String(error)}`);
  if (error instanceof ThroughProxyError) {
    return {
      error: new ServiceError(
        `cannot reach ${url.origin} through the proxy ${error.proxy}${code ? ` (${code})` : ''}`,
        {
          details: ['check HTTPS_PROXY / HTTP_PROXY, or bypass the proxy for this host with NO_PROXY'],
          cause: error,
        },
      ),
      retryable: true,
    };
  }
  return {
    error: new ServiceError(`cannot reach ${url.origin}${code ? ` (${code})` : ''}`, {
      details: client.unreachableHint ?? ['check --api-url, PDS_API_URL or `pds config list`'],
      cause: error,
    }),
    // A refused or reset connection sent nothing the service acted on... except for a
    // request body already streaming; canRetry() decides that for uploads.
    retryable: true,
  };
}

/** The `data` of an answer `{data: …}`, checked against the schema; a mismatch is a ServiceError. */
export async function checkedData(
  body: unknown,
  options: { method?: string; path: string },
  schema: z.ZodMiniType,
): Promise<unknown> {
  const { envelope, plainCheck, IN_ENGLISH, issueLines } = await import('../schemas.js');
  const wrapped = envelopeOf(schema, envelope);
  if (plainCheck(wrapped)?.(body)) return (body as { data: unknown }).data;
  const parsed = wrapped.safeParse(body, IN_ENGLISH);
  if (!parsed.success) {
    const request = `${options.method ?? 'GET'} ${options.path}`;
    const inexact = inexactId(body);
    if (inexact) throw inexactIdError(inexact, request);
    throw new ServiceError(`unexpected response from ${request}`, {
      details: issueLines(parsed.error),
    });
  }
  return (parsed.data as { data: unknown }).data;
}

export async function readJson(response: HttpResponse): Promise<unknown> {
  const text = await response.text(MAX_BODY_BYTES);
  try {
    // The numbers a double cannot hold keep their text (an amount is read from it, never from Infinity or 0).
    return parseJson(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new ServiceError(`the service answered ${response.status} with a body that is not JSON`);
  }
}

export async function responseError(
  response: HttpResponse,
  method: string,
  url: URL,
  tokenSource?: string,
  refusedHint?: () => string,
): Promise<PdsError> {
  let body: unknown;
  try {
    body = JSON.parse(await response.text(MAX_ERROR_BODY_BYTES));
  } catch {
    // Not JSON (a gateway's HTML page), too large, or cut: the status alone tells the story.
    body = undefined;
  }
  const fallback =
    response.status === 407
      ? 'the proxy asks for credentials (HTTP 407): put them in the proxy URL, e.g. HTTPS_PROXY=http://user:password@proxy:3128'
      : `${method} ${url.pathname} failed with HTTP ${response.status}`;
  const error = errorFromResponse(
    response.status,
    response.status === 407 ? undefined : body,
    fallback,
    response.status === 401 ? refusedHint?.() : undefined,
  );
  // A refused token: which one, since a stale PDS_TOKEN in the shell hides a fresh login.
  if (response.status === 401 && tokenSource) error.details.unshift(`the token in use is ${tokenSource}`);
  const requestId = response.headers.get('x-request-id') ?? response.headers.get('request-id');
  if (requestId) error.requestId = requestId;
  if (error instanceof RateLimitError) {
    const wait = askedDelay(response);
    const limits = rateLimitText(response);
    if (wait !== undefined)
      error.details.push(`rate limited${limits ? ` (${limits})` : ''}: try again after ${Math.ceil(wait / 1000)} s`);
  }
  return error;
}

/** Network errors that mean no connection was made, so nothing of the request reached the service. */
export const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (typeof current === 'object' && current !== null && 'code' in current && typeof current.code === 'string') {
      return current.code;
    }
    current = typeof current === 'object' && current !== null && 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

/**
 * The error for an answer Node's HTTP parser refused (a control character in a header, bad
 * chunking: its codes start with HPE_), from `who` ("the service at …"); undefined for any other
 * failure. Without the parser's error as cause: --verbose has nothing to add to it but a stack.
 */
export function invalidResponse(error: unknown, who: string): ServiceError | undefined {
  const code = errorCode(error);
  if (!code?.startsWith('HPE_')) return undefined;
  return new ServiceError(`${who} sent an invalid HTTP response (${code})`);
}

interface InexactId {
  path: (string | number)[];
  value: number;
}

/**
 * The first id (`id`, or a key ending in `_id`) in an answer that is a number JSON.parse could not
 * read exactly: past 2^53, or not whole. Looked for only once an answer failed its check.
 */
function inexactId(body: unknown): InexactId | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (value === null || typeof value !== 'object') continue;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, inner] of entries) {
      const isId = typeof key === 'string' && (key === 'id' || key.endsWith('_id'));
      if (isId && typeof inner === 'number' && !Number.isSafeInteger(inner))
        return { path: [...path, key], value: inner };
    }
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, inner] = entries[index] as [string | number, unknown];
      stack.push({ value: inner, path: [...path, key] });
    }
  }
  return undefined;
}

/** Which record held the id (its position in a list, counted from 1), and why pds cannot keep it. */
function inexactIdError({ path, value }: InexactId, request: string): ServiceError {
  const position =
    path[0] === 'data' && typeof path[1] === 'number' ? `record ${path[1] + 1} of the list` : 'the record';
  const why = Number.isInteger(value) ? 'past 2^53, where numbers lose their last digits' : 'not a whole number';
  return new ServiceError(`the answer to ${request} holds an id pds cannot represent exactly, in ${position}`, {
    details: [`${path.join('.')} is ${value} as read: ${why}`],
  });
}

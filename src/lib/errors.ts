// The typed errors of pds. Each carries its exit code (docs/service.md, "Exit codes"), so the one
// handler in cli.ts can map any failure to a code and one readable line.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  unauthenticated: 3,
  forbidden: 4,
  notFound: 5,
  rateLimited: 6,
  processingFailed: 7,
  incomplete: 8,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What to do when there is no credential at all: every way to sign in. */
export const SIGN_IN_HINT =
  'sign in with `pds auth login` (it asks how on a terminal; --web: with a browser), pipe a token to `pds auth login --with-token`, or set PDS_TOKEN';

export class PdsError extends Error {
  readonly exitCode: number = ExitCode.failure;
  /** HTTP status when the service answered with an error. */
  readonly status?: number;
  /** Lines shown under the message (field-level details, hints). */
  readonly details: string[];
  /** The service's id of the failed request (`x-request-id` or `request-id`), for its support. */
  requestId?: string;

  constructor(
    message: string,
    options: { details?: string[]; status?: number; cause?: unknown; requestId?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details ?? [];
    if (options.status !== undefined) this.status = options.status;
    const requestId = options.requestId ?? (options.cause instanceof PdsError ? options.cause.requestId : undefined);
    if (requestId !== undefined) this.requestId = requestId;
  }
}

/** The base of the errors that exit with `code`. */
const exitingWith = (code: ExitCode) =>
  class extends PdsError {
    override readonly exitCode: number = code;
  };

/** Bad flag, bad id, unknown include, non-PDF, file too large, API 400. */
export class UsageError extends exitingWith(ExitCode.usage) {}
export class AuthError extends exitingWith(ExitCode.unauthenticated) {}
export class ForbiddenError extends exitingWith(ExitCode.forbidden) {}
export class NotFoundError extends exitingWith(ExitCode.notFound) {}
export class RateLimitError extends exitingWith(ExitCode.rateLimited) {}
export class ProcessingFailedError extends exitingWith(ExitCode.processingFailed) {}

/** How many of an incomplete answer's problems are shown under its message; the rest are counted. */
const PROBLEMS_SHOWN = 50;

/**
 * The answer is not whole: a total, roll-up or check had to leave out, or could not read, what each
 * of `problems` names (an unreadable amount with its statement, line and column; a statement it
 * could not check; nothing matched). The command prints what it could before this is thrown.
 */
export class IncompleteAnswerError extends exitingWith(ExitCode.incomplete) {
  readonly problems: readonly string[];
  /** `count`: how many problems there are, when `problems` ends with a line counting those not kept. */
  constructor(problems: readonly string[], message = 'the answer is not whole', count = problems.length) {
    const shown = problems.slice(0, PROBLEMS_SHOWN);
    const more = problems.length - shown.length;
    super(count > 1 ? `${message}: ${count.toLocaleString('en-US')} problems` : message, {
      details: more > 0 ? [...shown, `… and ${more} more`] : shown,
    });
    this.problems = problems;
  }
}

/**
 * The signals that stop a command as Ctrl-C does (a CI runner cancelling a job sends SIGTERM, a
 * closed terminal SIGHUP), each with the exit code a shell gives for it: 128 + its number.
 */
export const STOP_SIGNALS = { SIGINT: ExitCode.interrupted, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** The command was stopped by a signal (Ctrl-C by default): exit 128 + the signal's number. */
export class InterruptedError extends PdsError {
  override readonly exitCode: number;
  constructor(readonly signal: StopSignal = 'SIGINT') {
    super(signal === 'SIGINT' ? 'interrupted' : `stopped by ${signal}`);
    this.exitCode = STOP_SIGNALS[signal];
  }
}

/** The signal that stopped a command, from its aborted signal's reason (SIGINT when it says none). */
export function stopSignalOf(signal: AbortSignal): StopSignal {
  return signal.reason instanceof InterruptedError ? signal.reason.signal : 'SIGINT';
}

/** Server 5xx after retries, network failure, timeout, an answer that does not parse. */
export class ServiceError extends PdsError {}

/**
 * Any failure as a PdsError, for a batch that reports each item's failure and goes on. Anything
 * else (a local file system failure: a full disk, no permission) keeps its message and says its
 * code (ENOSPC, EACCES) under it.
 */
export function asPdsError(error: unknown): PdsError {
  if (error instanceof PdsError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return new PdsError(error instanceof Error ? error.message : String(error), {
    ...(code ? { details: [code] } : {}),
    cause: error,
  });
}

/**
 * The error of an HTTP answer, from its status and the service's error body. A 401 ends with what
 * to do: `refusedHint` when the caller knows where the token came from, else every way to sign in.
 */
export function errorFromResponse(status: number, body: unknown, fallback: string, refusedHint?: string): PdsError {
  const { message, details } = describeErrorBody(body, fallback);
  const options = { details, status };
  if (status === 400 || status === 422) return new UsageError(message, options);
  if (status === 401) {
    return new AuthError(message, {
      ...options,
      details: [...details, refusedHint ?? 'run `pds auth login` or set PDS_TOKEN'],
    });
  }
  if (status === 403) return new ForbiddenError(message, options);
  if (status === 404) return new NotFoundError(message, options);
  if (status === 429) return new RateLimitError(message, options);
  if (status >= 400 && status < 500) return new UsageError(message, options);
  return new ServiceError(message, options);
}

/**
 * `{"error": {"message": "…"}}` gives the message; `{"error": {"field": ["…"]}}` gives one
 * detail line per field, which is what a user needs to fix the call.
 */
function describeErrorBody(body: unknown, fallback: string): { message: string; details: string[] } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return { message: fallback, details: [] };
  const error = (body as { error: unknown }).error;
  if (typeof error === 'string') return { message: error, details: [] };
  if (typeof error !== 'object' || error === null) return { message: fallback, details: [] };
  const details: string[] = [];
  let message: string | undefined;
  for (const [field, value] of Object.entries(error)) {
    if (field === 'message' && typeof value === 'string') message = value;
    else if (Array.isArray(value) && value.some(isObject)) details.push(...value.map(detailLine));
    else if (Array.isArray(value)) details.push(`${field}: ${value.map(String).join('; ')}`);
    else if (typeof value === 'string') details.push(`${field}: ${value}`);
    else if (isObject(value)) details.push(detailLine(value));
  }
  if (message === undefined && details.length > 0) {
    return { message: `${fallback}: ${details.join(', ')}`, details: [] };
  }
  return { message: message ?? fallback, details };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * One detail a service gave as an object (`{"field": "isrc", "message": "is taken"}`) as
 * `field: message`; one of another shape as its JSON, never `[object Object]`.
 */
function detailLine(detail: unknown): string {
  if (!isObject(detail)) return String(detail);
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  const field = text(detail.field) ?? text(detail.path) ?? text(detail.name);
  const message = text(detail.message) ?? text(detail.error) ?? text(detail.detail);
  if (message !== undefined) return field === undefined ? message : `${field}: ${message}`;
  return JSON.stringify(detail);
}

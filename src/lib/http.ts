// The one HTTP client of pds: base URL + /v1 paths, bearer auth, timeouts, retries with backoff
// for idempotent requests, rate-limit headers, and the mapping of every failure to a typed error.
//
// The bytes travel through transport.ts: node:http with a keep-alive agent, directly or through the
// proxy HTTPS_PROXY/HTTP_PROXY/NO_PROXY say (why node:http: see there).
//
// Waiting between attempts draws on one budget per command (RetryBudget, --retry-budget): a wait
// larger than what is left is not waited for, and the error says when to try again.
import type { z } from 'zod/mini';
import { checkOf, isPlainObject, type Shape } from './shape.js';
import { DEFAULT_RETRY_BUDGET_SECONDS } from './config.js';
import {
  AuthError,
  InterruptedError,
  type PdsError,
  RateLimitError,
  ServiceError,
  errorFromResponse,
} from './errors.js';
import {
  BodyCutError,
  BodyTooLargeError,
  createTransport,
  maskUrl,
  MAX_BODY_BYTES,
  ThroughProxyError,
  type HttpResponse,
  type Transport,
  type AbortSource,
  type TransportRequest,
} from './transport.js';

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the base URL, starting with /v1. */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A JSON-serialisable value, or a prepared body (stream, form) with its own content type. */
  json?: unknown;
  body?: TransportRequest['body'];
  /**
   * Whether a failed attempt may be sent again. Default: GET only. An upload passes a function
   * that says whether its body has started to go out: once it has, it is never resent. `'unsent'`:
   * only a request that never reached the service (no connection was made) is sent again.
   */
  retry?: boolean | (() => boolean) | 'unsent';
  /** Per-request timeout override; uploads pass 0 (no overall timeout, see upload.ts). */
  timeoutMs?: number;
  /** Aborts this request too (an upload's idle watch); the caller explains that abort itself. */
  signal?: AbortSignal;
  /** Leave the answer's body to the caller (an event stream); otherwise it is read in full here. */
  stream?: boolean;
  /** Use a new connection, not a pooled one (see TransportRequest.fresh). */
  fresh?: boolean;
}

/**
 * Where the bearer token comes from when it can be renewed (a browser sign-in). Without one the
 * client sends the fixed `token`.
 */
export interface Credentials {
  /** A token valid now: refreshed first when it is about to expire. */
  token(): Promise<string>;
  /** A new token after the service refused `refused` with 401; rejects with an AuthError when it cannot. */
  refresh(refused: string): Promise<string>;
}

export interface HttpClientOptions {
  baseUrl: string;
  token?: string;
  credentials?: Credentials;
  timeoutMs: number;
  userAgent: string;
  maxRetries: number;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** One line per request and response, when --verbose. */
  trace?: (line: string) => void;
  /** A human notice (a retry wait of 1 s or more), shown without --verbose. */
  notice?: (line: string) => void;
  /** Where the token came from (`PDS_TOKEN`, `the token of profile work`): a 401 names it. */
  tokenSource?: string;
  /** What to do when the service refuses the token (401), for where it came from; asked only then. */
  refusedHint?: () => string;
  /** Wraps each request until its answer begins: a spinner on a terminal when it is slow (Output.whileSlow). */
  whileSlow?: <T>(work: Promise<T>) => Promise<T>;
  /** What to check when the service cannot be reached (the lines under "cannot reach …"). */
  unreachableHint?: string[];
  /** The waiting a whole command may do between attempts; shared by its clients. Default: 60 s. */
  retryBudget?: RetryBudget;
  env: NodeJS.ProcessEnv;
}

/**
 * The total time one command may spend waiting before retries. The default covers one whole
 * per-minute rate-limit window (the service limits "n per minute"; its Retry-After runs up to
 * 60 s): a script is better served by waiting once than by failing, and Ctrl-C ends the wait.
 */
export class RetryBudget {
  private spentMs = 0;

  constructor(readonly totalMs: number = DEFAULT_RETRY_BUDGET_SECONDS * 1000) {}

  get leftMs(): number {
    return Math.max(0, this.totalMs - this.spentMs);
  }

  /** Takes `ms` from the budget if it is there; false (and nothing taken) if not. */
  take(ms: number): boolean {
    if (ms > this.leftMs) return false;
    this.spentMs += ms;
    return true;
  }
}

/** Waits from this long on are announced on stderr, so a silent terminal or CI log is not mistaken for a hang. */
const NOTICE_WAIT_MS = 1_000;
const BACKOFF_BASE_MS = 250;
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

export class HttpClient {
  private transport: Transport | undefined;
  private readonly budget: RetryBudget;

  constructor(private readonly options: HttpClientOptions) {
    this.budget = options.retryBudget ?? new RetryBudget();
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** The URL of a request; query values are encoded by URLSearchParams, arrays comma-joined. */
  url(path: string, query: Record<string, QueryValue> = {}): URL {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null || value === false || (Array.isArray(value) && value.length === 0))
        continue;
      params.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    const base = this.options.baseUrl.replace(/\/+$/, '') + path;
    if (/[?#]/.test(path)) {
      // A path with a query (or a fragment) of its own: the parameters are set over it.
      const url = new URL(base);
      for (const [key, value] of params) url.searchParams.set(key, value);
      return url;
    }
    // Parsed once, its query included: setting url.search or searchParams re-serializes the URL,
    // once a page of an --all.
    const search = params.toString();
    return new URL(search ? `${base}?${search}` : base);
  }

  private transportOf(): Transport {
    this.transport ??= createTransport(this.options.env, {
      onProxy: (proxy) => this.options.trace?.(`* through the proxy ${proxy}`),
    });
    return this.transport;
  }

  /** Whether --verbose lines are wanted: work done only to say something can be skipped without. */
  get tracing(): boolean {
    return this.options.trace !== undefined;
  }

  /** A line for --verbose (which upload flow was used, and the like); nothing without it. */
  trace(line: string): void {
    this.options.trace?.(line);
  }

  /**
   * A request to a signed URL on another host (a storage bucket): sent with none of pds's
   * credentials (the URL is the authority), through the same transport and proxy as the API's,
   * traced under --verbose, never retried here. Returns whatever the host answered.
   */
  async sendToStorage(url: URL, request: TransportRequest): Promise<HttpResponse> {
    this.options.trace?.(`> ${request.method} ${url.origin}${url.pathname} (signed URL, sent without credentials)`);
    const headers = { 'user-agent': this.options.userAgent, ...request.headers };
    const response = await this.transportOf()(url, { ...request, headers });
    this.options.trace?.(`< ${response.status} ${response.statusText}`);
    return response;
  }

  /** A request whose answer is `{data: …}`; returns `data` checked against the schema. */
  async data<T extends z.ZodMiniType>(options: RequestOptions, schema: T): Promise<z.infer<T>> {
    const body = await readJson(await this.send(options));
    return (await checkedData(body, options, schema)) as z.infer<T>;
  }

  /**
   * data() for an answer whose shape is written out as plain data (shape.ts): one that fits is
   * checked without zod; zod, and `schema` with it, is loaded only to word what is wrong with one
   * that does not. `T` is what the shape describes.
   */
  async shapedData<T>(options: RequestOptions, shape: Shape, schema: () => Promise<z.ZodMiniType>): Promise<T> {
    const body = await readJson(await this.send(options));
    if (isPlainObject(body) && checkOf(shape)(body.data)) return body.data as T;
    return (await checkedData(body, options, await schema())) as T;
  }

  /**
   * Sends a request, retrying where allowed; returns a 2xx response or throws a typed error.
   * With renewable credentials a 401 is answered by one refresh and one more send. That holds for
   * an upload whose body already went out too: the service checks the token before it acts on a
   * request, so a 401 means nothing was done, and the upload's body can be iterated again.
   */
  async send(options: RequestOptions): Promise<HttpResponse> {
    const sent = this.sendAuthorized(options);
    return this.options.whileSlow ? this.options.whileSlow(sent) : sent;
  }

  private async sendAuthorized(options: RequestOptions): Promise<HttpResponse> {
    const { credentials } = this.options;
    if (!credentials) return this.sendWith(options, this.options.token);
    const token = await credentials.token();
    try {
      return await this.sendWith(options, token);
    } catch (error) {
      if (!(error instanceof AuthError) || error.status !== 401) throw error;
      this.options.trace?.('* the service refused the access token: refreshing it and sending again');
      return this.sendWith(options, await credentials.refresh(token));
    }
  }

  private async sendWith(options: RequestOptions, token: string | undefined): Promise<HttpResponse> {
    const method = options.method ?? 'GET';
    const url = this.url(options.path, options.query);
    const canRetry = (outcome: { response?: HttpResponse; error?: PdsError }): boolean => {
      if (options.retry === 'unsent') return !outcome.response && NEVER_CONNECTED.has(errorCode(outcome.error) ?? '');
      if (typeof options.retry === 'function') return options.retry();
      return options.retry ?? method === 'GET';
    };
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(method, url, options, token);
      if (outcome.response?.ok) return outcome.response;
      const retryable = outcome.response ? isRetryableStatus(outcome.response.status) : outcome.retryable;
      const failure = outcome.response
        ? await responseError(outcome.response, method, url, this.options.tokenSource, this.options.refusedHint)
        : outcome.error;
      if (!failure) throw new ServiceError('request failed');
      if (!retryable || !canRetry(outcome) || attempt >= this.options.maxRetries) throw failure;
      const wait = outcome.response ? retryDelay(outcome.response, attempt) : backoff(attempt);
      // A rate limit or a wait the service asked for is always said, with the limits it sent.
      const asked =
        outcome.response !== undefined &&
        (outcome.response.status === 429 || outcome.response.headers.get('retry-after') !== null);
      if (!this.budget.take(wait)) throw overBudget(failure, wait, this.budget, asked);
      this.options.trace?.(
        `* retrying in ${Math.round(wait)} ms (attempt ${attempt + 2} of ${this.options.maxRetries + 1})`,
      );
      if (wait >= NOTICE_WAIT_MS || asked) {
        const limits = outcome.response ? rateLimitText(outcome.response) : '';
        const why = outcome.response?.status === 429 ? `rate limited${limits ? ` (${limits})` : ''}` : failure.message;
        this.options.notice?.(`${why}: retrying in ${Math.max(1, Math.ceil(wait / 1000))} s (Ctrl-C to stop)`);
      }
      await this.options.sleep(wait, this.options.signal).catch(() => {
        throw new InterruptedError();
      });
    }
  }

  private async attempt(
    method: string,
    url: URL,
    options: RequestOptions,
    token: string | undefined,
  ): Promise<{ response?: HttpResponse; error?: PdsError; retryable: boolean }> {
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: 'application/json',
      ...options.headers,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const { signal, release } = attemptSignal(
      [this.options.signal, ...(options.signal ? [options.signal] : [])],
      timeoutMs,
    );
    const started = Date.now();
    this.options.trace?.(`> ${method} ${maskUrl(url)}`);
    let answered = false;
    try {
      const request: TransportRequest = { method, headers, signal };
      if (body !== undefined) request.body = body;
      if (options.fresh) request.fresh = true;
      let response = await this.transportOf()(url, request);
      answered = true;
      // Reading the body here puts a timeout or a reset during it under the same rules as one
      // before the answer (typed error, retry for GET). An error answer is read in responseError.
      if (!options.stream && response.ok) response = buffered(response, await response.text(MAX_BODY_BYTES));
      if (this.options.trace) {
        const limits = rateLimitText(response);
        this.options.trace(
          `< ${response.status} ${response.statusText} (${Date.now() - started} ms${limits ? `, rate limit: ${limits}` : ''})`,
        );
      }
      // A stream is read by the caller, still under this signal, which lets go of Ctrl-C's signal
      // once the body is read (a listener left per upload would pile up over a batch).
      if (options.stream) response = releasedAfterBody(response, release);
      else release();
      return { response, retryable: isRetryableStatus(response.status) };
    } catch (error) {
      release();
      return this.failedAttempt(error, method, url, { timedOut: signal.aborted, timeoutMs, answered });
    }
  }

  /** What went wrong with an attempt that got no complete answer, and whether to try again. */
  private failedAttempt(
    error: unknown,
    method: string,
    url: URL,
    { timedOut, timeoutMs, answered }: { timedOut: boolean; timeoutMs: number; answered: boolean },
  ): { error: PdsError; retryable: boolean } {
    const trace = (line: string) => this.options.trace?.(line);
    if (this.options.signal.aborted) return { error: new InterruptedError(), retryable: false };
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
        details: this.options.unreachableHint ?? ['check --api-url, PDS_API_URL or `pds config list`'],
        cause: error,
      }),
      // A refused or reset connection sent nothing the service acted on... except for a
      // request body already streaming; canRetry() decides that for uploads.
      retryable: true,
    };
  }
}

/** The answer, calling `release` once its body has been read (or reading it failed). */
function releasedAfterBody(response: HttpResponse, release: () => void): HttpResponse {
  const source = response.body;
  return {
    ...response,
    text: async (maxBytes) => {
      try {
        return await response.text(maxBytes);
      } finally {
        release();
      }
    },
    body: (async function* () {
      try {
        yield* source;
      } finally {
        release();
      }
    })(),
  };
}

/**
 * The abort of one attempt, which the transport listens to. Not an AbortController: Node's costs
 * some 20 µs to make, and an `--all` of 100,000 records makes a thousand of them (measured: 4% of
 * its CPU). A listener added after the abort is not called, as with an AbortSignal.
 */
class AttemptAbort implements AbortSource {
  aborted = false;
  reason: unknown;
  private listeners: (() => void)[] = [];

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of this.listeners.splice(0)) listener();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }
}

/**
 * The signal of one attempt: aborted by any of `sources` or after `timeoutMs` (0: never). `release`
 * drops the timer and lets go of the sources at once. (AbortSignal.any with AbortSignal.timeout keeps
 * each attempt's timer and signal alive for the whole timeout after the answer: thousands of them
 * over an `--all` of 100,000 records.)
 */
function attemptSignal(sources: AbortSignal[], timeoutMs: number): { signal: AbortSource; release(): void } {
  const attempt = new AttemptAbort();
  const unfollow = sources.map((source) => follow(source, attempt));
  const timer =
    timeoutMs > 0
      ? setTimeout(() => attempt.abort(new DOMException('the request timed out', 'TimeoutError')), timeoutMs)
      : undefined;
  return {
    signal: attempt,
    release: () => {
      if (timer) clearTimeout(timer);
      for (const stop of unfollow) stop();
    },
  };
}

/** The attempts under way that each long-lived signal (Ctrl-C's, an `--all` walk's) aborts. */
const followers = new WeakMap<AbortSignal, AttemptAbort[]>();

/**
 * Makes `source` abort `attempt` until the returned function is called. A long-lived signal gets
 * one listener for all its attempts, never one per attempt: Node's EventTarget leaves a removed
 * listener linked to the one added after it, so listeners added and removed per request chain every
 * request of a command together. Once one link is in the old generation, the young collector keeps
 * each later request's objects alive through that chain and promotes them (measured over an `--all`
 * of 100,000 records: the heap grew with the record count).
 */
function follow(source: AbortSignal, attempt: AttemptAbort): () => void {
  if (source.aborted) {
    attempt.abort(source.reason);
    return () => undefined;
  }
  let attempts = followers.get(source);
  if (!attempts) {
    const created: AttemptAbort[] = [];
    attempts = created;
    followers.set(source, created);
    source.addEventListener(
      'abort',
      () => {
        for (const each of created.splice(0)) each.abort(source.reason);
      },
      { once: true },
    );
  }
  const list = attempts;
  list.push(attempt);
  return () => {
    const index = list.indexOf(attempt);
    if (index >= 0) list.splice(index, 1);
  };
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/** Jittered exponential backoff: 125 ms plus up to 250 ms, 500 ms, 1 s, … */
function backoff(attempt: number): number {
  return BACKOFF_BASE_MS / 2 + Math.random() * BACKOFF_BASE_MS * 2 ** attempt;
}

/** The keys of a `RateLimit` header: the early draft's words, the later one's letters (q is the quota). */
const RATELIMIT_KEYS = { limit: 'limit|q', remaining: 'remaining|r', reset: 'reset|t' } as const;

/**
 * The rate limit an answer states, in words ("limit 60, remaining 0, reset 42"), or '' when it
 * states none: RateLimit-Limit/-Remaining/-Reset, their X- forms, or one `RateLimit: limit=…,
 * remaining=…, reset=…` header (the IETF draft's two shapes).
 */
export function rateLimitText(response: Pick<HttpResponse, 'headers'>): string {
  const combined = response.headers.get('ratelimit') ?? '';
  const part = (name: keyof typeof RATELIMIT_KEYS): string | undefined => {
    const value = response.headers.get(`ratelimit-${name}`) ?? response.headers.get(`x-ratelimit-${name}`);
    if (value !== null) return value.trim();
    return new RegExp(`(?:^|[;,\\s])(?:${RATELIMIT_KEYS[name]})=(\\d+)`).exec(combined)?.[1];
  };
  return (Object.keys(RATELIMIT_KEYS) as (keyof typeof RATELIMIT_KEYS)[])
    .map((name) => [name, part(name)] as const)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
}

/** What the service asked for (Retry-After, else X-RateLimit-Reset on a 429), else backoff. */
function retryDelay(response: HttpResponse, attempt: number): number {
  return askedDelay(response) ?? backoff(attempt);
}

/**
 * The wait the answer asks for, in ms, or undefined when it asks for none that makes sense.
 * Retry-After: seconds (a negative number is no valid value: ignored) or an HTTP date.
 * X-RateLimit-Reset: a Unix time in seconds (SPEC), but also met in milliseconds, or as the seconds
 * left; told apart by size.
 */
function askedDelay(response: HttpResponse): number | undefined {
  const retryAfter = response.headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const reset = Number(response.headers.get('x-ratelimit-reset') ?? NaN);
  if (response.status === 429 && Number.isFinite(reset) && reset >= 0) {
    const now = Date.now();
    if (reset > 1e12) return Math.max(0, reset - now); // Unix time in milliseconds
    if (reset > 1e9) return Math.max(0, reset * 1000 - now); // Unix time in seconds
    return reset * 1000; // seconds from now
  }
  return undefined;
}

/** The failure, told why it was not retried: the wait it needed is more than the budget has left. */
/** `asked`: the wait is the service's (Retry-After), so worth passing on; pds's own backoff is not. */
function overBudget(failure: PdsError, waitMs: number, budget: RetryBudget, asked: boolean): PdsError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  if (asked && !(failure instanceof RateLimitError)) failure.details.push(`try again in ${seconds} s`);
  failure.details.push(
    budget.totalMs === 0
      ? 'not retried: the retry budget is 0 (--retry-budget, PDS_RETRY_BUDGET or the retry-budget config key)'
      : `not retried: a wait of ${seconds} s is more than the ${Math.floor(budget.leftMs / 1000)} s left of the ${budget.totalMs / 1000} s retry budget (--retry-budget)`,
  );
  return failure;
}

/** The `data` of an answer `{data: …}`, checked against the schema; a mismatch is a ServiceError. */
async function checkedData(body: unknown, options: RequestOptions, schema: z.ZodMiniType): Promise<unknown> {
  const { envelope, plainCheck } = await import('./schemas.js');
  const wrapped = envelopeOf(schema, envelope);
  if (plainCheck(wrapped)?.(body)) return (body as { data: unknown }).data;
  const parsed = wrapped.safeParse(body);
  if (!parsed.success) {
    throw new ServiceError(`unexpected response from ${options.method ?? 'GET'} ${options.path}`, {
      details: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`),
    });
  }
  return (parsed.data as { data: unknown }).data;
}

async function readJson(response: HttpResponse): Promise<unknown> {
  const text = await response.text(MAX_BODY_BYTES);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServiceError(`the service answered ${response.status} with a body that is not JSON`);
  }
}

async function responseError(
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
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function errorCode(error: unknown): string | undefined {
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
 * The answer with its body already read. The body iterable makes its generator only when iterated:
 * an async generator object made per answer and never run (the usual case) was measured to keep
 * the young generation growing over an `--all` of 100,000 records (32 MB of semi-spaces, not 8).
 */
function buffered(response: HttpResponse, text: string): HttpResponse {
  return {
    ...response,
    text: async () => text,
    body: {
      async *[Symbol.asyncIterator]() {
        yield Buffer.from(text);
      },
    },
  };
}

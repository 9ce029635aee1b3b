// The one HTTP client of pds: base URL + /v1 paths, bearer auth, timeouts, retries with backoff
// for idempotent requests, rate-limit headers, and the mapping of every failure to a typed error.
//
// The bytes travel through transport.ts: node:http with a keep-alive agent, or undici's
// EnvHttpProxyAgent when HTTPS_PROXY/HTTP_PROXY is set (why: see there).
import type { z } from 'zod/mini';
import { envelope } from './schemas.js';
import {
  AuthError,
  InterruptedError,
  PdsError,
  RateLimitError,
  ServiceError,
  errorFromResponse,
} from './errors.js';
import { createTransport, type HttpResponse, type Transport, type TransportRequest } from './transport.js';

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  /** Path under the base URL, starting with /v1. */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A JSON-serialisable value, or a prepared body (stream, form) with its own content type. */
  json?: unknown;
  body?: TransportRequest['body'];
  /**
   * Whether a failed attempt may be sent again. Default: GET only. An upload passes a function
   * that says whether its body has started to go out: once it has, it is never resent.
   */
  retry?: boolean | (() => boolean);
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
  /** A human notice (a long retry wait), shown without --verbose. */
  notice?: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

/**
 * Retry waits longer than this are not waited for: the error tells when to try again. It covers a
 * whole per-minute rate-limit window (the service limits "n per minute"; its Retry-After runs up
 * to 60 s): a script is better served by waiting once than by failing, and Ctrl-C ends the wait.
 */
const MAX_RETRY_WAIT_MS = 65_000;
/** Waits from this long on are announced on stderr, so a silent terminal is not mistaken for a hang. */
const NOTICE_WAIT_MS = 3_000;
const BACKOFF_BASE_MS = 250;

export class HttpClient {
  private transport: Transport | undefined;

  constructor(private readonly options: HttpClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** The URL of a request; query values are encoded by URLSearchParams, arrays comma-joined. */
  url(path: string, query: Record<string, QueryValue> = {}): URL {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + path);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null || value === false) continue;
      if (Array.isArray(value)) {
        if (value.length > 0) url.searchParams.set(key, value.join(','));
      } else {
        url.searchParams.set(key, String(value));
      }
    }
    return url;
  }

  /** A request whose answer is `{data: …}`; returns `data` checked against the schema. */
  async data<T extends z.ZodMiniType>(options: RequestOptions, schema: T): Promise<z.infer<T>> {
    const response = await this.send(options);
    const body = await readJson(response);
    const parsed = envelope(schema).safeParse(body);
    if (!parsed.success) {
      throw new ServiceError(`unexpected response from ${options.method ?? 'GET'} ${options.path}`, {
        details: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`),
      });
    }
    return (parsed.data as { data: z.infer<T> }).data;
  }

  /**
   * Sends a request, retrying where allowed; returns a 2xx response or throws a typed error.
   * With renewable credentials a 401 is answered by one refresh and one more send. That holds for
   * an upload whose body already went out too: the service checks the token before it acts on a
   * request, so a 401 means nothing was done, and the upload's body can be iterated again.
   */
  async send(options: RequestOptions): Promise<HttpResponse> {
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
    const canRetry = (): boolean => {
      if (typeof options.retry === 'function') return options.retry();
      return options.retry ?? method === 'GET';
    };
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(method, url, options, token);
      if (outcome.response?.ok) return outcome.response;
      const retryable = outcome.response ? isRetryableStatus(outcome.response.status) : outcome.retryable;
      const failure = outcome.response ? await responseError(outcome.response, method, url) : outcome.error;
      if (!failure) throw new ServiceError('request failed');
      if (!retryable || !canRetry() || attempt >= this.options.maxRetries) throw failure;
      const wait = outcome.response ? retryDelay(outcome.response, attempt) : backoff(attempt);
      if (wait > MAX_RETRY_WAIT_MS) throw failure;
      this.options.trace?.(`* retrying in ${Math.round(wait)} ms (attempt ${attempt + 2} of ${this.options.maxRetries + 1})`);
      if (wait >= NOTICE_WAIT_MS) {
        const why = outcome.response?.status === 429 ? 'rate limited' : failure.message;
        this.options.notice?.(`${why}: retrying in ${Math.ceil(wait / 1000)} s (Ctrl-C to stop)`);
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
    const signals = [this.options.signal];
    if (timeoutMs > 0) signals.push(AbortSignal.timeout(timeoutMs));
    if (options.signal) signals.push(options.signal);
    const signal = AbortSignal.any(signals);
    const started = Date.now();
    this.options.trace?.(`> ${method} ${url.href}`);
    try {
      this.transport ??= createTransport(this.options.env);
      const request: TransportRequest = { method, headers, signal };
      if (body !== undefined) request.body = body;
      if (options.fresh) request.fresh = true;
      let response = await this.transport(url, request);
      // Reading the body here puts a timeout or a reset during it under the same rules as one
      // before the answer (typed error, retry for GET).
      if (!options.stream) response = buffered(response, await response.text());
      const remaining = response.headers.get('x-ratelimit-remaining');
      this.options.trace?.(
        `< ${response.status} ${response.statusText} (${Date.now() - started} ms${remaining === null ? '' : `, rate limit remaining ${remaining}`})`,
      );
      return { response, retryable: isRetryableStatus(response.status) };
    } catch (error) {
      if (this.options.signal.aborted) return { error: new InterruptedError(), retryable: false };
      if (signal.aborted) {
        this.options.trace?.(`< timed out after ${timeoutMs} ms`);
        return {
          error: new ServiceError(`request timed out after ${timeoutMs / 1000} s: ${method} ${url.pathname}`, {
            details: ['raise it with --timeout <seconds>'],
          }),
          retryable: false,
        };
      }
      const code = errorCode(error);
      this.options.trace?.(`< network error ${code ?? String(error)}`);
      return {
        error: new ServiceError(`cannot reach ${url.origin}${code ? ` (${code})` : ''}`, {
          details: ['check --api-url, PDS_API_URL or `pds config get api-url`'],
          cause: error,
        }),
        // A refused or reset connection sent nothing the service acted on... except for a
        // request body already streaming; canRetry() decides that for uploads.
        retryable: true,
      };
    }
  }
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/** Full-jitter exponential backoff: 0..250 ms, 0..500 ms, 0..1 s, … */
function backoff(attempt: number): number {
  return BACKOFF_BASE_MS / 2 + Math.random() * BACKOFF_BASE_MS * 2 ** attempt;
}

/** What the service asked for (Retry-After, else X-RateLimit-Reset on a 429), else backoff. */
function retryDelay(response: HttpResponse, attempt: number): number {
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const reset = response.headers.get('x-ratelimit-reset');
  if (response.status === 429 && reset !== null && Number.isFinite(Number(reset))) {
    return Math.max(0, Number(reset) * 1000 - Date.now());
  }
  return backoff(attempt);
}

async function readJson(response: HttpResponse): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServiceError(`the service answered ${response.status} with a body that is not JSON`);
  }
}

async function responseError(response: HttpResponse, method: string, url: URL): Promise<PdsError> {
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  const fallback = `${method} ${url.pathname} failed with HTTP ${response.status}`;
  const error = errorFromResponse(response.status, body, fallback);
  if (error instanceof RateLimitError) {
    const retryAfter = response.headers.get('retry-after') ?? response.headers.get('x-ratelimit-reset');
    if (retryAfter) error.details.push(`rate limited: try again after ${formatRetryAfter(response)}`);
  }
  return error;
}

function formatRetryAfter(response: HttpResponse): string {
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null && Number.isFinite(Number(retryAfter))) return `${retryAfter} s`;
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) ? new Date(reset * 1000).toISOString() : 'a while';
}

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

/** The answer with its body already read. */
function buffered(response: HttpResponse, text: string): HttpResponse {
  return {
    ...response,
    text: async () => text,
    body: (async function* () {
      yield Buffer.from(text);
    })(),
  };
}

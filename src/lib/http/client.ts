// The one HTTP client of pds: base URL + /v1 paths, bearer auth, timeouts, retries with backoff
// for idempotent requests, rate-limit headers, and the mapping of every failure to a typed error.
//
// The bytes travel through transport.ts: node:http with a keep-alive agent, directly or through the
// proxy HTTPS_PROXY/HTTP_PROXY/NO_PROXY say (why node:http: see there). When to retry and how long
// to wait is http-retry.ts; what a failure becomes, http-errors.ts; one attempt's abort, http-attempt.ts.
//
// Waiting between attempts draws on one budget per command (RetryBudget, --retry-budget): a wait
// larger than what is left is not waited for, and the error says when to try again.
import type { z } from 'zod/mini';
import { checkOf, isPlainObject, type Shape } from '../shape.js';
import { AuthError, InterruptedError, type PdsError, ServiceError, stopSignalOf } from '../errors.js';
import {
  createTransport,
  maskUrl,
  MAX_BODY_BYTES,
  type HttpResponse,
  type Transport,
  type TransportRequest,
} from './transport.js';
import {
  announcedWait,
  askedDelay,
  backoff,
  isRetryableStatus,
  NOTICE_WAIT_MS,
  overBudget,
  raiseBudgetHint,
  rateLimitText,
  RetryBudget,
  refusedBeforeActing,
  retryDelay,
  waitText,
} from './retry.js';
import { checkedData, errorCode, failedAttempt, NEVER_CONNECTED, readJson, responseError } from './failures.js';
import { attemptSignal, buffered, releasedAfterBody } from './attempt.js';
import type { RatePacer } from './pace.js';

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
  /** Told of a 429 that will be waited out, with the wait (an upload batch lowers its concurrency). */
  onRateLimited?: (waitMs: number) => void;
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
  /** Keeps the command's requests within the service's rate-limit window; shared by its clients. */
  pacer?: RatePacer;
  env: NodeJS.ProcessEnv;
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
  async sendToStorage(
    url: URL,
    request: Omit<TransportRequest, 'signal'> & { signal?: AbortSignal },
  ): Promise<HttpResponse> {
    this.options.trace?.(`> ${request.method} ${url.origin}${url.pathname} (signed URL, sent without credentials)`);
    const headers = { 'user-agent': this.options.userAgent, ...request.headers };
    // The command's stop (Ctrl-C, SIGTERM, SIGHUP) ends it too, also once the body is sent and the
    // storage host has not answered: it would otherwise wait for --timeout.
    const command = this.options.signal;
    const signal = request.signal ? AbortSignal.any([command, request.signal]) : command;
    let response: HttpResponse;
    try {
      response = await this.transportOf()(url, { ...request, headers, signal });
    } catch (error) {
      if (command.aborted) throw new InterruptedError(stopSignalOf(command));
      throw error;
    }
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
      // A rate limit (or a 503 naming its wait) is the service refusing before it acts: nothing was
      // made, so an upload's create (which says when it may be resent) goes again after the wait.
      const create = options.retry === 'unsent' || typeof options.retry === 'function';
      if (create && outcome.response && refusedBeforeActing(outcome.response)) return true;
      if (options.retry === 'unsent') return !outcome.response && NEVER_CONNECTED.has(errorCode(outcome.error) ?? '');
      if (typeof options.retry === 'function') return options.retry();
      return options.retry ?? method === 'GET';
    };
    // A rate limit's refusal is pacing, not failure: the budget (wall time) bounds its waits, not a
    // count of tries. Other failures are tried maxRetries times more.
    let failures = 0;
    for (let attempt = 0; ; attempt++) {
      await this.paced();
      const outcome = await this.attempt(method, url, options, token);
      if (outcome.response) this.options.pacer?.update(outcome.response);
      if (outcome.response?.ok) return outcome.response;
      const retryable = outcome.response ? isRetryableStatus(outcome.response.status) : outcome.retryable;
      const failure = outcome.response
        ? await responseError(outcome.response, method, url, this.options.tokenSource, this.options.refusedHint)
        : outcome.error;
      if (!failure) throw new ServiceError('request failed');
      const rateLimited = outcome.response?.status === 429;
      if (!retryable || !canRetry(outcome) || (!rateLimited && failures >= this.options.maxRetries)) throw failure;
      if (!rateLimited) failures++;
      const delay = outcome.response ? retryDelay(outcome.response, attempt) : backoff(attempt);
      // A rate limit or a wait the service asked for is always said, with the limits it sent.
      const asked = rateLimited || (outcome.response !== undefined && askedDelay(outcome.response) !== undefined);
      const announced = delay >= NOTICE_WAIT_MS || asked;
      const wait = announced ? announcedWait(delay) : delay;
      if (!this.budget.take(wait))
        throw overBudget(failure, wait, this.budget, asked, raiseBudgetHint(this.options.env));
      if (rateLimited) options.onRateLimited?.(wait);
      this.options.trace?.(
        `* retrying in ${Math.round(wait)} ms (attempt ${attempt + 2}${rateLimited ? ', rate limited: while the retry budget lasts' : ` of ${this.options.maxRetries + 1}`})`,
      );
      if (announced) {
        const limits = outcome.response ? rateLimitText(outcome.response) : '';
        const why = outcome.response?.status === 429 ? `rate limited${limits ? ` (${limits})` : ''}` : failure.message;
        this.options.notice?.(`${why}: ${waitText(wait)} (Ctrl-C to stop)`);
      }
      await this.options
        .sleep(wait, this.options.signal)
        .catch(() => {
          throw new InterruptedError();
        })
        .finally(() => this.budget.done());
      if (rateLimited) this.options.pacer?.waitedOut();
    }
  }

  /** Waits, when the service's window has no request left, for the next one (Ctrl-C ends the wait). */
  private async paced(): Promise<void> {
    const pacer = this.options.pacer;
    if (!pacer) return;
    await pacer.before(this.options.signal).catch((error: unknown) => {
      if (this.options.signal.aborted) throw new InterruptedError(stopSignalOf(this.options.signal));
      throw error;
    });
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
      return failedAttempt(
        error,
        method,
        url,
        { timedOut: signal.aborted, timeoutMs, answered },
        {
          interrupted: this.options.signal.aborted,
          trace: this.options.trace,
          unreachableHint: this.options.unreachableHint,
        },
      );
    }
  }
}

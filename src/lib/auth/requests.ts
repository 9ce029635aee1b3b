// Requests to an authorization server (metadata, registration, token, revocation). Unlike the
// API these are absolute URLs on any origin, form-encoded, and answer OAuth's own error shape
// (`{"error": "invalid_grant", "error_description": …}`), so they do not go through HttpClient;
// they share its transport (proxies included) and its rules for timeouts and Ctrl-C.
import type * as z from 'zod/mini';
import { InterruptedError, ServiceError } from '../errors.js';
import { refusePlainHttp } from '../http/safety.js';
import { createTransport, type HttpResponse, type Transport } from '../http/transport.js';
import { safeText } from '../output/text.js';

export interface OAuthRequestOptions {
  env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  timeoutMs: number;
  userAgent: string;
  /** --allow-http and its kin: plain http to a host that is not loopback. */
  allowHttp: boolean;
  trace?: (line: string) => void;
}

/** The server answered with an OAuth error (RFC 6749 section 5.2) or another non-2xx status. */
export class OAuthAnswerError extends ServiceError {
  /** `invalid_grant` and the like; undefined when the body is not an OAuth error. */
  readonly code: string | undefined;
  readonly description: string | undefined;

  constructor(
    readonly url: URL,
    readonly httpStatus: number,
    code: string | undefined,
    description: string | undefined,
  ) {
    const safeCode = code === undefined ? undefined : brief(code);
    const safeDescription = description === undefined ? undefined : brief(description);
    super(
      `${url.origin}${url.pathname} answered ${httpStatus}${safeCode ? `: ${safeCode}` : ''}${safeDescription ? ` (${safeDescription})` : ''}`,
      {
        status: httpStatus,
      },
    );
    this.code = safeCode;
    this.description = safeDescription;
  }
}

export class OAuthRequests {
  private transport: Transport | undefined;

  constructor(private readonly options: OAuthRequestOptions) {}

  getJson<T extends z.ZodMiniType>(url: URL, schema: T): Promise<z.infer<T>> {
    return this.request(url, 'GET', undefined, undefined, schema);
  }

  postJson<T extends z.ZodMiniType>(url: URL, body: unknown, schema: T): Promise<z.infer<T>> {
    return this.request(url, 'POST', JSON.stringify(body), 'application/json', schema);
  }

  postForm<T extends z.ZodMiniType>(
    url: URL,
    form: Record<string, string | undefined>,
    schema: T,
  ): Promise<z.infer<T>> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(form)) if (value !== undefined) params.set(key, value);
    return this.request(url, 'POST', params.toString(), 'application/x-www-form-urlencoded', schema);
  }

  /**
   * The status of a GET of `url`, its body dropped and redirects not followed: whether an
   * authorization request would be taken before a browser is sent to it.
   */
  async probe(url: URL): Promise<number> {
    return (await this.send(url, 'GET', undefined, undefined, 'text/html')).status;
  }

  /**
   * An unauthenticated GET of the API: its status and WWW-Authenticate, whose `resource_metadata`
   * may say where to sign in (RFC 9728 section 5.1). The body is dropped.
   */
  async challenge(url: URL): Promise<{ status: number; wwwAuthenticate: string | null }> {
    const { status, headers } = await this.send(url, 'GET', undefined, undefined, 'application/json');
    return { status, wwwAuthenticate: headers.get('www-authenticate') };
  }

  /**
   * Refuses a URL of the sign-in that would go over plain http (the API's rule): every request
   * here is checked, and a sign-in checks the endpoints it will use before it opens a browser.
   */
  refusePlainHttp(url: URL, details: string[] = [], instead = 'an authorization server with https:// endpoints'): void {
    refusePlainHttp({ url, allowHttp: this.options.allowHttp, what: 'the sign-in', instead, details });
  }

  private async send(
    url: URL,
    method: string,
    body: string | undefined,
    contentType: string | undefined,
    accept: string,
  ): Promise<{ status: number; headers: HttpResponse['headers']; text: string }> {
    // Codes, verifiers and refresh tokens go out here; metadata read over plain http could be
    // rewritten on the way to name any endpoint.
    this.refusePlainHttp(url);
    const headers: Record<string, string> = { accept, 'user-agent': this.options.userAgent };
    if (contentType) headers['content-type'] = contentType;
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = AbortSignal.any([this.options.signal, timeout]);
    this.options.trace?.(`> ${method} ${url.href}`);
    try {
      this.transport ??= createTransport(this.options.env);
      const response = await this.transport(url, { method, headers, signal, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      this.options.trace?.(`< ${response.status}`);
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (this.options.signal.aborted) throw new InterruptedError();
      if (timeout.aborted)
        throw new ServiceError(
          `request timed out after ${this.options.timeoutMs / 1000} s: ${method} ${url.origin}${url.pathname}`,
        );
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
      throw new ServiceError(`cannot reach ${url.origin}${code ? ` (${code})` : ''}`, { cause: error });
    }
  }

  private async request<T extends z.ZodMiniType>(
    url: URL,
    method: string,
    body: string | undefined,
    contentType: string | undefined,
    schema: T,
  ): Promise<z.infer<T>> {
    const { status, text } = await this.send(url, method, body, contentType, 'application/json');
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (status < 200 || status > 299) {
      const fields = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
      throw new OAuthAnswerError(
        url,
        status,
        typeof fields.error === 'string' ? fields.error : undefined,
        typeof fields.error_description === 'string' ? fields.error_description : undefined,
      );
    }
    const { IN_ENGLISH, issueLines } = await import('../schemas.js');
    const parsed = schema.safeParse(json, IN_ENGLISH);
    if (!parsed.success) {
      throw new ServiceError(`unexpected answer from ${url.origin}${url.pathname}`, {
        details: issueLines(parsed.error),
      });
    }
    return parsed.data as z.infer<T>;
  }
}

/** Whether an error is the service being out of reach (network, timeout, 5xx), not a refusal. */
export function unreachable(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  return error.status === undefined || error.status >= 500;
}

/** An authorization server's words in a message: safe for a terminal, and no longer than a line or so. */
export function brief(text: string): string {
  return safeText(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

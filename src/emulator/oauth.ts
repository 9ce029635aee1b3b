// The emulator as an OAuth 2.1 authorization server for its own API: dynamic client registration
// (RFC 7591), authorization codes bound to a PKCE S256 challenge, refresh tokens that rotate on
// every use (a reused one revokes the whole grant, as OAuth 2.1 section 4.3.1 asks of public
// clients), and revocation (RFC 7009). The HTTP side is routes/oauth.ts.
//
// Grants live in memory only, also with --data: a restart signs every browser session out, which
// is what a test or a demo wants of a fresh emulator.
import { createHash, randomBytes } from 'node:crypto';
import type { EmulatorState, TokenScope } from './store.js';

export interface OAuthClient {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  client_id_issued_at: number;
}

interface AuthorizationCode {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: TokenScope;
  expires_ms: number;
  /** The grant the code was exchanged for: a second exchange revokes it. */
  grant_id?: string;
}

interface Grant {
  id: string;
  client_id: string;
  scope: TokenScope;
  revoked: boolean;
  /** The one refresh token that may be used next; every earlier one is spent. */
  refresh_token: string;
}

interface AccessToken {
  grant_id: string;
  expires_ms: number;
}

/** An OAuth error answer: `{"error": code, "error_description": …}` with this HTTP status. */
export class OAuthError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** How long an authorization code can be exchanged (RFC 6749 recommends at most 10 minutes). */
export const CODE_TTL_MS = 60_000;

/** Registered clients kept at most; registering one more drops the least recently used. */
export const MAX_CLIENTS = 100;

const secret = (prefix: string): string => `${prefix}_${randomBytes(24).toString('base64url')}`;

export class AuthorizationServer {
  readonly clients = new Map<string, OAuthClient>();
  readonly codes = new Map<string, AuthorizationCode>();
  private readonly grants = new Map<string, Grant>();
  private readonly accessTokens = new Map<string, AccessToken>();
  /** Every refresh token ever issued, current or spent, to the grant it belongs to. */
  private readonly refreshTokens = new Map<string, string>();

  constructor(
    private readonly state: EmulatorState,
    private readonly tokenTtlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  register(body: unknown): OAuthClient {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const uris = fields.redirect_uris;
    if (
      !Array.isArray(uris) ||
      uris.length === 0 ||
      uris.length > 10 ||
      !uris.every((uri) => typeof uri === 'string' && isRedirectUrl(uri))
    ) {
      throw new OAuthError(
        'invalid_redirect_uri',
        'redirect_uris must be 1 to 10 URLs, each https or http to a loopback address',
      );
    }
    const method = fields.token_endpoint_auth_method;
    if (method !== undefined && method !== 'none') {
      throw new OAuthError(
        'invalid_client_metadata',
        'only public clients (token_endpoint_auth_method "none") can register',
      );
    }
    const name =
      typeof fields.client_name === 'string' && fields.client_name.trim() !== ''
        ? fields.client_name.trim().slice(0, 100)
        : 'Unnamed client';
    const client: OAuthClient = {
      client_id: secret('client'),
      client_name: name,
      redirect_uris: uris as string[],
      client_id_issued_at: Math.floor(this.now() / 1000),
    };
    // Anyone who reaches the port may register: the least recently used clients make room.
    for (const id of this.clients.keys()) {
      if (this.clients.size < MAX_CLIENTS) break;
      this.clients.delete(id);
    }
    this.clients.set(client.client_id, client);
    return client;
  }

  /**
   * Checks an authorization request. Errors about the client or its redirect URI must not redirect
   * (RFC 6749 4.1.2.1): they are `fatal` and shown on the page; the others go back to the client.
   */
  checkAuthorization(params: URLSearchParams): { client: OAuthClient; redirectUri: string } {
    const client = this.clients.get(params.get('client_id') ?? '');
    if (!client) throw new OAuthError('invalid_client', 'unknown client_id: register the client first');
    // Used now: to the end of the map's order, the last to make room for new registrations.
    this.clients.delete(client.client_id);
    this.clients.set(client.client_id, client);
    const redirectUri = params.get('redirect_uri') ?? '';
    if (!client.redirect_uris.some((registered) => redirectMatches(registered, redirectUri))) {
      throw new OAuthError('invalid_request', 'redirect_uri is not one the client registered');
    }
    return { client, redirectUri };
  }

  /** The redirect of an authorization request once the client and redirect URI are known good. */
  decide(params: URLSearchParams, approved: boolean): URL {
    const { client, redirectUri } = this.checkAuthorization(params);
    const target = new URL(redirectUri);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    const fail = (code: string, description: string): URL => {
      target.searchParams.set('error', code);
      target.searchParams.set('error_description', description);
      return target;
    };
    const problem = this.requestProblem(params);
    if (problem) return fail(problem.code, problem.description);
    if (!approved) return fail('access_denied', 'the user denied the request');
    const code = secret('code');
    this.codes.set(code, {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: params.get('code_challenge') as string,
      scope: this.consentScope(),
      expires_ms: this.now() + CODE_TTL_MS,
    });
    target.searchParams.set('code', code);
    return target;
  }

  /** What the authorize parameters lack, other than the client and redirect URI. */
  requestProblem(params: URLSearchParams): { code: string; description: string } | undefined {
    if (params.get('response_type') !== 'code')
      return { code: 'unsupported_response_type', description: 'response_type must be code' };
    if (!params.get('code_challenge'))
      return { code: 'invalid_request', description: 'code_challenge is required (PKCE)' };
    if (params.get('code_challenge_method') !== 'S256') {
      return { code: 'invalid_request', description: 'code_challenge_method must be S256' };
    }
    return undefined;
  }

  /** A grant reaches the first organization of the emulator, like `demo-org-token`. */
  consentScope(): TokenScope {
    const organization = this.state.organizations[0];
    if (!organization) throw new OAuthError('server_error', 'the emulator has no organization', 500);
    return { organization_id: organization.id };
  }

  token(form: URLSearchParams): Record<string, unknown> {
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(form);
    if (grantType === 'refresh_token') return this.refresh(form);
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  private exchangeCode(form: URLSearchParams): Record<string, unknown> {
    const code = this.codes.get(form.get('code') ?? '');
    if (!code) throw new OAuthError('invalid_grant', 'unknown authorization code');
    if (code.grant_id !== undefined) {
      // A code used twice may have been stolen: what it gave the first time is revoked too.
      this.revokeGrant(code.grant_id);
      throw new OAuthError('invalid_grant', 'authorization code already used; the tokens issued for it are revoked');
    }
    if (this.now() > code.expires_ms) throw new OAuthError('invalid_grant', 'authorization code expired');
    if (form.get('client_id') !== code.client_id)
      throw new OAuthError('invalid_grant', 'the code was issued to another client');
    if (form.get('redirect_uri') !== code.redirect_uri)
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    const verifier = form.get('code_verifier') ?? '';
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
      throw new OAuthError('invalid_grant', 'code_verifier is missing or malformed');
    if (createHash('sha256').update(verifier).digest('base64url') !== code.code_challenge) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
    }
    const grant: Grant = {
      id: secret('grant'),
      client_id: code.client_id,
      scope: code.scope,
      revoked: false,
      refresh_token: '',
    };
    this.grants.set(grant.id, grant);
    code.grant_id = grant.id;
    return this.issue(grant);
  }

  private refresh(form: URLSearchParams): Record<string, unknown> {
    const presented = form.get('refresh_token') ?? '';
    const grant = this.grants.get(this.refreshTokens.get(presented) ?? '');
    if (!grant || grant.revoked) throw new OAuthError('invalid_grant', 'refresh token is invalid or revoked');
    if (form.get('client_id') !== grant.client_id)
      throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
    if (presented !== grant.refresh_token) {
      this.revokeGrant(grant.id);
      throw new OAuthError('invalid_grant', 'refresh token already used; the grant is revoked');
    }
    return this.issue(grant);
  }

  private issue(grant: Grant): Record<string, unknown> {
    const accessToken = secret('at');
    const refreshToken = secret('rt');
    this.accessTokens.set(accessToken, { grant_id: grant.id, expires_ms: this.now() + this.tokenTtlSeconds * 1000 });
    this.refreshTokens.set(refreshToken, grant.id);
    grant.refresh_token = refreshToken;
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.tokenTtlSeconds,
      refresh_token: refreshToken,
    };
  }

  /** RFC 7009: a refresh token revokes its grant, an access token itself; unknown tokens are fine. */
  revoke(token: string): void {
    const grantId = this.refreshTokens.get(token);
    if (grantId !== undefined) {
      this.revokeGrant(grantId);
      return;
    }
    this.accessTokens.delete(token);
  }

  private revokeGrant(id: string): void {
    const grant = this.grants.get(id);
    if (!grant) return;
    grant.revoked = true;
    for (const [token, access] of this.accessTokens) if (access.grant_id === id) this.accessTokens.delete(token);
  }

  /** What an access token reaches, while it is valid. */
  scopeOf(accessToken: string): TokenScope | undefined {
    const access = this.accessTokens.get(accessToken);
    if (!access) return undefined;
    if (this.now() >= access.expires_ms) {
      this.accessTokens.delete(accessToken);
      return undefined;
    }
    const grant = this.grants.get(access.grant_id);
    return grant && !grant.revoked ? grant.scope : undefined;
  }

  /** The grant an access token belongs to: the same through every refresh. */
  grantOf(accessToken: string): string | undefined {
    return this.accessTokens.get(accessToken)?.grant_id;
  }

  /** Whether the grant of this refresh token is still usable (tests and the consent page ask). */
  grantActive(refreshToken: string): boolean {
    const grant = this.grants.get(this.refreshTokens.get(refreshToken) ?? '');
    return grant !== undefined && !grant.revoked;
  }
}

/** https anywhere; plain http only back to this machine (a native app's loopback redirect). */
function isRedirectUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === 'https:' ||
    (url.protocol === 'http:' && /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname))
  );
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/**
 * A loopback redirect URI matches whatever port the client listens on today (RFC 8252 section
 * 7.3): a native client registers once and gets a new ephemeral port on every sign-in.
 */
function redirectMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  let a: URL;
  let b: URL;
  try {
    a = new URL(registered);
    b = new URL(requested);
  } catch {
    return false;
  }
  if (a.protocol !== 'http:' || b.protocol !== 'http:' || !LOOPBACK_HOSTS.has(a.hostname) || a.hostname !== b.hostname)
    return false;
  return a.pathname === b.pathname && a.search === b.search;
}

// The HTTP side of the emulator's authorization server (the logic is in ../oauth.ts): the two
// metadata documents (RFC 9728, RFC 8414), registration, the consent page, token and revocation.
// These endpoints take no bearer token, so they are answered before the API's route table.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuthorizationServer, OAuthError } from '../oauth.js';
import type { EmulatorState } from '../store.js';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';
const MAX_BODY_BYTES = 64 * 1024;
/** A client's registration (RFC 7591) is a few hundred bytes. */
const MAX_REGISTRATION_BYTES = 16 * 1024;

/** Where the emulator is reached, as the client reached it: the issuer and the resource. */
export const originOf = (req: IncomingMessage): string => `http://${req.headers.host ?? '127.0.0.1'}`;

/** The `WWW-Authenticate` of a 401 (RFC 9728 section 5.1): where to learn how to get a token. */
export function bearerChallenge(req: IncomingMessage, tokenGiven: boolean): string {
  const error = tokenGiven ? ', error="invalid_token"' : '';
  return `Bearer resource_metadata="${originOf(req)}${PROTECTED_RESOURCE_PATH}"${error}`;
}

/** Answers an OAuth request (`url`: its target, parsed) and returns true, or returns false for any other path. */
export async function handleOAuth(
  req: IncomingMessage,
  url: URL,
  res: ServerResponse,
  server: AuthorizationServer,
  state: EmulatorState,
): Promise<boolean> {
  const method = req.method ?? 'GET';
  const origin = originOf(req);
  const route = `${method} ${url.pathname}`;
  try {
    switch (route) {
      case `GET ${PROTECTED_RESOURCE_PATH}`:
        json(res, 200, protectedResourceMetadata(origin));
        return true;
      case `GET ${AUTHORIZATION_SERVER_PATH}`:
        json(res, 200, authorizationServerMetadata(origin));
        return true;
      case 'POST /oauth/register':
        await register(req, res, server);
        return true;
      case 'GET /oauth/authorize':
        consentPage(res, url.searchParams, server, state);
        return true;
      case 'POST /oauth/authorize':
        await decide(req, res, server);
        return true;
      case 'POST /oauth/token':
        json(res, 200, server.token(new URLSearchParams(await readBody(req))));
        return true;
      case 'POST /oauth/revoke': {
        const form = new URLSearchParams(await readBody(req));
        server.revoke(form.get('token') ?? '');
        json(res, 200, {});
        return true;
      }
      default:
        return false;
    }
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    json(res, error.status, { error: error.code, error_description: error.description });
    return true;
  }
}

/** The protected resource's metadata (RFC 9728): the emulator is its own authorization server. */
const protectedResourceMetadata = (origin: string) => ({
  resource: origin,
  authorization_servers: [origin],
  bearer_methods_supported: ['header'],
  resource_name: 'Project Data Service (emulator)',
});

/** The authorization server's metadata (RFC 8414): public clients, PKCE with S256 only. */
const authorizationServerMetadata = (origin: string) => ({
  issuer: origin,
  authorization_endpoint: `${origin}/oauth/authorize`,
  token_endpoint: `${origin}/oauth/token`,
  registration_endpoint: `${origin}/oauth/register`,
  revocation_endpoint: `${origin}/oauth/revoke`,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none'],
  revocation_endpoint_auth_methods_supported: ['none'],
});

/** Dynamic client registration (RFC 7591). */
async function register(req: IncomingMessage, res: ServerResponse, server: AuthorizationServer): Promise<void> {
  // Registration is open to anyone who reaches the port: its body is small by rule.
  const text = await readBody(req, MAX_REGISTRATION_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OAuthError('invalid_client_metadata', 'the body must be a JSON object');
  }
  const client = server.register(body);
  json(res, 201, {
    ...client,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
}

/** The consent page's answer: back to the client's redirect URI, or a page when the request is bad. */
async function decide(req: IncomingMessage, res: ServerResponse, server: AuthorizationServer): Promise<void> {
  const form = new URLSearchParams(await readBody(req));
  const decision = form.get('decision');
  form.delete('decision');
  let target: URL;
  try {
    target = server.decide(form, decision === 'approve');
  } catch (error) {
    if (error instanceof OAuthError) {
      html(res, 400, page('Authorization failed', `<p>${escapeHtml(error.description)}</p>`));
      return;
    }
    throw error;
  }
  res.writeHead(302, { location: target.href, 'cache-control': 'no-store' });
  res.end();
}

function consentPage(
  res: ServerResponse,
  params: URLSearchParams,
  server: AuthorizationServer,
  state: EmulatorState,
): void {
  let client: ReturnType<typeof server.checkAuthorization>['client'];
  try {
    ({ client } = server.checkAuthorization(params));
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    html(res, 400, page('Authorization failed', `<p>${escapeHtml(error.description)}</p>`));
    return;
  }
  const problem = server.requestProblem(params);
  if (problem) {
    // The client is known and its redirect URI registered: the error goes back to it.
    res.writeHead(302, { location: server.decide(params, false).href, 'cache-control': 'no-store' });
    res.end();
    return;
  }
  const scope = server.consentScope();
  const organization = state.organizations.find((o) => o.id === scope.organization_id);
  const projects = state.projects.filter((p) => p.organization_id === scope.organization_id).map((p) => p.name);
  const hidden = [...params]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  html(
    res,
    200,
    page(
      `Authorize ${client.client_name}`,
      `<h1>Authorize <span id="client-name">${escapeHtml(client.client_name)}</span></h1>
<p><span id="client-name-again">${escapeHtml(client.client_name)}</span> asks to act for the organization
<strong id="organization">${escapeHtml(organization?.name ?? scope.organization_id)}</strong>.</p>
<p id="reach">It will reach all ${projects.length} of its projects: ${projects.map(escapeHtml).join(', ')}: read them, upload documents and use their sandboxes.</p>
<form method="post" action="/oauth/authorize">${hidden}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
    ),
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:40em;margin:3em auto;line-height:1.4}button{font-size:1em;margin-right:1em;padding:.4em 1.2em}</style>
</head><body><main>${body}</main></body></html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    // The consent page must not be framed by another site (a click on Approve would be borrowed).
    'x-frame-options': 'DENY',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:* http://[::1]:* http://localhost:*; frame-ancestors 'none'",
  });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

async function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new OAuthError('invalid_request', 'request body too large', 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

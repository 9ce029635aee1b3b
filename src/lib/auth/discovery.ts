// Finding the authorization server of the API: the API's protected-resource metadata (RFC 9728)
// names it, from the well-known URL or from the `resource_metadata` of a 401's WWW-Authenticate;
// then the server's own metadata (RFC 8414) gives its endpoints. `--oauth-issuer` skips the first.
import * as z from 'zod/mini';
import { AuthError, ForbiddenError, ServiceError, UsageError } from '../errors.js';
import { OAuthAnswerError, type OAuthRequests } from './requests.js';
import { safeText } from '../output/text.js';
import { openableUrl } from './browser.js';

const ResourceMetadata = z.looseObject({
  resource: z.optional(z.string()),
  authorization_servers: z.array(z.string()).check(z.minLength(1)),
});

const ServerMetadata = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.optional(z.string()),
  revocation_endpoint: z.optional(z.string()),
  code_challenge_methods_supported: z.optional(z.array(z.string())),
});
export type ServerMetadata = z.infer<typeof ServerMetadata>;

export interface Discovered {
  server: ServerMetadata;
  /** The resource indicator (RFC 8707) to ask tokens for, when the API named itself. */
  resource?: string;
}

/** RFC 8414/9728 path insertion: `/.well-known/<name>` goes between the origin and the path. */
function wellKnown(base: string, name: string): URL {
  const url = new URL(base);
  const path = url.pathname.replace(/\/+$/, '');
  return new URL(`${url.origin}/.well-known/${name}${path}`);
}

const notFound = (error: unknown): boolean =>
  error instanceof OAuthAnswerError && (error.httpStatus === 404 || error.httpStatus === 405);

export async function discover(
  requests: OAuthRequests,
  apiUrl: string,
  issuerOverride: string | undefined,
): Promise<Discovered> {
  let issuer = issuerOverride;
  let resource: string | undefined;
  if (issuer === undefined) {
    const metadata = await resourceMetadata(requests, apiUrl);
    checkResource(metadata.resource, apiUrl);
    issuer = metadata.authorization_servers[0] as string;
    resource = metadata.resource;
  }
  const server = await serverMetadata(requests, issuer);
  const methods = server.code_challenge_methods_supported;
  if (methods && !methods.includes('S256')) {
    throw new AuthError(
      `the authorization server ${issuer} does not support PKCE with S256, which browser sign-in requires`,
    );
  }
  // Every endpoint the sign-in may use is checked now, before a client is registered or a browser
  // opened, rather than when the code comes back (or at the first refresh).
  const endpoints = {
    'authorization endpoint': server.authorization_endpoint,
    'token endpoint': server.token_endpoint,
    'registration endpoint': server.registration_endpoint,
    'revocation endpoint': server.revocation_endpoint,
  };
  for (const [name, endpoint] of Object.entries(endpoints)) {
    if (endpoint === undefined || !URL.canParse(endpoint)) continue;
    const url = new URL(endpoint);
    requests.refusePlainHttp(url, [
      `the authorization server ${safeText(issuer)} names ${safeText(url.href)} as its ${name}`,
    ]);
  }
  // The browser is sent there: refused now, before a client is registered, unless it is a web URL.
  openableUrl(
    server.authorization_endpoint,
    `the authorization server ${safeText(issuer)} (its authorization endpoint)`,
  );
  return { server, ...(resource === undefined ? {} : { resource }) };
}

/** The path of a URL as segments, without empty ones: `/a/b/` and `/a/b` are the same resource. */
const segments = (url: URL): string[] => url.pathname.split('/').filter(Boolean);

/**
 * RFC 9728 section 3.3: the metadata must name the resource pds asked about. Metadata for another
 * API (served by a shared host, or named by a forged WWW-Authenticate) would have pds get a token
 * for that API, and send it tokens meant for this one.
 */
function checkResource(resource: string | undefined, apiUrl: string): void {
  const api = new URL(apiUrl);
  if (resource !== undefined && URL.canParse(resource)) {
    const named = new URL(resource);
    // Segment by segment, the resource's path is a prefix of the API's: the resource covers the API.
    const inner = segments(api);
    if (named.origin === api.origin && segments(named).every((part, i) => inner[i] === part)) return;
  }
  throw new ForbiddenError(
    resource === undefined
      ? `the protected-resource metadata of ${safeText(api.href)} does not name its resource; refusing it`
      : `the protected-resource metadata of ${safeText(api.href)} is for another resource (${safeText(resource.slice(0, 200))}); refusing it`,
    {
      details: [
        'a token obtained through it could be meant for, or sent to, another service; sign in with a token instead: `pds auth login --with-token`',
      ],
    },
  );
}

async function resourceMetadata(requests: OAuthRequests, apiUrl: string) {
  try {
    return await requests.getJson(wellKnown(apiUrl, 'oauth-protected-resource'), ResourceMetadata);
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  const named = await challengeMetadataUrl(requests, apiUrl);
  if (named === undefined) {
    throw new UsageError(`${apiUrl} does not say where to sign in (no protected-resource metadata)`, {
      details: [
        'pass the authorization server with --oauth-issuer <url>, or sign in with a token: `pds auth login --with-token`',
      ],
    });
  }
  return requests.getJson(named, ResourceMetadata);
}

/** An unauthenticated request to the API: its 401 may name the metadata (RFC 9728 section 5.1). */
async function challengeMetadataUrl(requests: OAuthRequests, apiUrl: string): Promise<URL | undefined> {
  const url = new URL(`${apiUrl.replace(/\/+$/, '')}/v1/projects`);
  let answer: { status: number; wwwAuthenticate: string | null };
  try {
    answer = await requests.challenge(url);
  } catch (error) {
    // Out of reach here: the caller says that the API did not say where to sign in.
    if (error instanceof ServiceError) return undefined;
    throw error;
  }
  const named = /resource_metadata="([^"]+)"/.exec(answer.wwwAuthenticate ?? '')?.[1];
  if (answer.status !== 401 || named === undefined || !URL.canParse(named)) return undefined;
  return new URL(named);
}

async function serverMetadata(requests: OAuthRequests, issuer: string): Promise<ServerMetadata> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new UsageError(`invalid issuer URL '${issuer}'`);
  }
  let metadata: ServerMetadata | undefined;
  try {
    metadata = await requests.getJson(wellKnown(issuerUrl.href, 'oauth-authorization-server'), ServerMetadata);
  } catch (error) {
    if (!notFound(error)) throw error;
    // Servers that only speak OpenID Connect Discovery publish the same fields there.
    metadata = await requests.getJson(
      new URL(`${issuerUrl.href.replace(/\/+$/, '')}/.well-known/openid-configuration`),
      ServerMetadata,
    );
  }
  // RFC 8414 section 3.3: metadata that names another issuer must not be used.
  if (metadata.issuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) {
    throw new AuthError(
      `the authorization server metadata of ${issuer} names another issuer (${metadata.issuer}); refusing it`,
    );
  }
  return metadata;
}

// `pds auth login --web`: OAuth 2.1 authorization code with PKCE (S256) and a loopback redirect
// (RFC 8252), the client registered on the fly (RFC 7591) unless --client-id names one.
import * as z from 'zod/mini';
import type { OAuthCredentials } from '../config/profiles.js';
import { AuthError, InterruptedError, UsageError } from '../errors.js';
import { discover, type ServerMetadata } from './discovery.js';
import { startLoopback, type Callback, type Loopback } from './loopback.js';
import { createPkce, randomState } from './pkce.js';
import { OAuthAnswerError, brief, type OAuthRequests } from './requests.js';
import { openBrowser } from './browser.js';
import { safeText } from '../output/text.js';
import { credentialsFrom, TokenAnswer } from './tokens.js';

/** How long pds waits for the browser to come back. */
export const BROWSER_WAIT_MS = 5 * 60_000;

const Registered = z.looseObject({ client_id: z.string() });

export interface RegisteredClient {
  issuer: string;
  client_id: string;
}

export interface WebLoginOptions {
  apiUrl: string;
  issuer?: string;
  clientId?: string;
  /** The client registered by an earlier sign-in of this profile, if any. */
  registered?: RegisteredClient;
  /** Told of a client registered now, to be kept for the next sign-in (`auth login` stores it with the credentials). */
  keepClient: (client: RegisteredClient) => Promise<void>;
  /** Print the URL instead of opening a browser. */
  noBrowser: boolean;
  /** With noBrowser: lines typed on the terminal, where the address the browser ended on may be pasted. */
  pasted?: AsyncIterable<string>;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  now: () => number;
  /** A human line on stderr. */
  say: (line: string) => void;
  /**
   * Checks the new access token against the API and stores the credentials; its answer is shown
   * in the browser. Nothing is stored when anything before it fails.
   */
  complete: (credentials: OAuthCredentials) => Promise<string>;
}

export async function webLogin(requests: OAuthRequests, options: WebLoginOptions): Promise<void> {
  // The API is asked where to sign in (unless --oauth-issuer says), and the new token is tried on it:
  // refused now, before any connection, if that would be plain http to another machine.
  requests.refusePlainHttp(new URL(options.apiUrl), [], 'an https:// API URL');
  const { server, resource } = await discover(requests, options.apiUrl, options.issuer);
  const state = randomState();
  const loopback = await startLoopback(state);
  try {
    const pkce = createPkce();
    const authorizeUrl = (client: string): URL => {
      const url = new URL(server.authorization_endpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', client);
      url.searchParams.set('redirect_uri', loopback.redirectUri);
      url.searchParams.set('code_challenge', pkce.challenge);
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('state', state);
      if (resource !== undefined) url.searchParams.set('resource', resource);
      return url;
    };
    const clientId = await chooseClient(requests, options, server, loopback.redirectUri, authorizeUrl);
    const authorize = authorizeUrl(clientId);
    await sendToBrowser(authorize, server.issuer, loopback, options);
    const callback = await browserCallback(loopback, options.signal);
    const code = authorizationCode(callback);
    const answer = await redeemCode(requests, callback, server.token_endpoint, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: loopback.redirectUri,
      client_id: clientId,
      code_verifier: pkce.verifier,
      resource,
    });
    const credentials = credentialsFrom(
      answer,
      {
        issuer: server.issuer,
        client_id: clientId,
        token_endpoint: server.token_endpoint,
        ...(server.revocation_endpoint === undefined ? {} : { revocation_endpoint: server.revocation_endpoint }),
      },
      options.now(),
    );
    try {
      callback.finish(true, await options.complete(credentials));
    } catch (failure) {
      callback.finish(false, 'pds could not use the sign-in. Return to the terminal.');
      throw failure;
    }
  } finally {
    loopback.close();
  }
}

/**
 * The client to sign in as: --client-id, else the one an earlier sign-in registered while the
 * server still knows it, else one registered now (and kept for the next sign-in).
 */
async function chooseClient(
  requests: OAuthRequests,
  options: WebLoginOptions,
  server: ServerMetadata,
  redirectUri: string,
  authorizeUrl: (client: string) => URL,
): Promise<string> {
  if (options.clientId !== undefined) return options.clientId;
  // An unknown client (or redirect URI) is refused before any consent, with 400 or 401, and shown
  // in the browser instead of coming back (RFC 6749 section 4.1.2.1).
  const kept = options.registered;
  if (kept !== undefined && kept.issuer === server.issuer) {
    const status = await requests.probe(authorizeUrl(kept.client_id));
    if (status !== 400 && status !== 401) return kept.client_id;
  }
  const clientId = await register(requests, server.registration_endpoint, redirectUri, server.issuer);
  await options.keepClient({ issuer: server.issuer, client_id: clientId });
  return clientId;
}

/** Opens the browser at the authorization URL (or not), and says what to do on the terminal. */
async function sendToBrowser(
  authorize: URL,
  issuer: string,
  loopback: Loopback,
  options: WebLoginOptions,
): Promise<void> {
  const opened = !options.noBrowser && (await openBrowser(authorize, options.env));
  // The URL is printed in any case: an opener can "succeed" and show nothing (no desktop, a VM).
  options.say(
    opened
      ? `Opened the browser to sign in at ${safeText(issuer)}. If it did not open, visit:\n  ${authorize.href}`
      : `Open this URL in a browser to sign in:\n  ${authorize.href}`,
  );
  if (options.pasted) {
    options.say('A browser on another machine ends on an address that does not load: paste that address here.');
    void takePasted(options.pasted, loopback, options.say);
  }
  options.say(`Waiting for the browser (at most ${BROWSER_WAIT_MS / 60_000} minutes; Ctrl-C cancels)…`);
}

/** The browser's return to the loopback, within BROWSER_WAIT_MS. */
async function browserCallback(loopback: Loopback, signal: AbortSignal): Promise<Callback> {
  const timeout = AbortSignal.timeout(BROWSER_WAIT_MS);
  return loopback.callback(AbortSignal.any([signal, timeout])).catch(() => {
    if (signal.aborted) throw new InterruptedError();
    throw new AuthError(`no answer from the browser within ${BROWSER_WAIT_MS / 60_000} minutes; nothing was saved`, {
      details: ['run `pds auth login --web` again'],
    });
  });
}

/** Tells the browser the sign-in failed, and throws the failure for the terminal. */
function failSignIn(callback: Callback, message: string, details: string[] = []): never {
  callback.finish(false, `${message}. Return to the terminal.`);
  throw new AuthError(message, { details: [...details, 'nothing was saved; run `pds auth login --web` again'] });
}

/** The authorization code the browser came back with; a refusal or a missing code fails the sign-in. */
function authorizationCode(callback: Callback): string {
  // The loopback server let through only the state pds sent (RFC 6749 section 10.12).
  const { params } = callback;
  const error = params.get('error');
  if (error === 'access_denied') failSignIn(callback, 'sign-in was denied in the browser');
  if (error !== null) {
    const description = params.get('error_description');
    failSignIn(
      callback,
      `the authorization server refused the sign-in: ${brief(error)}${description ? ` (${brief(description)})` : ''}`,
    );
  }
  const code = params.get('code');
  if (!code) failSignIn(callback, 'the browser came back without an authorization code');
  return code;
}

/** The code exchanged for tokens; the browser is told when that fails. */
async function redeemCode(
  requests: OAuthRequests,
  callback: Callback,
  tokenEndpoint: string,
  form: Record<string, string | undefined>,
): Promise<z.infer<typeof TokenAnswer>> {
  try {
    return await requests.postForm(new URL(tokenEndpoint), form, TokenAnswer);
  } catch (failure) {
    if (!(failure instanceof OAuthAnswerError)) {
      callback.finish(false, 'pds could not complete the sign-in. Return to the terminal.');
      throw failure;
    }
    return failSignIn(
      callback,
      `the authorization server refused the code: ${failure.description ?? failure.code ?? `HTTP ${failure.httpStatus}`}`,
    );
  }
}

async function register(
  requests: OAuthRequests,
  endpoint: string | undefined,
  redirectUri: string,
  issuer: string,
): Promise<string> {
  if (endpoint === undefined) {
    throw new UsageError(`${issuer} does not offer dynamic client registration`, {
      details: ['pass the client id the service gave you with --client-id <id>'],
    });
  }
  const client = await requests.postJson(
    new URL(endpoint),
    {
      client_name: 'pds (command-line client)',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    Registered,
  );
  return client.client_id;
}

/** Reads pasted lines until one is the redirect address; says what a wrong one is. */
async function takePasted(
  lines: AsyncIterable<string>,
  loopback: Loopback,
  say: (line: string) => void,
): Promise<void> {
  try {
    for await (const line of lines) {
      if (loopback.paste(line)) return;
      if (line.trim() !== '')
        say(`that is not the address pds waits for (${loopback.redirectUri}?code=…): paste the whole address`);
    }
  } catch {
    // The terminal went away: the loopback still waits, until the time runs out.
  }
}

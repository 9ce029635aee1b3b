// Checks made before any connection is opened: what would go out must be sendable, and the token
// (or a browser sign-in's codes and tokens) must not travel in clear text to another machine unless
// the user said so.
import { UsageError } from '../errors.js';

export interface SafetyCheck {
  baseUrl: string;
  token: string | undefined;
  /** Where the token came from, for the error (PDS_TOKEN, the token of profile x, …). */
  tokenSource: string;
  allowHttp: boolean;
}

const CHARACTER_NAMES: Record<string, string> = {
  '\n': 'a line feed',
  '\r': 'a carriage return',
  '\t': 'a tab',
  ' ': 'a space',
};

export function checkTransportSafety({ baseUrl, token, tokenSource, allowHttp }: SafetyCheck): void {
  if (token !== undefined) {
    // A bearer token is visible ASCII (RFC 6750); anything else is a paste or file accident, and Node
    // would refuse the header anyway, after the retries.
    const bad = /[^\x21-\x7e]/.exec(token);
    if (bad) {
      const char = bad[0];
      const name =
        CHARACTER_NAMES[char] ?? `the character U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      throw new UsageError(
        `the token from ${tokenSource} contains ${name} (at position ${bad.index + 1}), which cannot be sent in an HTTP header`,
        {
          details: ['set it again without it: `pds auth login --with-token`, or fix PDS_TOKEN'],
        },
      );
    }
  }
  if (token !== undefined)
    refusePlainHttp({ url: new URL(baseUrl), allowHttp, what: 'the token', instead: 'an https:// API URL' });
}

export interface PlainHttpCheck {
  url: URL;
  allowHttp: boolean;
  /** What would travel in clear text: `the token`, `the sign-in`. */
  what: string;
  /** What to use instead: `an https:// API URL`. */
  instead: string;
  /** Lines said before the way out (which endpoint named the URL, say). */
  details?: string[];
}

/**
 * The one rule for plain http, for the API and for every request of a browser sign-in: refused to a
 * host that is not loopback as written unless the user opted in. Called before any connection.
 */
export function refusePlainHttp({ url, allowHttp, what, instead, details = [] }: PlainHttpCheck): void {
  if (url.protocol !== 'http:' || allowHttp || isLoopbackHost(url.hostname)) return;
  throw new UsageError(`refusing to send ${what} over plain http to ${url.host}: anyone on the way could read it`, {
    details: [
      ...details,
      `use ${instead}, or, if this network is trusted, opt in with --allow-http, PDS_ALLOW_HTTP=1 or \`pds config set allow-http true\``,
    ],
  });
}

/**
 * Loopback as the URL writes it: 127.0.0.0/8, [::1], and the one name every system maps without
 * asking DNS (`localhost`, from the hosts file). Never what a name resolves to: `localhost.` and
 * `x.localhost` are looked up like any other name (getaddrinfo may ask a DNS server), so they count
 * as names that are not loopback.
 */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

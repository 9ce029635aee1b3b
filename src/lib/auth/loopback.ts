// The loopback redirect of a native app (RFC 8252 section 7.3): a one-shot HTTP server on
// 127.0.0.1 and an ephemeral port, waiting for the browser to come back to /callback with the
// `state` pds sent. Any other request (a favicon, a wrong path, a page of another site probing the
// port, a forged state) gets 400 and the wait goes on: only the real answer ends it, so a stray
// request can neither end the sign-in nor log the user in to another account (login CSRF).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Callback {
  params: URLSearchParams;
  /** Answers the browser's request with a short page, and closes the server. */
  finish(ok: boolean, message: string): void;
}

export interface Loopback {
  redirectUri: string;
  /** The first request to /callback; rejects when `signal` aborts first. */
  callback(signal: AbortSignal): Promise<Callback>;
  /**
   * The address the browser ended on, pasted by hand (a browser on another machine cannot reach
   * this one's loopback): taken as the callback when it is this redirect URI; false otherwise.
   */
  paste(text: string): boolean;
  close(): void;
}

export async function startLoopback(state: string): Promise<Loopback> {
  let deliver: ((callback: Callback) => void) | undefined;
  let pending: Callback | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback' || url.searchParams.get('state') !== state || pending) {
      res
        .writeHead(400, { 'content-type': 'text/plain', 'cache-control': 'no-store', connection: 'close' })
        .end('not the sign-in pds is waiting for\n');
      return;
    }
    pending = {
      params: url.searchParams,
      finish(ok, message) {
        const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pds</title></head><body><main><h1>${ok ? 'Signed in' : 'Sign-in failed'}</h1><p>${escapeHtml(message)}</p></main></body></html>\n`;
        res.writeHead(ok ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'close',
        });
        res.end(body, () => close());
      },
    };
    deliver?.(pending);
  });
  const close = () => {
    server.close();
    server.closeAllConnections();
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // 127.0.0.1 rather than localhost: a name can resolve elsewhere, or to ::1 only (RFC 8252 8.3).
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  return {
    redirectUri,
    paste: (text) => {
      let url: URL;
      try {
        url = new URL(text.trim());
      } catch {
        return false;
      }
      if (`${url.origin}${url.pathname}` !== redirectUri) return false;
      if (!pending) {
        // No browser waits on this answer: the terminal says the outcome.
        pending = { params: url.searchParams, finish: () => close() };
        deliver?.(pending);
      }
      return true;
    },
    callback: (signal) =>
      new Promise<Callback>((resolve, reject) => {
        if (pending) return resolve(pending);
        const onAbort = () => reject(signal.reason);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        deliver = (callback) => {
          signal.removeEventListener('abort', onAbort);
          resolve(callback);
        };
      }),
    close,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

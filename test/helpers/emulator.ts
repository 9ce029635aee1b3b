// Starts a real emulator on a free loopback port for one test file.
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import type { EmulatorOptions } from '../../src/emulator/http.js';

export async function testEmulator(options: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator({ port: 0, quiet: true, processingMs: 50, ...options });
}

export interface CallOptions {
  method?: string;
  token?: string | null;
  headers?: Record<string, string>;
  body?: RequestInit["body"];
}

/** One raw HTTP call to the emulator (for tests of the emulator itself, not of commands). */
export async function call(emulator: Emulator, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? 'demo-org-token' : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return fetch(`${emulator.url}${path}`, { method: options.method ?? 'GET', headers, body: options.body });
}

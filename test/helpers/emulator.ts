// Starts a real emulator on a free loopback port for one test file.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import type { EmulatorOptions, Flavor } from '../../src/emulator/http.js';

/**
 * An emulator for one test, in the flavor the test names: `current` (the seed's forms of SPEC.md for
 * reads, with the deployed service's additions beside them), `deployed` (the service as deployed,
 * what `pds emulator start` serves) or `seed` (SPEC.md alone). There is no default: a test says
 * which service it talks to.
 */
export async function testEmulator(options: TestEmulatorOptions): Promise<Emulator> {
  return startEmulator({ port: 0, quiet: true, processingMs: 50, ...options });
}

/** An emulator's options for a test: any of them, the flavor always. */
export type TestEmulatorOptions = Partial<EmulatorOptions> & { flavor: Flavor };

export interface CallOptions {
  method?: string;
  token?: string | null;
  headers?: Record<string, string>;
  body?: RequestInit['body'];
}

/** One raw HTTP call to the emulator (for tests of the emulator itself, not of commands). */
export async function call(emulator: Emulator, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? 'demo-org-token' : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return fetch(`${emulator.url}${path}`, { method: options.method ?? 'GET', headers, body: options.body });
}

/**
 * What the emulator answers a GET of `path` as the demo organization: the `data` of its answer,
 * the values a test expects pds to show (read from the service, not written into the test).
 */
export async function answerOf<T>(emulator: Emulator, path: string): Promise<T> {
  const response = await call(emulator, path);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return ((await response.json()) as { data: T }).data;
}

/**
 * One emulator for a whole test file, started before its tests and stopped after them, with its
 * request log cleared before each test so every test asserts only on what it sent. The returned
 * handle forwards to the running emulator, so tests use it like the emulator itself.
 */
export function sharedEmulator(options: TestEmulatorOptions): Emulator {
  let current: Emulator | undefined;
  beforeAll(async () => {
    current = await testEmulator(options);
  });
  afterAll(() => current?.close());
  beforeEach(() => {
    if (current) current.requests.length = 0;
  });
  return new Proxy({} as Emulator, {
    get(_, key) {
      if (!current) throw new Error('the shared emulator is used before beforeAll started it');
      return current[key as keyof Emulator];
    },
  });
}

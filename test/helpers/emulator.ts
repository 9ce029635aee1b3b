// Starts a real emulator on a free loopback port for one test file.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import type { EmulatorOptions } from '../../src/emulator/http.js';

/**
 * An emulator for one test. Unlike `pds emulator start` (the deployed flavor by default), tests get
 * the `current` flavor unless they ask for another: the seed's forms of SPEC.md for reads, with the
 * deployed service's additions beside them, which most test files were written against. Tests of
 * the deployed forms pass `flavor: 'deployed'`; tests of SPEC.md alone, `flavor: 'seed'`.
 */
export async function testEmulator(options: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator({ port: 0, quiet: true, processingMs: 50, flavor: 'current', ...options });
}

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
 * One emulator for a whole test file, started before its tests and stopped after them, with its
 * request log cleared before each test so every test asserts only on what it sent. The returned
 * handle forwards to the running emulator, so tests use it like the emulator itself.
 */
export function sharedEmulator(options: Partial<EmulatorOptions> = {}): Emulator {
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

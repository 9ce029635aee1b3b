// The demo project's sandbox on an emulator of a test file's own: connected before the file's tests,
// closed after them, and the exec endpoint's answers read against SPEC.md's form (4.11).
import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { call, type TestEmulatorOptions, testEmulator } from './emulator.js';
import { ExecResults, envelope, type ExecResult } from './spec-forms.js';

export interface DemoSandbox {
  /** The emulator behind it (its store holds the seeded data the answers are checked against). */
  emulator(): Emulator;
  /** The commands' results, in order, as the exec endpoint answers them. */
  run(commands: string[]): Promise<ExecResult[]>;
}

/** `options`: the emulator's, its flavor named (testEmulator's). */
export function demoSandbox(options: TestEmulatorOptions): DemoSandbox {
  let emulator: Emulator | undefined;
  const path = `/v1/projects/${DEMO_PROJECT_ID}/sandbox`;
  const running = (): Emulator => {
    if (!emulator) throw new Error('the sandbox is used before beforeAll started its emulator');
    return emulator;
  };
  beforeAll(async () => {
    emulator = await testEmulator(options);
    expect((await call(emulator, `${path}/connect`, { method: 'POST' })).status).toBe(200);
  });
  afterAll(() => emulator?.close());
  return {
    emulator: running,
    async run(commands) {
      const response = await call(running(), `${path}/exec`, {
        method: 'POST',
        body: JSON.stringify({ commands }),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(200);
      return envelope(ExecResults).parse(await response.json()).data;
    },
  };
}

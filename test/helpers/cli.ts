// Runs pds in-process against a real emulator over loopback, with in-memory streams.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { memoryIO } from '../../src/lib/io.js';
import type { Clock } from '../../src/lib/clock.js';
import type { Emulator } from '../../src/emulator/server.js';

export interface RunOptions {
  /** Pretend stdout and stderr are terminals. */
  tty?: boolean;
  stdin?: string | Buffer;
  stdinTTY?: boolean;
  env?: Record<string, string | undefined>;
  /** Default: the organization token. `null` runs without PDS_TOKEN. */
  token?: string | null;
  /** Default: the first demo project. `null` runs without PDS_PROJECT. */
  project?: string | null;
  clock?: Clock;
  signal?: AbortSignal;
  maxRetries?: number;
  columns?: number;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export const DEMO_PROJECT = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';

/** A fresh config directory, so no test reads the developer's own config. */
export const freshConfigDir = (): string => mkdtempSync(join(tmpdir(), 'pds-test-'));

/** Sleeps are skipped (retry backoff, polling), so tests do not wait on the wall clock. */
export const instantClock: Clock = { now: () => Date.now(), sleep: async () => undefined };

export async function runCli(
  emulator: Emulator | string | null,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const io = memoryIO({
    tty: options.tty ?? false,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    stdinTTY: options.stdinTTY ?? false,
    columns: options.columns ?? 120,
  });
  const url = typeof emulator === 'string' ? emulator : emulator?.url;
  const env: Record<string, string | undefined> = {
    PDS_CONFIG_DIR: freshConfigDir(),
    TZ: 'UTC',
    ...(url ? { PDS_API_URL: url } : {}),
    ...(options.token === null ? {} : { PDS_TOKEN: options.token ?? 'demo-org-token' }),
    ...(options.project === null ? {} : { PDS_PROJECT: options.project ?? DEMO_PROJECT }),
    ...options.env,
  };
  const code = await main(args, {
    io,
    env: env as NodeJS.ProcessEnv,
    clock: options.clock ?? instantClock,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  });
  return { code, stdout: io.out(), stderr: io.err() };
}

// Failures on the way to the service: rate limits, server errors, slow answers, a closed port,
// and the retries that get through a flaky service.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { type TestEmulatorOptions, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, instantClock, runCli } from '../helpers/cli.js';
import type { Clock } from '../../src/lib/clock.js';

const started: Emulator[] = [];
async function emulatorWith(options: TestEmulatorOptions): Promise<Emulator> {
  const emulator = await testEmulator(options);
  started.push(emulator);
  return emulator;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});

/** A clock that sleeps no time but remembers what it was asked to wait. */
function recordingClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return { now: () => Date.now(), sleep: async (ms) => void waits.push(ms), waits };
}

describe('429 after retries: exit 6', () => {
  it('waits what the service asks within the retry budget, then gives up and says when to try again', async () => {
    const emulator = await emulatorWith({ flavor: 'current', rateLimit: 1 });
    // The one request of the minute.
    expect((await runCli(emulator, ['projects', 'ls', '-q'])).code).toBe(0);
    const clock = recordingClock();
    const result = await runCli(emulator, ['artists', 'ls'], { maxRetries: 2, clock });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    // The first wait (the rest of the one-minute window, over 30 s) fits the 60 s budget; a second
    // one does not, so the error tells when to come back instead.
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(
      /^warning: rate limited \(limit 1, remaining 0, reset at \d\d:\d\d:\d\d UTC, in \d+ s\): retrying in \d+ s \(Ctrl-C to stop\)$/,
    );
    expect(lines[1]).toBe('error: rate limit exceeded');
    expect(lines[2]).toMatch(
      /^ {2}rate limited \(limit 1, remaining 0, reset at \d\d:\d\d:\d\d UTC, in \d+ s\): try again after \d+ s$/,
    );
    expect(lines[3]).toMatch(
      /^ {2}not retried: a wait of \d+ s is more than the \d+ s left of the 60 s retry budget \(--retry-budget\)$/,
    );
    expect(lines[4]).toBe(
      '  allow a longer wait with --retry-budget <duration> (e.g. --retry-budget 5m), or try again later',
    );
    expect(emulator.requests.map((r) => [r.path, r.status])).toEqual([
      ['/v1/projects', 200],
      ['/v1/artists', 429],
      ['/v1/artists', 429],
    ]);
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeGreaterThan(30_000);
    expect(clock.waits[0]).toBeLessThanOrEqual(60_000);
    expect(emulator.requests.at(-1)!.headers.authorization).toBe('Bearer demo-org-token');
  });

  it('prints the error as JSON with --json', async () => {
    const emulator = await emulatorWith({ flavor: 'current', rateLimit: 1 });
    await runCli(emulator, ['projects', 'ls', '-q']);
    const result = await runCli(emulator, ['artists', 'ls', '--json', '-q'], { maxRetries: 1 });
    expect(result.code).toBe(6);
    const error = JSON.parse(result.stderr) as { error: { status: number; message: string; details: string[] } };
    expect(error.error.status).toBe(429);
    expect(error.error.message).toBe('rate limit exceeded');
    expect(emulator.requests).toHaveLength(1 + 2);
  });

  it('the rate-limit headers reach --verbose', async () => {
    const emulator = await emulatorWith({ flavor: 'current', rateLimit: 5 });
    const result = await runCli(emulator, ['projects', 'ls', '-q', '--verbose']);
    expect(result.stderr).toMatch(
      /< 200 OK \(\d+ ms, rate limit: limit 5, remaining 4, reset at \d\d:\d\d:\d\d UTC, in \d+ s\)/,
    );
  });
});

describe('5xx after retries: exit 1', () => {
  it('sends 1 + maxRetries requests, then reports the service error', async () => {
    const emulator = await emulatorWith({ flavor: 'current', failRate: 1 });
    const result = await runCli(emulator, ['artists', 'ls'], { maxRetries: 3 });
    // The emulator's 503 asks for Retry-After: 1; every wait of 1 s or more is announced.
    const notice = 'warning: service unavailable (injected fault): retrying in 1 s (Ctrl-C to stop)\n';
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `${notice.repeat(3)}error: service unavailable (injected fault)\n`,
    });
    expect(emulator.requests.map((r) => r.status)).toEqual([503, 503, 503, 503]);
  });

  it('uses 3 retries by default', async () => {
    const emulator = await emulatorWith({ flavor: 'current', failRate: 1 });
    const result = await runCli(emulator, ['projects', 'get']);
    expect(result.code).toBe(1);
    expect(emulator.requests).toHaveLength(4);
  });

  it('with --json', async () => {
    const emulator = await emulatorWith({ flavor: 'current', failRate: 1 });
    const result = await runCli(emulator, ['artists', 'ls', '--json', '-q'], { maxRetries: 1 });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `${JSON.stringify({ error: { status: 503, message: 'service unavailable (injected fault)' } })}\n`,
    });
  });
});

describe('timeout: exit 1', () => {
  it('a slow answer times out with --timeout, and the message says so', async () => {
    const emulator = await emulatorWith({ flavor: 'current', latencyMs: 2000 });
    const before = Date.now();
    const result = await runCli(emulator, ['artists', 'ls', '--timeout', '0.2'], { maxRetries: 0 });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: request timed out after 0.2 s: GET /v1/artists\n  raise it with --timeout <seconds>\n',
    });
    expect(Date.now() - before).toBeLessThan(1500);
    expect(emulator.requests).toHaveLength(1);
  });
});

describe('connection refused: exit 1', () => {
  it('says it cannot reach the URL, after retrying', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const clock = recordingClock();
    const result = await runCli(`http://127.0.0.1:${port}`, ['artists', 'ls'], { maxRetries: 2, clock });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)\n  nothing listens at http://127.0.0.1:${port} (from PDS_API_URL): for the local emulator, run \`pds emulator start --port ${port}\` in another terminal\n  for the service, set its URL: \`pds config set api-url <url>\` (or PDS_API_URL, --api-url)\n`,
    });
    expect(clock.waits).toHaveLength(2);
  });
});

describe('retries recover', () => {
  it('a flaky service (fail rate 0.3, fixed seed) still gives the full, correct output', async () => {
    const reference = await emulatorWith({ flavor: 'current' });
    const expected = await runCli(reference, ['statements', 'ls', '--all', '--per-page', '10', '--json']);
    expect(expected.code).toBe(0);

    const flaky = await emulatorWith({ flavor: 'current', failRate: 0.3, seed: 42 });
    // Enough retries that no page fails for good, whatever order the concurrent pages arrive in.
    const result = await runCli(flaky, ['statements', 'ls', '--all', '--per-page', '10', '--json', '-q'], {
      maxRetries: 8,
      clock: instantClock,
    });
    expect(result).toEqual(expected);
    const statuses = flaky.requests.map((r) => r.status);
    const failures = statuses.filter((s) => s === 503).length;
    expect(failures).toBeGreaterThan(0);
    // One good answer per page of ten of the statements the reference listed.
    const pages = Math.ceil((JSON.parse(expected.stdout) as unknown[]).length / 10);
    expect(pages).toBeGreaterThan(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(pages);
    expect(statuses.length).toBe(pages + failures);
  });

  it('one request at a time: every command of a session succeeds', async () => {
    const flaky = await emulatorWith({ flavor: 'current', failRate: 0.3, seed: 7 });
    const reference = await emulatorWith({ flavor: 'current' });
    // A contract both hold (the same seed): the reference's first.
    const contract = reference.state.data[DEMO_PROJECT]?.contracts[0]?.id;
    if (contract === undefined) throw new Error('the emulator has no contract');
    for (const args of [
      ['projects', 'ls'],
      ['projects', 'get'],
      ['artists', 'ls'],
      ['contracts', 'get', String(contract)],
      ['search', 'nova'],
    ]) {
      const result = await runCli(flaky, [...args, '-q'], { maxRetries: 8 });
      expect(result).toEqual(await runCli(reference, [...args, '-q']));
    }
    expect(flaky.requests.some((r) => r.status === 503)).toBe(true);
    expect(flaky.requests.every((r) => r.query.projectId === undefined || r.query.projectId === DEMO_PROJECT)).toBe(
      true,
    );
  });
});

// The emulator stays up under load and abuse: exec runs within a thread cap and a short queue
// (then 429), one request's output and one thread's files are capped, parallel exec answers in
// command order, the request log is bounded, and a malformed path is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { ErrorBody, ExecResults, envelope, type ExecResult } from '../helpers/spec-forms.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';
import { call, testEmulator } from '../helpers/emulator.js';

const SANDBOX = `/v1/projects/${DEMO_PROJECT_ID}/sandbox`;
/** A bash snippet that sets $s to 2^n × 16 characters (just-bash caps loops, not doubling). */
const grow = (n: number) => `s=0123456789abcdef; for i in $(seq 1 ${n}); do s="$s$s"; done`;

async function connect(target: Emulator): Promise<void> {
  expect((await call(target, `${SANDBOX}/connect`, { method: 'POST' })).status).toBe(200);
}

function exec(target: Emulator, commands: string[], extra: Record<string, unknown> = {}) {
  return call(target, `${SANDBOX}/exec`, {
    method: 'POST',
    body: JSON.stringify({ commands, ...extra }),
    headers: { 'content-type': 'application/json' },
  });
}

async function results(response: Response): Promise<ExecResult[]> {
  expect(response.status).toBe(200);
  return envelope(ExecResults).parse(await response.json()).data;
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
  await connect(emulator);
});
afterAll(() => emulator.close());

describe('exec concurrency', () => {
  it('runs one thread at a time with one waiting, and refuses the rest with 429 and Retry-After', async () => {
    const limited = await testEmulator({ flavor: 'current', execLimits: { workers: 1, queue: 1 } });
    try {
      await connect(limited);
      const started = Date.now();
      const responses = await Promise.all(Array.from({ length: 5 }, () => exec(limited, ['sleep 1; echo slept'])));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 429, 429, 429]);
      for (const response of responses.filter((r) => r.status === 429)) {
        expect(response.headers.get('retry-after')).toBe('1');
        expect(ErrorBody.parse(await response.json()).error.message).toMatch(/sandbox is busy/);
      }
      for (const response of responses.filter((r) => r.status === 200)) {
        expect((await results(response))[0]).toMatchObject({ stdout: 'slept\n', exitCode: 0 });
      }
      // The refusals came at once, not after the admitted requests ran.
      expect(Date.now() - started).toBeLessThan(15_000);
      // Once the load is gone, exec is admitted again.
      expect((await results(await exec(limited, ['echo again'])))[0]?.stdout).toBe('again\n');
    } finally {
      await limited.close();
    }
  });

  it('frees the place of a client that gave up while queued', async () => {
    const limited = await testEmulator({ flavor: 'current', execLimits: { workers: 1, queue: 1 } });
    try {
      await connect(limited);
      const running = exec(limited, ['sleep 3']);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const gaveUp = new AbortController();
      const queued = fetch(`${limited.url}${SANDBOX}/exec`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-org-token', 'content-type': 'application/json' },
        body: JSON.stringify({ commands: ['echo never'] }),
        signal: gaveUp.signal,
      }).catch(() => 'aborted');
      await new Promise((resolve) => setTimeout(resolve, 200));
      gaveUp.abort();
      expect(await queued).toBe('aborted');
      await new Promise((resolve) => setTimeout(resolve, 400));
      // The queue has room again while the first request still runs.
      const next = exec(limited, ['echo next']);
      expect((await running).status).toBe(200);
      expect((await results(await next))[0]?.stdout).toBe('next\n');
    } finally {
      await limited.close();
    }
  });

  it('answers GETs promptly while 20 execs run', async () => {
    const load = Promise.all(Array.from({ length: 20 }, () => exec(emulator, ['grep -ril nova artists | wc -l'])));
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      expect((await call(emulator, '/v1/projects')).status).toBe(200);
      latencies.push(performance.now() - started);
    }
    const statuses = (await load).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(12);
    // The bench measures p99; here only that no GET waited for the execs.
    expect(Math.max(...latencies)).toBeLessThan(2000);
  });
});

describe('exec output and memory', () => {
  it("cuts a request's output at the cap with a visible marker and runs nothing after it", async () => {
    const limited = await testEmulator({ flavor: 'current', execLimits: { outputBytes: 64 * 1024 } });
    try {
      await connect(limited);
      const [small, big, after] = await results(
        await exec(limited, ['echo small', `${grow(16)}; echo "$s"; echo more`, 'echo after']),
      );
      expect(small).toMatchObject({ stdout: 'small\n', exitCode: 0 });
      const marker = '\n[sandbox: output cut: a request may return 64 KiB of output]\n';
      expect(big!.stdout.endsWith(marker)).toBe(true);
      expect(Buffer.byteLength(big!.stdout) - marker.length).toBe(64 * 1024 - 'small\n'.length);
      expect(after).toEqual({
        command: 'echo after',
        stdout: '',
        stderr: "sandbox: not run: the request's output reached 64 KiB\n",
        exitCode: 125,
      });
    } finally {
      await limited.close();
    }
  });

  it('caps the files the commands of one request write', async () => {
    const write = (i: number) => `${grow(19)}; echo "$s" > /tmp/f${i} && echo wrote ${i}`;
    const out = await results(await exec(emulator, [write(1), write(2), write(3), write(4), write(5)]));
    // 8 MiB each: three fit in 32 MiB (plus room for the workspace's own files), five do not.
    expect(out.slice(0, 3).map((r) => r.stdout)).toEqual(['wrote 1\n', 'wrote 2\n', 'wrote 3\n']);
    expect(out[4]!.exitCode).not.toBe(0);
    expect(out[4]!.stdout).toBe('');
    expect(out[4]!.stderr).toMatch(/limit|exceed/i);
    expect((await call(emulator, '/v1/projects')).status).toBe(200);
  });

  it('stops a thread that passes its heap limit, answering 125 for its commands, and keeps serving', async () => {
    // A heap far too small for just-bash itself: the thread dies while loading.
    const tiny = await testEmulator({ flavor: 'current', execLimits: { heapMb: 2 } });
    try {
      await connect(tiny);
      const out = await results(await exec(tiny, ['echo one', 'echo two']));
      expect(out).toEqual([
        { command: 'echo one', stdout: '', stderr: 'sandbox: the shell ran out of memory\n', exitCode: 125 },
        { command: 'echo two', stdout: '', stderr: 'sandbox: not run: the shell ran out of memory\n', exitCode: 125 },
      ]);
      expect((await call(tiny, '/v1/projects')).status).toBe(200);
    } finally {
      await tiny.close();
    }
  });

  it('has no sqlite3 in the sandbox', async () => {
    const [bin, which] = await results(await exec(emulator, ['ls /bin', 'which sqlite3']));
    expect(bin!.stdout.split('\n')).toEqual(expect.arrayContaining(['grep', 'jq']));
    expect(bin!.stdout.split('\n')).not.toContain('sqlite3');
    expect(which!.exitCode).not.toBe(0);
  });
});

describe('parallel exec', () => {
  it('runs each command in an instance of its own, at once, answering in command order', async () => {
    // Each sleeper prints when it started and ended (whole seconds): run at once, each starts
    // before the other ends; one after the other, the second would start when the first ended.
    const sleeper = (name: string) => `date +%s; sleep 3; date +%s; echo ${name}`;
    const commands = [sleeper('first'), 'echo x > /tmp/own; cat /tmp/own', 'cat /tmp/own', sleeper('last')];
    const out = await results(await exec(emulator, commands, { mode: 'parallel' }));
    expect(out.map((r) => r.command)).toEqual(commands);
    const [first, own, other, last] = out;
    expect(own!.stdout).toBe('x\n');
    // Another instance's file is not there.
    expect(other).toMatchObject({ stdout: '', exitCode: 1 });
    const span = (result: ExecResult) => {
      const [start, end, name] = result.stdout.trim().split('\n');
      return { start: Number(start), end: Number(end), name };
    };
    const a = span(first!);
    const b = span(last!);
    expect([a.name, b.name]).toEqual(['first', 'last']);
    expect(a.start).toBeLessThan(b.end);
    expect(b.start).toBeLessThan(a.end);
    expect(emulator.requests.at(-1)?.exec).toEqual({ commands, mode: 'parallel' });
  });

  it('holds a parallel request to one time limit, even when its commands wait for threads', async () => {
    const limited = await testEmulator({ flavor: 'current', sandboxTimeoutMs: 1500, execLimits: { workers: 1 } });
    try {
      await connect(limited);
      // One thread: the first sleeper is stopped near the limit, the second gets what is left of
      // it and is stopped too, and the third gets a thread only when nothing is left.
      const [first, second, third] = await results(
        await exec(limited, ['sleep 5; echo late', 'sleep 5; echo late', 'echo third'], { mode: 'parallel' }),
      );
      expect(first).toMatchObject({ stdout: '', exitCode: 124 });
      expect(second).toMatchObject({ stdout: '', exitCode: 124 });
      expect(third).toMatchObject({ command: 'echo third', stdout: '', exitCode: 124 });
      expect(third!.stderr).toMatch(/^sandbox: (not run: )?timed out after 1500 ms\n$/);
    } finally {
      await limited.close();
    }
  });

  it('refuses an unknown mode and too many parallel commands', async () => {
    const unknown = await exec(emulator, ['ls'], { mode: 'sideways' });
    expect(unknown.status).toBe(400);
    expect(ErrorBody.parse(await unknown.json()).error).toEqual({ mode: ['mode must be "sequential" or "parallel"'] });
    const many = await exec(
      emulator,
      Array.from({ length: 33 }, () => 'true'),
      { mode: 'parallel' },
    );
    expect(many.status).toBe(400);
    expect(ErrorBody.parse(await many.json()).error).toEqual({
      commands: ['a parallel request runs at most 32 commands'],
    });
  });

  it('is what `pds sandbox exec --parallel` asks for; its results print in command order', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', '--parallel', 'sleep 1; echo one', 'echo two'], {
      project: DEMO_PROJECT,
    });
    expect(result).toEqual({ code: 0, stdout: 'one\ntwo\n', stderr: '' });
    const sent = emulator.requests.filter((r) => r.path.endsWith('/exec')).at(-1);
    expect(sent?.exec).toEqual({ commands: ['sleep 1; echo one', 'echo two'], mode: 'parallel' });
    const sequential = await runCli(emulator, ['sandbox', 'exec', 'echo one'], { project: DEMO_PROJECT });
    expect(sequential.code).toBe(0);
    expect(emulator.requests.filter((r) => r.path.endsWith('/exec')).at(-1)?.exec?.mode).toBe('sequential');
  });
});

describe('request log and paths', () => {
  it('keeps only the most recent requests', async () => {
    const small = await testEmulator({ flavor: 'current', requestLogSize: 5 });
    try {
      for (let i = 0; i < 12; i++) await call(small, `/v1/projects?n=${i}`);
      expect(small.requests.map((r) => r.query.n)).toEqual(['7', '8', '9', '10', '11']);
    } finally {
      await small.close();
    }
  });

  it('answers 400 for malformed percent-encoding in a path, with or without a token', async () => {
    for (const token of ['demo-org-token', null]) {
      const response = await call(emulator, '/v1/projects/%zz', { token });
      expect(response.status).toBe(400);
      expect(ErrorBody.parse(await response.json()).error).toEqual({
        message: 'malformed percent-encoding in the request path',
      });
    }
    const sandbox = await call(emulator, `/v1/projects/${DEMO_PROJECT_ID}/sandbox/files%E0?path=x`);
    expect(sandbox.status).toBe(400);
    // A well-formed escape still reaches the route.
    expect((await call(emulator, `/v1/projects/${DEMO_PROJECT_ID.replace('-', '%2D')}`)).status).toBe(200);
  });
});

// A person's trials of the built CLI that only a real process shows, each where no other process test
// had it: Ctrl-C during a slow `statements lines`, `statements status --watch` and `sandbox exec`;
// `… | head -1` closing the pipe while pds still writes; `statements lines` behind a proxy (the API
// and the signed CSV link both); and under GITHUB_ACTIONS, statements named like workflow commands
// as `statements ls` and `statements get` print them. Loopback only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { PDS_BIN, childEnv, ptyPds, runPds, signedInEnv, until, type PtyProcess } from '../helpers/process.js';
import { startRogueServer, type RogueServer } from '../helpers/rogue-server.js';
import { obeyed, unfenced } from '../helpers/workflow-commands.js';
import { listColumns } from '../../src/commands/catalog/views.js';
import type { Column } from '../../src/lib/output/view.js';

/** The header line piped TSV starts with, from a list's columns (as lib/output/list-writers.ts writes it). */
const tsvHeader = (columns: readonly Column<never>[]): string =>
  `${columns
    .filter((column) => !column.terminalOnly)
    .map((column) => column.header.toUpperCase())
    .join('\t')}\n`;

/** The seed's processed statement with a lines export, and one whose processing never ends. */
const PROCESSED = '40001';
const PROCESSING = '40006';

/** Types Ctrl-C; resolves to the exit code and how long the process took after the key. */
async function ctrlC(pty: PtyProcess): Promise<{ code: number | null; afterKeyMs: number }> {
  const pressed = Date.now();
  pty.write('\u0003');
  const exit = await pty.exited;
  return { code: exit.code, afterKeyMs: Date.now() - pressed };
}

/** The rows of the screen that show text (a terminal echoes `^C` where the cursor was). */
async function shown(pty: PtyProcess): Promise<string[]> {
  return (await pty.screen()).map((row) => row.replace(/\^C/g, '').trimEnd()).filter(Boolean);
}

describe('Ctrl-C while the service takes 3 s to answer (a terminal)', () => {
  let slow: Emulator;
  beforeAll(async () => {
    slow = await testEmulator({ flavor: 'deployed', latencyMs: 3_000 });
  });
  afterAll(() => slow.close());

  /** Starts `args` on a terminal, waits until its first request has reached the service, then types Ctrl-C. */
  async function interruptWaiting(
    args: string[],
    cwd?: string,
  ): Promise<{ code: number | null; afterKeyMs: number; rows: string[] }> {
    slow.requests.length = 0;
    const pty = await ptyPds(args, { env: signedInEnv(slow.url), cols: 80, cwd });
    await until(() => slow.requests.length > 0, 'the first request');
    const { code, afterKeyMs } = await ctrlC(pty);
    await pty.waitFor('\u001b[?25h', 2_000).catch(() => undefined);
    expect(pty.cursorVisible()).toBe(true);
    return { code, afterKeyMs, rows: await shown(pty) };
  }

  it('`statements lines` ends with 130 within 2 s, having printed nothing', async () => {
    const { code, afterKeyMs, rows } = await interruptWaiting(['statements', 'lines', PROCESSED]);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(2_000);
    expect(rows).toEqual([]);
  });

  it('`statements lines -o` ends with 130 within 2 s and leaves no file, whole or partial', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-trial-lines-'));
    const { code, afterKeyMs } = await interruptWaiting(['statements', 'lines', PROCESSED, '-o', 'x.csv'], dir);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(2_000);
    // The answer would have come 3 s after the request: nothing may write the file after the exit either.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('`contracts ls --all` ends with 130 within 2 s, no table drawn', async () => {
    const { code, afterKeyMs, rows } = await interruptWaiting(['contracts', 'ls', '--all']);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(2_000);
    expect(rows).toEqual([]);
  });
});

describe('Ctrl-C while waiting on work that goes on (a terminal)', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'deployed' });
  });
  afterAll(() => emulator.close());

  it('`statements status --watch` of a statement still processing: 130 within 2 s, the spinner cleared', async () => {
    const pty = await ptyPds(['statements', 'status', PROCESSING, '--watch', '--interval', '0.2'], {
      env: signedInEnv(emulator.url),
      cols: 60,
    });
    await pty.waitFor(`statement ${PROCESSING} · processing`);
    const { code, afterKeyMs } = await ctrlC(pty);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(2_000);
    await pty.waitFor('\u001b[?25h', 2_000).catch(() => undefined);
    expect(pty.cursorVisible()).toBe(true);
    expect(await shown(pty)).toEqual([]);
  });

  it("`sandbox exec 'sleep 5'`: the spinner after about a second, then Ctrl-C ends it with 130 long before the 5 s", async () => {
    const started = Date.now();
    const before = emulator.requests.length;
    const pty = await ptyPds(['sandbox', 'exec', 'sleep 5'], {
      env: signedInEnv(emulator.url),
      cols: 60,
    });
    await until(
      () => emulator.requests.slice(before).some((request) => request.path.endsWith('/exec')),
      'the exec request',
    );
    const sleeping = Date.now();
    await pty.waitFor('waiting for the service');
    expect(Date.now() - started).toBeGreaterThan(800);
    const { code, afterKeyMs } = await ctrlC(pty);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(2_000);
    // Before the sandbox's 5 s were over, counted from when the exec reached it (not from the
    // start of a process a loaded machine may take seconds to start).
    expect(Date.now() - sleeping).toBeLessThan(5_000);
    await pty.waitFor('\u001b[?25h', 2_000).catch(() => undefined);
    expect(pty.cursorVisible()).toBe(true);
    expect(await shown(pty)).toEqual([]);
  });
});

/** Runs `pds <args> | head -1` in bash; the exit status is pds's (pipefail: head exits 0). */
function pipedToHead(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const quoted = [PDS_BIN, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('bash', ['-c', `set -o pipefail; '${process.execPath}' ${quoted} | head -1`], {
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a pipe closed after the first line (`| head -1`)', () => {
  let big: Emulator;
  let lines: RogueServer;
  // More than a pipe holds (64 KiB), sent after the first line: pds is still writing when head has gone.
  const header = 'line,territory,isrc,units\n';
  const rest = Array.from({ length: 20_000 }, (_, i) => `${i + 1},GB,QMNLC1800096,${i}\n`).join('');
  const DETAILED = JSON.parse(
    readFileSync(new URL('../fixtures/deployed/statements.get.detailed.json', import.meta.url), 'utf8'),
  ) as { data: Record<string, any> };
  function answer(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    const path = new URL(req.url ?? '/', lines.url).pathname;
    if (path === '/v1/statements/72001') {
      const body = {
        data: {
          ...DETAILED.data,
          detailed: { ...DETAILED.data.detailed, csv_url: `${lines.url}/exports/72001.csv?token=sig` },
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } else if (path === '/exports/72001.csv') {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(header.length + rest.length) });
      res.write(header);
      setTimeout(() => res.end(rest), 300);
    } else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
  }
  beforeAll(async () => {
    [big, lines] = await Promise.all([testEmulator({ flavor: 'deployed', scale: 20 }), startRogueServer(answer)]);
  });
  afterAll(async () => {
    await Promise.all([big.close(), lines.close()]);
  });

  it.each([
    [['artists', 'ls', '--all'], tsvHeader(listColumns('artists', { includes: [] }))],
    [['contracts', 'ls', '--all', '--format', 'csv'], /^id,internal_uuid,name,file_name,/],
    [['artists', 'ls', '--all', '--format', 'ndjson'], /^\{"id":3000001,/],
  ])('pds %j | head -1: exit 0, the first line, nothing on stderr', async (args, first) => {
    const run = await pipedToHead(args, signedInEnv(big.url));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    if (typeof first === 'string') expect(run.stdout).toBe(first);
    else expect(run.stdout).toMatch(first);
    expect(run.stdout.split('\n')).toHaveLength(2);
  });

  it('pds statements lines | head -1, the CSV still arriving: exit 0, its header, nothing on stderr', async () => {
    const run = await pipedToHead(['statements', 'lines', '72001'], signedInEnv(lines.url));
    expect(run).toEqual({ code: 0, stdout: header, stderr: '' });
  });
});

describe('statements lines behind a proxy', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'deployed' });
  });
  afterAll(() => emulator.close());

  it('HTTP_PROXY carries both the API request and the signed CSV link; NO_PROXY=127.0.0.1 sends both direct', async () => {
    const direct = await runPds(['statements', 'lines', PROCESSED], { env: signedInEnv(emulator.url) });
    expect(direct.code, direct.stderr).toBe(0);
    const proxy = await startForwardProxy();
    try {
      const proxied = await runPds(['statements', 'lines', PROCESSED], {
        env: signedInEnv(emulator.url, { HTTP_PROXY: proxy.url }),
      });
      expect(proxied).toMatchObject({ code: 0, stdout: direct.stdout, stderr: '' });
      const targets = proxy.saw.map(
        (seen) => `${seen.method} ${new URL(seen.target).origin}${new URL(seen.target).pathname}`,
      );
      expect(targets[0]).toBe(`GET ${emulator.url}/v1/statements/${PROCESSED}`);
      // The signed link is the storage host's (a port of its own): through the proxy too.
      expect(targets.slice(1)).toEqual([expect.stringMatching(new RegExp(`^GET ${emulator.storage.origin}/exports/`))]);

      proxy.saw.length = 0;
      const bypassed = await runPds(['statements', 'lines', PROCESSED], {
        env: signedInEnv(emulator.url, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }),
      });
      expect(bypassed).toMatchObject({ code: 0, stdout: direct.stdout, stderr: '' });
      expect(proxy.saw).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a proxy where nothing listens: exit 1 naming the proxy, no CSV', async () => {
    const proxy = await startForwardProxy();
    await proxy.close();
    const run = await runPds(['statements', 'lines', PROCESSED], {
      env: signedInEnv(emulator.url, { HTTP_PROXY: proxy.url, PDS_RETRY_BUDGET: '0' }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `error: cannot reach ${emulator.url} through the proxy http://127.0.0.1:${proxy.port}/ (ECONNREFUSED)\n`,
    );
  });
});

describe('under GITHUB_ACTIONS, statements named like workflow commands', () => {
  let emulator: Emulator;
  const NAMES = ['::error::x.csv', 'a##[error]b.csv'];
  beforeAll(async () => {
    emulator = await testEmulator({ flavor: 'deployed', processingMs: 20 });
    const dir = mkdtempSync(join(tmpdir(), 'pds-trial-ci-'));
    for (const name of NAMES) writeFileSync(join(dir, name), 'isrc,units\nQMNLC1800096,10\n');
    const uploaded = await runPds(
      ['upload', 'statement', ...NAMES.map((name) => join(dir, name)), '--wait', '--interval', '0.1', '-q'],
      { env: signedInEnv(emulator.url) },
    );
    expect(uploaded.code, uploaded.stderr).toBe(0);
  });
  afterAll(() => emulator.close());

  const CI = { GITHUB_ACTIONS: 'true', CI: 'true' };

  // What pds writes to a pipe is data for a program, in a format asked for or in its default TSV:
  // the same bytes with or without GITHUB_ACTIONS (the docs say to write it to a file, which no
  // runner reads, or to ask for the table, a view pds guards).
  it.each([
    [['statements', 'ls', '--all', '--fields', 'file_name', '--format', 'csv']],
    [['statements', 'ls', '--all', '--jq', '.[].file_name']],
    [['statements', 'ls', '--all']],
    [['statements', 'ls', '--all', '--fields', 'file_name']],
  ])('pds %j: the same bytes as without GITHUB_ACTIONS, nothing on stderr', async (args) => {
    const run = await runPds(args, { env: signedInEnv(emulator.url, CI) });
    expect(run.code, run.stderr).toBe(0);
    const plain = await runPds(args, { env: signedInEnv(emulator.url) });
    expect(run.stdout).toBe(plain.stdout);
    for (const name of NAMES) expect(run.stdout).toContain(name);
    expect(run.stderr).toBe('');
  });

  it('--format table (a view for people): no line is a command, and every name is there as sent', async () => {
    const run = await runPds(['statements', 'ls', '--all', '--fields', 'id,file_name', '--format', 'table'], {
      env: signedInEnv(emulator.url, { ...CI, COLUMNS: '200' }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(obeyed(run.stdout)).toEqual([]);
    expect(obeyed(run.stderr)).toEqual([]);
    for (const name of NAMES) expect(unfenced(run.stdout)).toContain(name);
  });

  it('statements get of each (key/value lines, data): the bytes it gives without GITHUB_ACTIONS', async () => {
    const listed = await runPds(['statements', 'ls', '--all', '--json'], { env: signedInEnv(emulator.url) });
    const ids = (JSON.parse(listed.stdout) as { id: number; file_name: string }[])
      .filter((s) => NAMES.includes(s.file_name))
      .map((s) => String(s.id));
    expect(ids).toHaveLength(NAMES.length);
    for (const id of ids) {
      const run = await runPds(['statements', 'get', id], { env: signedInEnv(emulator.url, CI) });
      expect(run.code, run.stderr).toBe(0);
      const plain = await runPds(['statements', 'get', id], { env: signedInEnv(emulator.url) });
      expect(run.stdout).toBe(plain.stdout);
      expect(run.stdout).toMatch(/^file_name\t(::error::x\.csv|a##\[error\]b\.csv)$/m);
    }
  });
});

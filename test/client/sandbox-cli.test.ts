import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Emulator } from '../../src/emulator/server.js';
import { ExecResult, SandboxFile } from '../../src/lib/schemas.js';
import { answerOf, call, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
});
afterAll(() => emulator.close());

const SANDBOX = `/v1/projects/${DEMO_PROJECT}/sandbox`;
// PDS_NO_SPINNER: a slow exec on a loaded machine would otherwise draw the waiting spinner on the terminal's stderr.
const plain = { env: { NO_COLOR: '1', PDS_NO_SPINNER: '1' } };

/** What the service itself answers for a path: the reference the commands are held to. */
async function serviceEntry(path: string): Promise<SandboxFile> {
  await call(emulator, `${SANDBOX}/connect`, { method: 'POST' });
  const response = await call(emulator, `${SANDBOX}/files?path=${encodeURIComponent(path)}`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: unknown };
  return SandboxFile.parse(body.data);
}

async function directory(path: string): Promise<string[]> {
  const entry = await serviceEntry(path);
  if (entry.type !== 'directory') throw new Error(`${path} is not a directory`);
  return entry.entries;
}

async function fileContent(path: string): Promise<string> {
  const entry = await serviceEntry(path);
  if (entry.type !== 'file') throw new Error(`${path} is not a file`);
  return entry.content;
}

/** The requests one run sent, as `METHOD /path`. */
async function requestsOf(run: () => Promise<unknown>): Promise<string[]> {
  const before = emulator.requests.length;
  await run();
  return emulator.requests.slice(before).map((r) => `${r.method} ${r.path}`);
}

describe('pds sandbox exec', () => {
  it('runs one command: its stdout, byte for byte, and nothing else', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'echo hello; printf "no newline"']);
    expect(result).toEqual({ code: 0, stdout: 'hello\nno newline', stderr: '' });
  });

  it('connects once and sends one exec request for all the commands', async () => {
    const sent = await requestsOf(() => runCli(emulator, ['sandbox', 'exec', 'true', 'true', 'true']));
    expect(sent).toEqual([`POST ${SANDBOX}/connect`, `POST ${SANDBOX}/exec`]);
  });

  it('keeps the streams apart and in order when piped, with no headers', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'echo one', 'echo two >&2', 'echo three; echo four >&2']);
    expect(result).toEqual({ code: 0, stdout: 'one\nthree\n', stderr: 'two\nfour\n' });
  });

  it('puts a dim `$ command` header on stderr before each command on a terminal', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'echo one', 'echo two >&2', 'printf three'], {
      tty: true,
      ...plain,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('one\nthree');
    expect(result.stderr).toBe('$ echo one\n$ echo two >&2\ntwo\n$ printf three\n');

    const colored = await runCli(emulator, ['sandbox', 'exec', 'true', 'true'], {
      tty: true,
      env: { FORCE_COLOR: '1', PDS_NO_SPINNER: '1' },
    });
    expect(colored.stderr).toBe('\u001b[2m$ true\u001b[22m\n\u001b[2m$ true\u001b[22m\n');
  });

  it('ends unterminated output before the next header on a terminal, without touching stdout', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'printf a >&2', 'printf b'], { tty: true, ...plain });
    expect(result.stdout).toBe('b');
    expect(result.stderr).toBe('$ printf a >&2\na\n$ printf b\n');
  });

  it('prints no header for a single command on a terminal', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'echo one'], { tty: true, ...plain });
    expect(result).toEqual({ code: 0, stdout: 'one\n', stderr: '' });
  });

  it('exits with the exit code of a failing command', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'exit 3']);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('');
  });

  it('exits with the last non-zero exit code, 0 when all succeed', async () => {
    expect((await runCli(emulator, ['sandbox', 'exec', 'false', 'true'])).code).toBe(1);
    expect((await runCli(emulator, ['sandbox', 'exec', 'exit 4', 'exit 2', 'true'])).code).toBe(2);
    expect((await runCli(emulator, ['sandbox', 'exec', 'true', 'echo ok'])).code).toBe(0);
  });

  it('reads commands from stdin with `-`, one per line, skipping blank lines and comments', async () => {
    const stdin = '# a script\necho a\n\n   \necho b >&2\r\n  # indented comment\nexit 5\n';
    const result = await runCli(emulator, ['sandbox', 'exec', '-'], { stdin });
    expect(result).toEqual({ code: 5, stdout: 'a\n', stderr: 'b\n' });

    const json = await runCli(emulator, ['sandbox', 'exec', '-', '--json'], { stdin });
    expect(
      z
        .array(ExecResult)
        .parse(JSON.parse(json.stdout))
        .map((r) => r.command),
    ).toEqual(['echo a', 'echo b >&2', 'exit 5']);
  });

  it('prints the result array with --json, exit code unchanged', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', '--json', 'echo out; echo err >&2', 'exit 7']);
    expect(result.code).toBe(7);
    expect(result.stderr).toBe('');
    const parsed = z.array(ExecResult).safeParse(JSON.parse(result.stdout));
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual([
      { command: 'echo out; echo err >&2', stdout: 'out\n', stderr: 'err\n', exitCode: 0 },
      { command: 'exit 7', stdout: '', stderr: '', exitCode: 7 },
    ]);
  });

  it('refuses an empty command list with exit 2, before any request', async () => {
    for (const [args, stdin] of [
      [['sandbox', 'exec'], undefined],
      [['sandbox', 'exec', '-'], ''],
      [['sandbox', 'exec', '-'], '\n# only a comment\n  \n'],
      [['sandbox', 'exec', '-', 'ls'], 'ls\n'],
    ] as const) {
      const before = emulator.requests.length;
      const result = await runCli(emulator, [...args], stdin === undefined ? {} : { stdin });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^error: /);
      expect(emulator.requests.length).toBe(before);
    }
  });
});

describe('pds sandbox ls', () => {
  it('lists the workspace root one name per line when piped, directories marked with /', async () => {
    const entries = await directory('/');
    expect(entries).toContain('contracts/');
    expect(entries).toContain('stats.yaml');
    const result = await runCli(emulator, ['sandbox', 'ls']);
    expect(result).toEqual({ code: 0, stdout: entries.map((e) => `${e}\n`).join(''), stderr: '' });
  });

  it('lists a subdirectory', async () => {
    const entries = await directory('contracts');
    expect(entries.length).toBeGreaterThan(1);
    expect(entries.every((e) => /^contract_.+\/$/.test(e))).toBe(true);
    const result = await runCli(emulator, ['sandbox', 'ls', 'contracts']);
    expect(result.stdout).toBe(entries.map((e) => `${e}\n`).join(''));
  });

  it('lays names out in columns fitted to the terminal width', async () => {
    const entries = await directory('contracts');
    for (const columns of [120, 60, 20]) {
      const result = await runCli(emulator, ['sandbox', 'ls', 'contracts'], { tty: true, columns, ...plain });
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(columns);
      const cells = lines.map((l) => l.split(/\s+/).filter(Boolean));
      // Filled top to bottom: reading column by column gives the service's order.
      const byColumn: string[] = [];
      for (let col = 0; col < (cells[0]?.length ?? 0); col++) {
        for (const row of cells) {
          const cell = row[col];
          if (cell !== undefined) byColumn.push(cell);
        }
      }
      expect(byColumn).toEqual(entries);
      if (columns === 120) expect(lines.length).toBeLessThan(entries.length);
      if (columns === 20) expect(lines.length).toBe(entries.length);
    }
  });

  it('prints the names as a JSON array with --json', async () => {
    const result = await runCli(emulator, ['sandbox', 'ls', 'contracts', '--json'], { tty: true });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(await directory('contracts'));
  });

  it('prints the path of a file, as ls does', async () => {
    const result = await runCli(emulator, ['sandbox', 'ls', 'stats.yaml']);
    expect(result).toEqual({ code: 0, stdout: 'stats.yaml\n', stderr: '' });
  });

  it('exits 5 with the path in the message when the path does not exist', async () => {
    const result = await runCli(emulator, ['sandbox', 'ls', 'contracts/no_such_dir']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('contracts/no_such_dir');
  });
});

describe('pds sandbox cat and info', () => {
  it('prints stats.yaml exactly as the service holds it', async () => {
    const content = await fileContent('stats.yaml');
    expect(content).toContain('counts:');
    const result = await runCli(emulator, ['sandbox', 'cat', 'stats.yaml']);
    expect(result).toEqual({ code: 0, stdout: content, stderr: '' });
  });

  it('writes the same bytes on a terminal: nothing added, nothing colored', async () => {
    const content = await fileContent('AGENTS.md');
    const result = await runCli(emulator, ['sandbox', 'cat', '/AGENTS.md'], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(Buffer.from(result.stdout)).toEqual(Buffer.from(content));
  });

  it('prints the service object with --json', async () => {
    const result = await runCli(emulator, ['sandbox', 'cat', 'stats.yaml', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({ type: 'file', content: await fileContent('stats.yaml') });
  });

  it('exits 5 with the path in the message for a missing file', async () => {
    const result = await runCli(emulator, ['sandbox', 'cat', 'artists/nobody.yaml']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('artists/nobody.yaml');
  });

  it('refuses a directory with exit 2 and points to ls', async () => {
    const result = await runCli(emulator, ['sandbox', 'cat', 'contracts']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('pds sandbox ls contracts');
  });

  it('info prints AGENTS.md', async () => {
    const content = await fileContent('AGENTS.md');
    const { name } = await answerOf<{ name: string }>(emulator, `/v1/projects/${DEMO_PROJECT}`);
    expect(name).not.toBe('');
    const heading = `# Project workspace: ${name}\n`;
    expect(content.slice(0, heading.length)).toBe(heading);
    const result = await runCli(emulator, ['sandbox', 'info']);
    expect(result).toEqual({ code: 0, stdout: content, stderr: '' });
  });
});

describe('pds sandbox connect and disconnect', () => {
  it('prints the status on stderr, or the service object with --json', async () => {
    const connect = await runCli(emulator, ['sandbox', 'connect']);
    expect(connect.code).toBe(0);
    expect(connect.stdout).toBe('');
    expect(connect.stderr).toMatch(/connected/);

    const json = await runCli(emulator, ['sandbox', 'connect', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ sandboxId: expect.any(String), status: 'connected' });

    let result: Awaited<ReturnType<typeof runCli>> | undefined;
    const sent = await requestsOf(async () => {
      result = await runCli(emulator, ['sandbox', 'disconnect', '--json']);
    });
    expect(sent).toEqual([`DELETE ${SANDBOX}/disconnect`]);
    expect(JSON.parse(result?.stdout ?? '')).toEqual({ status: 'disconnected' });

    const text = await runCli(emulator, ['sandbox', 'disconnect']);
    expect(text).toMatchObject({ code: 0, stdout: '' });
    expect(text.stderr).toMatch(/disconnected/);
  });

  it('other verbs connect by themselves after a disconnect', async () => {
    await runCli(emulator, ['sandbox', 'disconnect']);
    const result = await runCli(emulator, ['sandbox', 'exec', 'echo back']);
    expect(result).toEqual({ code: 0, stdout: 'back\n', stderr: '' });
  });
});

describe('confinement: commands cannot reach outside the workspace', () => {
  it('cannot read host files', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'cat /etc/passwd']);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/root:/);
  });

  it('sees only the workspace at /', async () => {
    const result = await runCli(emulator, [
      'sandbox',
      'exec',
      '--json',
      'ls /',
      'cd .. && cd .. && ls',
      'ls /usr/bin/node',
    ]);
    expect(result.code).not.toBe(0);
    const [root, up, node] = z.array(ExecResult).parse(JSON.parse(result.stdout));
    const names = root?.stdout.trim().split('\n') ?? [];
    for (const entry of await directory('/')) expect(names).toContain(entry.replace(/\/$/, ''));
    for (const host of ['home', 'etc', 'root', 'var', 'work', 'node_modules']) expect(names).not.toContain(host);
    expect(up?.stdout).toBe(root?.stdout);
    expect(node?.exitCode).not.toBe(0);
    expect(node?.stdout).toBe('');
  });

  it('has no network', async () => {
    const result = await runCli(emulator, ['sandbox', 'exec', 'curl -sS http://127.0.0.1:9']);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
  });
});

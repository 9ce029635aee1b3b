import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { SandboxFile, type ExecResult } from '../../src/lib/schemas.js';
import { displayDir, handleLine, newShellState, type ShellHost } from '../../src/commands/sandbox/shell.js';
import { main } from '../../src/cli.js';
import { memoryIO } from '../../src/lib/io.js';
import { answerOf, call, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir, instantClock, runCli } from '../helpers/cli.js';

const SANDBOX = `/v1/projects/${DEMO_PROJECT}/sandbox`;

let emulator: Emulator;
/** The prompt's start: the project's name as the emulator answers it. */
let PROMPT: string;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
  const { name } = await answerOf<{ name: string }>(emulator, `/v1/projects/${DEMO_PROJECT}`);
  expect(name).not.toBe('');
  PROMPT = `pds:${name}:`;
});
afterAll(() => emulator.close());

/** The shell with a terminal on stdin; stdout and stderr piped unless `tty`. */
function shell(stdin: string, options: { tty?: boolean } = {}) {
  return runCli(emulator, ['sandbox', 'shell'], { stdin, stdinTTY: true, env: { NO_COLOR: '1' }, ...options });
}

async function requestsOf<T>(run: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  const before = emulator.requests.length;
  const result = await run();
  return { result, sent: emulator.requests.slice(before).map((r) => `${r.method} ${r.path}`) };
}

async function entries(path: string): Promise<string[]> {
  await call(emulator, `${SANDBOX}/connect`, { method: 'POST' });
  const response = await call(emulator, `${SANDBOX}/files?path=${encodeURIComponent(path)}`);
  const entry = SandboxFile.parse(((await response.json()) as { data: unknown }).data);
  if (entry.type !== 'directory') throw new Error(`${path} is not a directory`);
  return entry.entries;
}

describe('pds sandbox shell', () => {
  it('refuses to start without a terminal on stdin, pointing to exec -, before any request', async () => {
    const { result, sent } = await requestsOf(() => runCli(emulator, ['sandbox', 'shell'], { stdin: 'ls\n' }));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('pds sandbox exec -');
    expect(sent).toEqual([]);
  });

  it('runs each line through exec, with the project name and directory in the prompt', async () => {
    const { result, sent } = await requestsOf(() => shell('echo hi\necho oops >&2\n\npwd\nexit\n'));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hi\n/\n');
    expect(result.stderr).toContain('oops\n');
    expect(result.stderr).toContain(`${PROMPT}/$ `);
    expect(sent.filter((s) => s.endsWith('/exec'))).toHaveLength(3);
    // The connect and the project's name are asked for at once: either may reach the service first.
    expect(sent.slice(0, 2)).toContain(`POST ${SANDBOX}/connect`);
    expect(sent.at(-1)).toBe(`DELETE ${SANDBOX}/disconnect`);
  });

  it('keeps `cd` across lines: `cd contracts` then `ls` lists the contracts directory', async () => {
    const contracts = await entries('contracts');
    const result = await shell('cd contracts\nls\npwd\nexit\n');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${contracts.map((e) => e.replace(/\/$/, '')).join('\n')}\n/contracts\n`);
    expect(result.stderr).toContain(`${PROMPT}/contracts$ `);
  });

  it('keeps the old directory when `cd` fails, and shows why', async () => {
    const result = await shell('cd contracts\ncd no_such_dir\npwd\ncd\npwd\ncd -\npwd\nexit\n');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('/contracts\n/\n/contracts\n');
    expect(result.stderr).toMatch(/no_such_dir/);
  });

  it('runs a chained cd for its own line only', async () => {
    const result = await shell('cd contracts && pwd\npwd\nexit\n');
    expect(result.stdout).toBe('/contracts\n/\n');
  });

  it('passes exit codes of lines through without leaving', async () => {
    const result = await shell('false\nexit 3\necho never\n');
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
  });

  it('leaves and disconnects at the end of input (Ctrl-D) too', async () => {
    const { result, sent } = await requestsOf(() => shell('echo bye\n'));
    expect(result).toMatchObject({ code: 0, stdout: 'bye\n' });
    expect(sent.at(-1)).toBe(`DELETE ${SANDBOX}/disconnect`);
    expect(result.stderr).toMatch(/disconnected/);
  });

  it('on a terminal, Ctrl-C cancels the line being typed and Ctrl-D leaves', async () => {
    const { result, sent } = await requestsOf(() => shell('rm -rf contracts\u0003echo kept\r\u0004', { tty: true }));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('kept\n');
    expect(result.stderr).toContain('^C');
    expect(sent.filter((s) => s.endsWith('/exec'))).toHaveLength(1);
    expect(sent.at(-1)).toBe(`DELETE ${SANDBOX}/disconnect`);
  });

  it('on a terminal, Ctrl-C while a command runs returns to the prompt without waiting for it', async () => {
    // Typed while the shell runs, so stdin stays open between keystrokes.
    const io = memoryIO({ tty: true, stdinTTY: true });
    const env = {
      PDS_CONFIG_DIR: freshConfigDir(),
      PDS_API_URL: emulator.url,
      PDS_TOKEN: 'demo-org-token',
      PDS_PROJECT: DEMO_PROJECT,
      NO_COLOR: '1',
    };
    const started = Date.now();
    const before = emulator.requests.length;
    const running = main(['sandbox', 'shell'], { io, env, clock: instantClock });
    const execs = () => emulator.requests.slice(before).filter((r) => r.path.endsWith('/exec')).length;
    await vi.waitFor(() => expect(io.err()).toContain('$ '), 5000);
    io.stdin.write('sleep 9; echo late\r');
    await vi.waitFor(() => expect(execs()).toBe(1), 5000);
    io.stdin.write('\u0003');
    io.stdin.write('echo after\r');
    await vi.waitFor(() => expect(io.out()).toBe('after\n'), 5000);
    io.stdin.end('\u0004');
    expect(await running).toBe(0);
    // `sleep 9` was not waited for.
    expect(Date.now() - started).toBeLessThan(8000);
    expect(io.out()).not.toContain('late');
    expect(io.err()).toContain('^C');
  });

  it('ends an unterminated last line on a terminal before the next prompt', async () => {
    const result = await shell('printf abc\r\u0004', { tty: true });
    expect(result.stdout).toBe('abc');
    const promptAt = new RegExp(`\\n[^\\n]*${PROMPT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\$ `);
    expect(result.stderr).toMatch(promptAt);
  });
});

describe('handleLine', () => {
  /** A host that answers `pwd`-style resolution like a sandbox rooted at /, and records commands. */
  function recordingHost(answers: (command: string) => Partial<ExecResult> = () => ({})) {
    const sent: string[][] = [];
    const host: ShellHost = {
      exec: async (commands) => {
        sent.push(commands);
        return commands.map((command) => ({ command, stdout: '', stderr: '', exitCode: 0, ...answers(command) }));
      },
      show: async () => undefined,
      say: () => undefined,
      clear: () => {
        sent.push(['(clear)']);
      },
    };
    return { host, sent };
  }

  it('prefixes each line with the tracked directory, quoted', async () => {
    const state = newShellState();
    const { host, sent } = recordingHost((command) =>
      command === 'pwd' ? { stdout: '/\n' } : command.endsWith('&& pwd') ? { stdout: "/it's here\n" } : {},
    );
    await handleLine('ls', state, host);
    await handleLine('cd "it\'s here"', state, host);
    await handleLine('ls | head', state, host);
    expect(sent).toEqual([['ls'], ['pwd', `cd "it's here" && pwd`], [`cd '/it'\\''s here' && ls | head`]]);
    expect(displayDir(state)).toBe("/it's here");
  });

  it('shows paths from a workspace root that is not /', async () => {
    const state = newShellState();
    const { host } = recordingHost((command) =>
      command === 'pwd' ? { stdout: '/workspace\n' } : { stdout: '/workspace/contracts\n' },
    );
    await handleLine('cd contracts', state, host);
    expect(state.dir).toBe('/workspace/contracts');
    expect(displayDir(state)).toBe('/contracts');
  });

  it('leaves on exit, and skips blank lines and comments without a request', async () => {
    const { host, sent } = recordingHost();
    const state = newShellState();
    expect(await handleLine('   ', state, host)).toEqual({ exit: false });
    expect(await handleLine('# note', state, host)).toEqual({ exit: false });
    expect(await handleLine('exit', state, host)).toEqual({ exit: true, code: 0 });
    expect(await handleLine(' exit 4 ', state, host)).toEqual({ exit: true, code: 4 });
    expect(sent).toEqual([]);
  });
});

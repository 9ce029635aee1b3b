// The built CLI as a real process: start-up imports, a closed pipe, Ctrl-C, exit codes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { childEnv, signedInEnv } from '../helpers/process.js';

const bin = new URL('../../bin/pds.js', import.meta.url).pathname;
const tracer = new URL('../helpers/trace-imports.mjs', import.meta.url).pathname;

let emulator: Emulator;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current', scale: 20 });
  env = childEnv(signedInEnv(emulator.url));
});
afterAll(() => emulator.close());

/** Runs the built CLI without blocking this process (the emulator answers from here). */
function pds(
  args: string[],
  nodeArgs: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...nodeArgs, bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The files (besides the shim and the entry) a run of pds imports. */
async function importedChunks(args: string[]): Promise<string[]> {
  const result = await pds(args, ['--import', tracer]);
  expect(result.code).toBe(0);
  return (
    result.stderr
      .split('\n')
      .filter((line) => line.startsWith('import '))
      .map((line) => line.slice('import '.length))
      // rolldown keeps its small runtime (module interop helpers) in a file of its own.
      .filter(
        (url) =>
          !url.endsWith('/bin/pds.js') &&
          !url.endsWith('/dist/cli.cjs') &&
          !/\/dist\/chunks\/rolldown-runtime-[\w-]+\.cjs$/.test(url),
      )
  );
}

describe('the pds process', () => {
  it('--version loads nothing of the bundle; a list loads dist/cli.cjs alone', async () => {
    const version = await pds(['--version'], ['--import', tracer]);
    expect(version.stdout).toBe('0.1.0\n');
    expect(version.stderr.split('\n').filter((line) => line.startsWith('import ') && line.includes('/dist/'))).toEqual(
      [],
    );
    // scripts/build.js joins what an everyday run needs (commander, the definitions, the context,
    // HTTP, output, the list verbs) into the entry: one file to load rather than some thirty.
    expect(await importedChunks(['projects', 'ls'])).toEqual([]);
    expect(await importedChunks(['artists', 'ls'])).toEqual([]);
    // A verb outside it loads chunks of its own besides.
    const forTools = await importedChunks(['mcp', 'tools']);
    expect(forTools.length).toBeGreaterThan(0);
    for (const url of forTools) expect(url).toMatch(/\/dist\/chunks\/[\w-]+\.cjs$/);
  });

  it('loads the MCP SDK only in `pds mcp`', async () => {
    // A string of the protocol that minifying keeps: it marks the SDK's code in whichever chunk it lands.
    const sdkIn = (urls: string[]) =>
      urls.some((url) => readFileSync(new URL(url), 'utf8').includes('notifications/initialized'));
    // stdin is /dev/null: the server starts, sees the end of its input and exits 0.
    expect(sdkIn(await importedChunks(['mcp']))).toBe(true);
    expect(sdkIn(await importedChunks(['--help']))).toBe(false);
    expect(sdkIn(await importedChunks(['projects', 'ls']))).toBe(false);
    expect(sdkIn(await importedChunks(['mcp', 'config', '--client', 'claude']))).toBe(false);
    expect(sdkIn(await importedChunks(['mcp', 'tools']))).toBe(false);
  });

  it('loads jq only for --jq, and the pager only on a terminal', async () => {
    const plain = await importedChunks(['projects', 'ls']);
    const withJq = await importedChunks(['projects', 'ls', '--jq', '.[].id']);
    expect(plain.filter((url) => /\/chunks\/(jq|pager)-/.test(url))).toEqual([]);
    expect(withJq.filter((url) => /\/chunks\/jq-/.test(url))).toHaveLength(1);
  });

  it('prints the version from package.json', async () => {
    expect(await pds(['--version'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('ends quietly with exit 0 when the reader of its output goes away (EPIPE)', async () => {
    const child = spawn(process.execPath, [bin, 'artists', 'ls', '--all'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve) => lines.once('line', resolve));
    expect(first).toBe('ID\tNAME');
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('exits 130 on Ctrl-C, without a stack trace', async () => {
    const slow = await testEmulator({ flavor: 'current', latencyMs: 5000 });
    try {
      const child = spawn(process.execPath, [bin, 'projects', 'ls'], {
        env: { ...env, PDS_API_URL: slow.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // Wait until the request reached the emulator, then interrupt.
      while (slow.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(130);
      expect(stderr).not.toMatch(/at .*\(|Error:/);
    } finally {
      await slow.close();
    }
  });

  it('maps an unknown command to exit 2 with one error line', async () => {
    expect(await pds(['frobnicate'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown command 'frobnicate'\n  see `pds --help`, or `pds <command> --help`\n",
    });
  });
});

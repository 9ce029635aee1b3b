// `node scripts/bench-mcp.js`: the figures of `pds mcp` (issue 13) as an MCP client sees them:
// from spawning the server to the answer of `initialize`, of `tools/list`, of a first tool call,
// and from closing stdin to the exit. Medians of BENCH_RUNS runs (default 9) against an emulator.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdsBin, requireBuild, startEmulator } from './lib.js';

requireBuild();
const runs = Number(process.env.BENCH_RUNS ?? 9);
const work = mkdtempSync(join(tmpdir(), 'pds-bench-mcp-'));

/** One session: the milliseconds from the spawn to each answer, and from stdin's end to the exit. */
function session(env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [pdsBin, 'mcp'], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answered = {};
    let buffer = '';
    let closedAt = 0;
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        answered[message.id] = performance.now() - started;
        if (message.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          send({ id: 3, method: 'tools/call', params: { name: 'list_contracts', arguments: { perPage: 20 } } });
        } else if (message.id === 3) {
          closedAt = performance.now();
          child.stdin.end();
        }
      }
    });
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`pds mcp exited ${code}`));
      else
        resolve({ initialize: answered[1], list: answered[2], call: answered[3], exit: performance.now() - closedAt });
    });
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  });
}

/** Bare node's spawn-to-exit, for scale: a shared machine's speed drifts. */
function bare() {
  return new Promise((resolve) => {
    const started = performance.now();
    spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).once('exit', () => resolve(performance.now() - started));
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const emulator = await startEmulator();
try {
  const env = {
    PDS_API_URL: emulator.url,
    PDS_TOKEN: 'demo-org-token',
    PDS_PROJECT: '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7',
    PDS_CONFIG_DIR: work,
  };
  await session(env); // warm the file system cache
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push({ ...(await session(env)), bare: await bare() });
  const fmt = (key) => `${median(samples.map((s) => s[key])).toFixed(0)} ms`;
  process.stdout.write(`pds mcp on node ${process.version}, median of ${runs} sessions\n\n`);
  process.stdout.write(`${'node -e 0 (baseline)'.padEnd(44)} ${fmt('bare')}\n`);
  process.stdout.write(`${'spawn → initialize answered'.padEnd(44)} ${fmt('initialize')}\n`);
  process.stdout.write(`${'spawn → tools/list answered'.padEnd(44)} ${fmt('list')}\n`);
  process.stdout.write(`${'spawn → list_contracts (20) answered'.padEnd(44)} ${fmt('call')}\n`);
  process.stdout.write(`${'stdin closed → exit'.padEnd(44)} ${fmt('exit')}\n`);
} finally {
  await emulator.stop();
  rmSync(work, { recursive: true, force: true });
}

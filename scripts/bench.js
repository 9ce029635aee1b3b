// `npm run bench`: prints the speed and memory figures of issue 3 and 4 in one run. It measures,
// it does not judge: the targets are printed beside the figures, and it always exits 0 unless a
// measured command itself failed.
//
// Peak memory comes from a preload (scripts/rss-probe.cjs) that writes the child's own maxRSS
// when it exits, so no external `time` binary is needed.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdsBin, requireBuild, root, startEmulator } from './lib.js';

requireBuild();
const runs = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(join(tmpdir(), 'pds-bench-'));
const probe = join(root, 'scripts', 'rss-probe.cjs');

function timed(args, env = {}, { measureRss = false } = {}) {
  const rssFile = join(work, `rss-${Math.random().toString(36).slice(2)}`);
  const nodeArgs = measureRss ? ['--require', probe, ...args] : args;
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, nodeArgs, {
    env: { ...process.env, ...env, ...(measureRss ? { PDS_RSS_FILE: rssFile } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${String(result.stderr).slice(0, 500)}`);
  }
  const rssMb = measureRss ? Number(readFileSync(rssFile, 'utf8')) / 1024 : undefined;
  return { ms, rssMb };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function medianOf(count, args, env, options) {
  timed(args, env, options); // warm the file system cache
  const samples = Array.from({ length: count }, () => timed(args, env, options));
  return {
    ms: median(samples.map((s) => s.ms)),
    rssMb: options?.measureRss ? Math.max(...samples.map((s) => s.rssMb)) : undefined,
  };
}

/**
 * Start-up figures are ratios to bare node, and a shared machine's speed drifts from one second
 * to the next: so the two commands run alternately and each ratio is the median of the pairs.
 */
function ratioToBare(count, args, env) {
  timed(args, env);
  const pairs = Array.from({ length: count }, () => {
    const base = timed(['-e', '0']).ms;
    const ms = timed(args, env).ms;
    return { base, ms, ratio: ms / base };
  });
  return { base: median(pairs.map((p) => p.base)), ms: median(pairs.map((p) => p.ms)), ratio: median(pairs.map((p) => p.ratio)) };
}

/**
 * The cost of --jq over the same --all list: jq holds the whole array (the plain list streams),
 * and its WebAssembly module is loaded only for this flag.
 */
function benchJq(env, artists, listing) {
  const filtered = medianOf(5, [pdsBin, 'artists', 'ls', '--all', '--jq', '.[].name'], env, { measureRss: true });
  row(
    `pds artists ls --all --jq '.[].name' (${artists} artists)`,
    `${fmt(filtered.ms)}, peak ${filtered.rssMb.toFixed(0)} MB`,
    `(+${fmt(filtered.ms - listing.ms)}, +${(filtered.rssMb - listing.rssMb).toFixed(0)} MB over --json)`,
  );
}

/** `artists ls --all` in a format (json, ndjson) against the emulator of `env`: its record count, time and peak RSS. */
function listAll(count, env, format = 'json') {
  const ids = spawnSync(process.execPath, [pdsBin, 'artists', 'ls', '--all', '-q'], { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const artists = ids.stdout.trim().split('\n').length;
  return { artists, ...medianOf(count, [pdsBin, 'artists', 'ls', '--all', '--format', format], env, { measureRss: true }) };
}

const rows = [];
const row = (name, figure, target) => {
  rows.push([name, figure, target]);
  process.stdout.write(`${name.padEnd(58)} ${figure.padEnd(26)} ${target}\n`);
};
const fmt = (ms) => `${ms.toFixed(0)} ms`;

process.stdout.write(`pds bench on node ${process.version}; start-up: ${runs} runs alternating with bare node, median ratio\n\n`);

const version = ratioToBare(runs, [pdsBin, '--version']);
row('node -e 0', fmt(version.base), '(baseline)');
row('pds --version', `${fmt(version.ms)} (${version.ratio.toFixed(2)}x)`, 'within 1.3x bare node');

const emulator = await startEmulator(['--scale', '100']);
const env = { PDS_API_URL: emulator.url, PDS_TOKEN: 'demo-org-token', PDS_PROJECT: '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7', PDS_CONFIG_DIR: work };
try {
  const projects = ratioToBare(runs, [pdsBin, 'projects', 'ls'], env);
  row('pds projects ls (emulator)', `${fmt(projects.ms)} (${projects.ratio.toFixed(2)}x)`, 'within 2x bare node');

  const listing = listAll(5, env);
  row(`pds artists ls --all --json (${listing.artists} artists)`, `${fmt(listing.ms)}, peak ${listing.rssMb.toFixed(0)} MB`, 'under 2 s, under 120 MB');
  benchJq(env, listing.artists, listing);

  // Memory of --all must not grow with the record count: the same list at 10x the records, as a
  // JSON array and as NDJSON (both streamed a page at a time).
  const ndjson = listAll(3, env, 'ndjson');
  const large = await startEmulator(['--scale', '1000']);
  try {
    for (const [format, small] of [['json', listing], ['ndjson', ndjson]]) {
      const big = listAll(3, { ...env, PDS_API_URL: large.url }, format);
      row(
        `pds artists ls --all --format ${format} (${big.artists} artists)`,
        `${fmt(big.ms)}, peak ${big.rssMb.toFixed(0)} MB (${big.rssMb >= small.rssMb ? '+' : ''}${(big.rssMb - small.rssMb).toFixed(0)} MB)`,
        `within 10 MB of ${small.artists} artists (${small.rssMb.toFixed(0)} MB)`,
      );
    }
  } finally {
    await large.stop();
  }

  // A 50 MB PDF: a valid header, filler, and the trailer the staging check looks for.
  const big = join(work, 'big.pdf');
  const fd = openSync(big, 'w');
  writeSync(fd, '%PDF-1.4\n');
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < 49; i++) writeSync(fd, chunk);
  writeSync(fd, Buffer.alloc(1024 * 1024 - 64, 0x20));
  writeSync(fd, '\n%%EOF\n');
  closeSync(fd);
  const upload = medianOf(3, [pdsBin, 'upload', 'statement', big], env, { measureRss: true });
  row('pds upload statement (50 MB PDF)', `${fmt(upload.ms)}, peak ${upload.rssMb.toFixed(0)} MB`, 'under 90 MB');
} finally {
  await emulator.stop();
}

// 20 statements against a service that takes 100 ms per request.
const slow = await startEmulator(['--latency', '100']);
const slowEnv = { ...env, PDS_API_URL: slow.url };
try {
  const sample = join(root, 'test', 'fixtures', 'sample.pdf');
  const files = Array.from({ length: 20 }, () => sample);
  const one = medianOf(3, [pdsBin, 'upload', 'statement', ...files, '--concurrency', '1'], slowEnv);
  const four = medianOf(3, [pdsBin, 'upload', 'statement', ...files, '--concurrency', '4'], slowEnv);
  row('pds upload statement x20, --latency 100, --concurrency 1', fmt(one.ms), '');
  row('pds upload statement x20, --latency 100, --concurrency 4', `${fmt(four.ms)} (${(one.ms / four.ms).toFixed(1)}x faster)`, 'faster than --concurrency 1');
} finally {
  await slow.stop();
  rmSync(work, { recursive: true, force: true });
}

await emulatorFigures();

/**
 * The emulator under load (issue 9): its peak RSS while 20 sandbox execs arrive at once, the p99
 * of GETs made meanwhile, and GET /v1/projects per second over 50 keep-alive connections.
 */
async function emulatorFigures() {
  const target = await startEmulator();
  const project = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  const request = (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = http.request(`${target.url}${path}`, {
        method,
        agent,
        headers: { authorization: 'Bearer demo-org-token', ...(body ? { 'content-type': 'application/json' } : {}) },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
      req.end(body);
    });
  const peakRssMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${target.pid}/status`, 'utf8'))?.[1]) / 1024;
  try {
    await request('POST', `/v1/projects/${project}/sandbox/connect`);
    const body = JSON.stringify({ commands: ['grep -ril nova . | wc -l', 'cat */*.yaml | wc -c'] });
    const execs = Promise.all(Array.from({ length: 20 }, () => request('POST', `/v1/projects/${project}/sandbox/exec`, body)));
    let running = true;
    void execs.then(() => (running = false));
    const latencies = [];
    while (running) {
      const started = performance.now();
      await request('GET', '/v1/projects');
      latencies.push(performance.now() - started);
    }
    const statuses = await execs;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))];
    const served = statuses.filter((s) => s === 200).length;
    row('emulator: peak RSS, 20 concurrent execs', `${peakRssMb().toFixed(0)} MB (${served} run, ${20 - served} got 429)`, 'under 1 GiB');
    row('emulator: GET p99 during those execs', `${p99.toFixed(0)} ms (${latencies.length} GETs)`, 'under 200 ms');

    const seconds = 3;
    const until = performance.now() + seconds * 1000;
    let count = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (performance.now() < until) {
          await request('GET', '/v1/projects');
          count++;
        }
      }),
    );
    row('emulator: GET /v1/projects, 50 connections', `${Math.round(count / seconds)} requests/s`, '');
  } finally {
    agent.destroy();
    await target.stop();
  }

  // One upload's cost with --data at --scale 100 (a 37 MB state): a journal line and an fsync.
  const dir = mkdtempSync(join(tmpdir(), 'pds-bench-data-'));
  const persisted = await startEmulator(['--scale', '100', '--data', join(dir, 'state.json')]);
  try {
    const pdf = readFileSync(join(root, 'test', 'fixtures', 'sample.pdf')).toString('base64');
    const times = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const response = await fetch(`${persisted.url}/v1/statements?projectId=${project}`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-org-token', 'content-type': 'application/json' },
        body: JSON.stringify({ file: pdf, fileName: `bench-${i}.pdf` }),
      });
      await response.text();
      times.push(performance.now() - started);
    }
    row('emulator --data, --scale 100: one upload (median of 20)', fmt(median(times)), '');
  } finally {
    await persisted.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// The emulator under load (issue 9), for `npm run bench`: its peak RSS while sandbox execs arrive
// at once, the p99 of GETs made meanwhile, GET /v1/projects per second over 50 keep-alive
// connections beside a bare node:http server's, and the cost of one upload with --data.
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, startEmulator, startServer } from './lib.js';

const PROJECT = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
const TOKEN = 'demo-org-token';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `row` and `atMost` are the bench's; `quick` makes every figure smaller. */
export async function emulatorFigures({ quick, row, atMost }) {
  const target = await startEmulator();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  // A keep-alive connection the server closes as it is reused resets: a GET is sent again, once.
  const request = (method, path, body, retried = false) =>
    send(method, path, body).catch((error) => {
      if (retried || method !== 'GET' || error.code !== 'ECONNRESET') throw error;
      return request(method, path, body, true);
    });
  const send = (method, path, body) =>
    new Promise((resolve, reject) => {
      const headers = {
        authorization: `Bearer ${TOKEN}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      };
      const req = http.request(`${target.url}${path}`, { method, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
      req.end(body);
    });
  const peakRssMb = () =>
    Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${target.pid}/status`, 'utf8'))?.[1]) / 1024;
  try {
    const execs = quick ? 4 : 20;
    const { latencies, served } = await getsDuringExecs(request, execs);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))];
    process.stderr.write(
      `  ${execs} execs at once: ${served} run, ${execs - served} got 429; ${latencies.length} GETs meanwhile\n`,
    );
    row(`emulator: peak RSS, ${execs} concurrent execs`, 'MiB', peakRssMb(), undefined, atMost(1024, 'MiB'));
    row('emulator: GET p99 during those execs, ms', 'ms', p99, undefined, atMost(200, 'ms'));
  } finally {
    agent.destroy();
    await target.stop();
  }
  await throughputFigures(row, quick);
  await persistedUpload(row, quick);
}

/**
 * GET /v1/projects as fast as 50 keep-alive connections ask, from the emulator and from a bare
 * node:http server sending the same bytes (scripts/floor/serve.js), alternately: requests a
 * second, and the server's CPU per request (the second holds better on a loaded machine, where the
 * first also measures how much CPU the client gets).
 */
async function throughputFigures(row, quick) {
  const emulator = await startEmulator();
  const floor = await startServer([join(root, 'scripts', 'floor', 'serve.js'), emulator.url, '/v1/projects'], {
    PDS_TOKEN: TOKEN,
  });
  try {
    const seconds = quick ? 1 : 3;
    const pairs = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      const base = await hammer(floor, '/v1/projects', seconds);
      pairs.push({ base, pds: await hammer(emulator, '/v1/projects', seconds) });
    }
    const of = (side, key) => median(pairs.map((pair) => pair[side][key]));
    row(
      'emulator: GET /v1/projects, 50 connections, requests/s',
      'req/s',
      of('pds', 'perSecond'),
      of('base', 'perSecond'),
      null,
      'bare node:http server',
    );
    row(
      'emulator: GET /v1/projects, 50 connections, server CPU per request, µs',
      'µs',
      of('pds', 'cpuUs'),
      of('base', 'cpuUs'),
      null,
      'bare node:http server',
    );
  } finally {
    await floor.stop();
    await emulator.stop();
  }
}

/** `path` asked for over 50 keep-alive connections for `seconds`: requests a second, server CPU µs each. */
async function hammer(server, path, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  const get = () =>
    new Promise((resolve, reject) => {
      const req = http.get(`${server.url}${path}`, { agent, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
  try {
    await Promise.all(Array.from({ length: 50 }, get)); // the connections made before the clock starts
    const cpuBefore = cpuMsOf(server.pid);
    const until = performance.now() + seconds * 1000;
    let count = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (performance.now() < until) {
          await get();
          count++;
        }
      }),
    );
    return { perSecond: count / seconds, cpuUs: ((cpuMsOf(server.pid) - cpuBefore) * 1000) / count };
  } finally {
    agent.destroy();
  }
}

/** A process's user and system CPU so far, in ms (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
/** Sandbox execs sent at once, and the latencies of GETs made one after another until they end. */
async function getsDuringExecs(request, execs) {
  await request('POST', `/v1/projects/${PROJECT}/sandbox/connect`);
  const body = JSON.stringify({ commands: ['grep -ril nova . | wc -l', 'cat */*.yaml | wc -c'] });
  const all = Promise.all(
    Array.from({ length: execs }, () => request('POST', `/v1/projects/${PROJECT}/sandbox/exec`, body)),
  );
  let running = true;
  void all.then(() => (running = false));
  const latencies = [];
  while (running) {
    const started = performance.now();
    await request('GET', '/v1/projects');
    latencies.push(performance.now() - started);
  }
  const statuses = await all;
  latencies.sort((a, b) => a - b);
  return { latencies, served: statuses.filter((s) => s === 200).length };
}

/** One upload's cost with --data at --scale 100 (a 37 MB state): a journal line and an fsync. */
async function persistedUpload(row, quick) {
  const dir = mkdtempSync(join(tmpdir(), 'pds-bench-data-'));
  const scale = quick ? 1 : 100;
  const persisted = await startEmulator(['--scale', String(scale), '--data', join(dir, 'state.json')]);
  try {
    const pdf = readFileSync(join(root, 'test', 'fixtures', 'sample.pdf')).toString('base64');
    const times = [];
    for (let i = 0; i < (quick ? 3 : 20); i++) {
      const started = performance.now();
      const response = await fetch(`${persisted.url}/v1/statements?projectId=${PROJECT}`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-org-token', 'content-type': 'application/json' },
        body: JSON.stringify({ file: pdf, fileName: `bench-${i}.pdf` }),
      });
      await response.text();
      times.push(performance.now() - started);
    }
    row(`emulator --data, --scale ${scale}: one upload (median), ms`, 'ms', median(times), undefined, null);
  } finally {
    await persisted.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// `pds emulator start` as a real process: it stops within 2 s of SIGINT or SIGTERM, also after
// sandbox commands (whose threads once kept it alive for a minute), and 20 concurrent execs keep
// it under 1 GiB while it still answers.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPds, type PipedProcess } from '../helpers/process.js';

const PROJECT = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
const TOKEN = 'demo-org-token';

async function startEmulator(args: string[] = []): Promise<{ emulator: PipedProcess; url: string }> {
  const emulator = startPds(['emulator', 'start', '--port', '0', '--quiet', ...args], { killAfterMs: 60_000 });
  await emulator.waitFor(/listening on http:\/\/\S+\n/);
  const url = /listening on (http:\/\/\S+)/.exec(emulator.stdout())?.[1] as string;
  return { emulator, url };
}

function post(url: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The peak resident memory of a process, from /proc (Linux), in MiB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

describe('pds emulator start stops promptly', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`exits 0 within 2 s of ${signal}, also after a sandbox exec`, async () => {
      const { emulator, url } = await startEmulator();
      expect((await post(url, `/v1/projects/${PROJECT}/sandbox/connect`)).status).toBe(200);
      const exec = await post(url, `/v1/projects/${PROJECT}/sandbox/exec`, { commands: ['cat stats.yaml'] });
      expect(exec.status).toBe(200);
      const sent = Date.now();
      emulator.child.kill(signal);
      const exit = await emulator.exited;
      expect(exit.signal).toBeNull();
      expect(exit.code).toBe(0);
      expect(Date.now() - sent).toBeLessThan(2000);
    });
  }

  it('exits within 2 s of SIGINT while execs are running and waiting', async () => {
    const { emulator, url } = await startEmulator();
    await post(url, `/v1/projects/${PROJECT}/sandbox/connect`);
    const load = Array.from({ length: 6 }, () =>
      post(url, `/v1/projects/${PROJECT}/sandbox/exec`, { commands: ['sleep 30'] }).catch(() => undefined),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = Date.now();
    emulator.child.kill('SIGINT');
    const exit = await emulator.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - sent).toBeLessThan(2000);
    await Promise.all(load);
  });
});

describe('pds emulator start under exec load', () => {
  it('stays under 1 GiB with 20 concurrent execs and keeps answering', { timeout: 60_000 }, async () => {
    const { emulator, url } = await startEmulator();
    try {
      await post(url, `/v1/projects/${PROJECT}/sandbox/connect`);
      const load = Promise.all(
        Array.from({ length: 20 }, () =>
          post(url, `/v1/projects/${PROJECT}/sandbox/exec`, {
            commands: ['grep -ril a . | wc -l', 'cat */*.yaml | wc -c'],
          }),
        ),
      );
      for (let i = 0; i < 10; i++) {
        const response = await fetch(`${url}/v1/projects`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(response.status).toBe(200);
      }
      const statuses = (await load).map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
      expect(peakRssMb(emulator.child.pid as number)).toBeLessThan(1024);
    } finally {
      emulator.child.kill('SIGINT');
      await emulator.exited;
    }
  });
});

describe('pds emulator start under upload load', () => {
  it('decodes JSON uploads as they arrive: 8 concurrent 60 MiB bodies stay under 300 MB', {
    timeout: 60_000,
  }, async () => {
    const { emulator, url } = await startEmulator();
    try {
      const sample = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));
      // A 45 MiB PDF: the sample's header, padding in a comment, and the sample's end.
      const pdf = Buffer.concat([
        Buffer.from('%PDF-1.4\n%'),
        Buffer.alloc(45 * 1024 * 1024, 'x'),
        Buffer.from('\n'),
        sample.subarray(sample.indexOf('\n') + 1),
      ]);
      const body = Buffer.from(JSON.stringify({ fileName: 'big.pdf', file: pdf.toString('base64') }));
      expect(body.length).toBeGreaterThan(60 * 1024 * 1024);
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${url}/v1/statements?projectId=${PROJECT}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body,
          }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(peakRssMb(emulator.child.pid as number)).toBeLessThan(300);
    } finally {
      emulator.child.kill('SIGINT');
      await emulator.exited;
    }
  });
});

describe('pds emulator start --data survives kill -9', () => {
  it('keeps every upload it answered, and leaves no temporary file', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-crash-'));
    const dataFile = join(dir, 'state.json');
    try {
      const { emulator, url } = await startEmulator(['--data', dataFile, '--processing-ms', '50']);
      const pdf = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url)).toString('base64');
      const answered: number[] = [];
      let stop = false;
      const worker = async (n: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const response = await fetch(`${url}/v1/statements?projectId=${PROJECT}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
              body: JSON.stringify({ file: pdf, fileName: `w${n}-${i}.pdf` }),
            });
            if (response.status === 200)
              answered.push(((await response.json()) as { data: { staging_id: number } }).data.staging_id);
          } catch {
            return; // the emulator is gone
          }
        }
      };
      const workers = Promise.all([0, 1, 2, 3].map(worker));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      emulator.child.kill('SIGKILL');
      await emulator.exited;
      stop = true;
      await workers;
      expect(answered.length).toBeGreaterThan(10);

      const restarted = await startEmulator(['--data', dataFile]);
      try {
        for (const id of answered) {
          const response = await fetch(`${restarted.url}/v1/statements/${id}/processes?projectId=${PROJECT}`, {
            headers: { authorization: `Bearer ${TOKEN}` },
          });
          expect(response.status, `staging id ${id}`).toBe(200);
        }
        expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      } finally {
        restarted.emulator.child.kill('SIGINT');
        await restarted.emulator.exited;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The forms a deployed service answers in where the spec is silent (CLI.md "Tolerance"), served
// by the emulator and read by pds: the project list stays an array under --drift, a failed
// staging check carries `info.staging_check = {status, info}`, and statement processes come as
// `extraction_done`/`extraction_processes` under --drift. pds prints the same for either form.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { realClock, type Clock } from '../../src/lib/clock.js';
import { runCli } from '../helpers/cli.js';
import { call, testEmulator } from '../helpers/emulator.js';

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));
const NO_TRAILER = Buffer.from('%PDF-1.4\nno trailer here\n');
const REASON = 'the file does not end with %%EOF; it may be truncated or damaged';
const quickClock: Clock = { now: () => Date.now(), sleep: (ms, signal) => realClock.sleep(Math.min(ms, 5), signal) };

let spec: Emulator;
let drifted: Emulator;
beforeAll(async () => {
  [spec, drifted] = await Promise.all([
    testEmulator({ flavor: 'current', processingMs: 20 }),
    testEmulator({ flavor: 'current', processingMs: 20, drift: true }),
  ]);
});
afterAll(() => Promise.all([spec.close(), drifted.close()]));

async function upload(target: Emulator, kind: 'contract' | 'statement', body: Buffer = PDF): Promise<number> {
  const result = await runCli(target, ['upload', kind, '-', '--file-name', `${kind}.pdf`, '-q'], { stdin: body });
  expect(result.code).toBe(0);
  return Number(result.stdout.trim());
}

async function processes(
  target: Emulator,
  kind: 'contracts' | 'statements',
  id: number,
): Promise<Record<string, unknown>> {
  const response = await call(target, `/v1/${kind}/${id}/processes?projectId=${DEMO_PROJECT_ID}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the project list', () => {
  it('is a plain array under --drift too', async () => {
    const response = await call(drifted, '/v1/projects');
    const body = (await response.json()) as { data: unknown };
    expect(Array.isArray(body.data)).toBe(true);
    expect((body.data as { id: string }[]).map((p) => p.id)).toContain(DEMO_PROJECT_ID);
  });
});

describe('why staging failed', () => {
  it('is served in the deployed shape beside the flat one', async () => {
    const id = await upload(spec, 'contract', NO_TRAILER);
    await settle(80);
    const data = await processes(spec, 'contracts', id);
    expect(data.staging_processes).toEqual({
      stage: 'failed',
      info: {
        check: 'pdf-trailer',
        status: 'failed',
        message: REASON,
        staging_check: { status: 'failed', info: REASON },
      },
    });
  });

  it('is shown by pds status, from either emulator, the same way', async () => {
    for (const target of [spec, drifted]) {
      const id = await upload(target, 'statement', NO_TRAILER);
      const result = await runCli(target, ['statements', 'status', String(id), '--watch'], { clock: quickClock });
      expect(result.code).toBe(7);
      expect(result.stdout).toContain(`staging_check.message\t${REASON}\n`);
      expect(result.stdout).not.toContain('staging_check.staging_check');
      expect(result.stderr).toContain(`  message: ${REASON}\n`);
    }
  });
});

describe('statement processes under --drift', () => {
  it('are served as extraction_done and extraction_processes {stage, step, remarks}', async () => {
    const id = await upload(drifted, 'statement');
    const seen: Record<string, unknown>[] = [];
    for (let i = 0; i < 200; i++) {
      const data = await processes(drifted, 'statements', id);
      seen.push(data);
      if (data.extraction_done === true) break;
      await settle(10);
    }
    const done = seen.at(-1)!;
    expect(done).toMatchObject({
      staging_id: id,
      statement_id: expect.any(Number),
      staging_done: true,
      extraction_done: true,
      extraction_processes: { stage: 'completed', step: 3, remarks: {} },
      staging_terminal: true,
      requires_action: false,
      available_actions: [],
    });
    for (const data of seen) {
      // processing_done stays beside extraction_done: the service's own CLI ends its watch on it.
      expect(data.processing_done).toBe(data.extraction_done);
      expect(data).not.toHaveProperty('processing_processes');
    }
    // The spec's form stays the default.
    const specId = await upload(spec, 'statement');
    expect(await processes(spec, 'statements', specId)).toHaveProperty('processing_done');
  });

  it('a failed staging requires action', async () => {
    const id = await upload(drifted, 'statement', NO_TRAILER);
    await settle(80);
    expect(await processes(drifted, 'statements', id)).toMatchObject({
      staging_done: true,
      extraction_done: false,
      extraction_processes: null,
      staging_terminal: true,
      requires_action: true,
      available_actions: ['reupload'],
    });
  });

  it('pds statements status, --watch and upload --wait finish the same against both forms', async () => {
    const ids = await Promise.all([upload(spec, 'statement'), upload(drifted, 'statement')]);
    const watched = await Promise.all(
      [spec, drifted].map((target, i) =>
        runCli(target, ['statements', 'status', String(ids[i]), '--watch'], { clock: quickClock }),
      ),
    );
    const uploadIds = [spec, drifted].map((target) => target.state.uploads.at(-1));
    for (const [i, result] of watched.entries()) {
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        'state\tcompleted\n' +
          `staging_id\t${ids[i]}\n` +
          'staging_stage\tcompleted\n' +
          'staging_check.check\tpdf-trailer\n' +
          'staging_check.status\tpassed\n' +
          'staging_check.file_name\tstatement.pdf\n' +
          `staging_check.file_size\t${PDF.length}\n` +
          `statement_id\t${uploadIds[i]?.result_id}\n` +
          'processing_status\tcompleted\n' +
          'processing_stage\t3\n',
      );
    }
    const status = await runCli(drifted, ['statements', 'status', String(ids[1]), '-q']);
    expect(status).toEqual({ code: 0, stdout: 'completed\n', stderr: '' });

    for (const target of [spec, drifted]) {
      const waited = await runCli(
        target,
        ['upload', 'statement', '-', '--file-name', 'w.pdf', '--wait', '--interval', '0.1'],
        {
          stdin: PDF,
          clock: quickClock,
        },
      );
      expect(waited.code).toBe(0);
      expect(waited.stderr).toMatch(/completed/);
    }
  });
});

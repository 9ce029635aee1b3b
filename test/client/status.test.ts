// `pds contracts status` and `pds statements status` against a real emulator over loopback.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { realClock, type Clock } from '../../src/lib/clock.js';

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));
const NO_TRAILER = Buffer.from('%PDF-1.4\nno trailer here\n');

let emulator: Emulator;
/** Uploads stay queued here: for the shape of a document that has not been staged yet. */
let slow: Emulator;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current', processingMs: 20 });
  slow = await testEmulator({ flavor: 'current', processingMs: 60_000 });
});
afterAll(async () => {
  await emulator.close();
  await slow.close();
});

const quickClock: Clock = { now: () => Date.now(), sleep: (ms, signal) => realClock.sleep(Math.min(ms, 5), signal) };
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Uploads from stdin and returns the staging id. */
async function upload(
  kind: 'contract' | 'statement',
  extra: string[] = [],
  body: Buffer = PDF,
  target: Emulator = emulator,
): Promise<number> {
  const result = await runCli(target, ['upload', kind, '-', '--file-name', `${kind}.pdf`, '-q', ...extra], {
    stdin: body,
  });
  expect(result.code).toBe(0);
  return Number(result.stdout.trim());
}

describe('pds contracts status', () => {
  it('shows each step with its mark on a terminal, as gh run view does', async () => {
    const id = await upload('contract', ['--extract', 'royalties,splits']);
    await settle(150);
    const result = await runCli(emulator, ['contracts', 'status', String(id)], { tty: true, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const contractId = emulator.state.uploads.find((u) => u.staging_id === id)?.result_id;
    const lines = result.stdout.split('\n');
    expect(lines).toEqual([
      `contract upload ${id} · completed → contract ${contractId}`,
      '✓ uploaded',
      '✓ checked (pdf-trailer, 601 B)',
      '✓ extracted royalties',
      '✓ extracted splits',
      '',
    ]);
  });

  it('prints the processes object with --json', async () => {
    const id = await upload('contract', ['--extract', 'dates'], PDF, slow);
    const result = await runCli(slow, ['contracts', 'status', String(id), '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      staging_id: id,
      contract_id: null,
      staging_done: false,
      extraction_done: false,
      staging_processes: { stage: 'queued', info: {} },
      extraction_processes: null,
    });
  });

  it('prints the overall state alone with -q, and key/value lines when piped', async () => {
    const id = await upload('contract', [], PDF, slow);
    const quiet = await runCli(slow, ['contracts', 'status', String(id), '-q']);
    expect(quiet).toEqual({ code: 0, stdout: 'running\n', stderr: '' });
    const piped = await runCli(slow, ['contracts', 'status', String(id)]);
    expect(piped.stdout).toBe(
      `state\trunning\nstaging_id\t${id}\nstaging_stage\tqueued\ncontract_id\t\nextraction_stage\t\n`,
    );
  });

  it('shows why staging failed', async () => {
    const id = await upload('contract', [], NO_TRAILER);
    await settle(80);
    const result = await runCli(emulator, ['contracts', 'status', String(id)]);
    expect(result.code).toBe(7);
    expect(result.stdout).toContain('state\tfailed\n');
    expect(result.stdout).toContain(
      'staging_check.message\tthe file does not end with %%EOF; it may be truncated or damaged\n',
    );
  });

  it('watches until the extractions are done', async () => {
    // Steps long enough that the first poll cannot already see the end, however busy the machine.
    const paced = await testEmulator({ flavor: 'current', processingMs: 400 });
    try {
      await watchesToTheEnd(paced);
    } finally {
      await paced.close();
    }
  });

  async function watchesToTheEnd(emulator: Emulator): Promise<void> {
    const id = await upload('contract', ['--extract', 'royalties,splits,dates'], PDF, emulator);
    const result = await runCli(
      emulator,
      ['contracts', 'status', String(id), '--watch', '--interval', '0.1', '--json'],
      { clock: quickClock },
    );
    expect(result.code).toBe(0);
    const processes = JSON.parse(result.stdout) as {
      extraction_done: boolean;
      extraction_processes: { extractions: { status: string }[] };
    };
    expect(processes.extraction_done).toBe(true);
    expect(processes.extraction_processes.extractions.map((e) => e.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    const polls = emulator.requests.filter((r) => r.path === `/v1/contracts/${id}/processes`);
    expect(polls.length).toBeGreaterThan(1);
  }

  it('watches to a failed staging: exit 7 with the details', async () => {
    const id = await upload('contract', [], NO_TRAILER);
    const result = await runCli(emulator, ['contracts', 'status', String(id), '--watch'], { clock: quickClock });
    expect(result.code).toBe(7);
    expect(result.stdout).toContain('state\tfailed\n');
    expect(result.stderr).toBe(
      `error: contract upload ${id} failed\n` +
        '  the staging check failed\n' +
        '  check: pdf-trailer\n' +
        '  status: failed\n' +
        '  message: the file does not end with %%EOF; it may be truncated or damaged\n',
    );
  });

  it('without --watch, a failed upload is exit 7 too, alone or among others: a status step is a gate', async () => {
    const failed = await upload('contract', [], NO_TRAILER);
    const good = await upload('contract', []);
    // Watched to their ends first, so the plain status reads a settled state.
    expect((await runCli(emulator, ['contracts', 'status', String(good), '--watch'], { clock: quickClock })).code).toBe(
      0,
    );
    expect(
      (await runCli(emulator, ['contracts', 'status', String(failed), '--watch'], { clock: quickClock })).code,
    ).toBe(7);
    const alone = await runCli(emulator, ['contracts', 'status', String(failed)]);
    expect(alone.code).toBe(7);
    expect(alone.stdout).toContain('state\tfailed\n');
    expect((await runCli(emulator, ['contracts', 'status', String(good)])).code).toBe(0);
    expect((await runCli(emulator, ['contracts', 'status', String(good), String(failed)])).code).toBe(7);
    expect((await runCli(emulator, ['contracts', 'status', String(good), String(failed), '--json'])).code).toBe(7);
  });

  it('stops watching on Ctrl-C with exit 130', async () => {
    {
      const id = (
        await runCli(slow, ['upload', 'contract', '-', '--file-name', 'a.pdf', '-q'], { stdin: PDF })
      ).stdout.trim();
      const controller = new AbortController();
      const clock: Clock = { now: () => Date.now(), sleep: (ms, signal) => realClock.sleep(Math.min(ms, 20), signal) };
      setTimeout(() => controller.abort(), 100);
      const result = await runCli(slow, ['contracts', 'status', id, '--watch'], { clock, signal: controller.signal });
      expect(result.code).toBe(130);
      expect(result.stdout).toBe('');
      expect(slow.requests.filter((r) => r.path === `/v1/contracts/${id}/processes`).length).toBeGreaterThan(1);
    }
  });

  it('refuses a staging id that is not a number, without a request', async () => {
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['contracts', 'status', 'abc']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: invalid staging id 'abc': expected a whole number, like the staging_id an upload printed\n",
    });
    const negative = await runCli(emulator, ['statements', 'status', '12.5']);
    expect(negative.code).toBe(2);
    expect(emulator.requests.length).toBe(before);
  });

  it('exits 5 for an unknown staging id', async () => {
    const result = await runCli(emulator, ['contracts', 'status', '999999']);
    expect(result.code).toBe(5);
    expect(result.stderr).toBe("error: contract upload '999999' not found\n");
    const json = await runCli(emulator, ['statements', 'status', '999999', '--json']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { status: 404, message: "statement or statement upload '999999' not found" },
    });
  });
});

describe('pds statements status', () => {
  it('resolves a staging id and the statement id to the same processes', async () => {
    const id = await upload('statement');
    const watched = await runCli(emulator, ['statements', 'status', String(id), '--watch', '--json'], {
      clock: quickClock,
    });
    expect(watched.code).toBe(0);
    const processes = JSON.parse(watched.stdout) as { statement_id: number; processing_done: boolean };
    expect(processes.processing_done).toBe(true);
    const byStatement = await runCli(emulator, ['statements', 'status', String(processes.statement_id), '--json']);
    expect(byStatement.code).toBe(0);
    expect(JSON.parse(byStatement.stdout)).toEqual(processes);
  });

  it('shows the processing steps and the statement made, readably', async () => {
    const id = await upload('statement');
    await settle(150);
    const result = await runCli(emulator, ['statements', 'status', String(id)], { tty: true, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    const statementId = emulator.state.uploads.find((u) => u.staging_id === id)?.result_id;
    expect(result.stdout).toBe(
      `statement upload ${id} · completed\n✓ uploaded\n✓ checked (pdf-trailer, 601 B)\n✓ processed → statement ${statementId}\n`,
    );
  });

  it('shows a spinner while watching on a terminal, then the final view', async () => {
    const id = await upload('statement');
    const result = await runCli(emulator, ['statements', 'status', String(id), '--watch'], {
      tty: true,
      clock: quickClock,
      env: { NO_COLOR: '1' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^statement upload ${id} · completed\n✓ uploaded\n`));
    expect(result.stderr).toContain(`statement upload ${id}`);
  });
});

// Uploads through the built CLI against the emulator in both flavors: the deployed service's
// signed-URL flow (mint, PUT to the storage host, complete) with context and tags, what it must
// never do (send a credential to the storage host, resend a mint or a complete), a PUT resent after
// a reset, a paused upload and its retry; and the seed's flow as fallback, with its refusals.
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pds-upload-signed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const CSV = 'isrc,units,amount\nUSRC17607839,120,3.60\n';
/** The smallest thing that passes for an xlsx: a zip package's signature. */
const XLSX = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(2048, 7)]);

const emulator = sharedEmulator({ flavor: 'current', processingMs: 20 });
const env = () => signedInEnv(emulator.url);
const posts = (path: string) => emulator.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('the signed-URL flow (the default emulator)', () => {
  it('uploads a CSV, an XLSX and a GZ statement with context and tags, and reads them back; no credential reaches the storage host', async () => {
    emulator.storage.requests.length = 0;
    const files = [file('sales.csv', CSV), file('sales.xlsx', XLSX), file('sales.csv.gz', gzipSync(CSV))];
    const context = [
      '--accounting-period',
      '2026-q1',
      '--target-period',
      '2026H1',
      '--currency-royalty',
      'eur',
      '--currency-transaction',
      'USD',
    ];
    const more = [
      '--payee',
      'Nova Records',
      '--payor',
      'Spotify',
      '--scenario',
      'dsp.spotify',
      '--target-family',
      'recording_dsp_usage',
      '--tag',
      'q1',
      '--tag',
      'spotify',
      '--folder',
      'inbox',
    ];
    const result = await runPds(
      ['upload', 'statement', ...files, ...context, ...more, '--wait', '--interval', '0.1', '--json'],
      { env: env() },
    );
    // The batch summary; its duration varies from run to run.
    expect(result.stderr).toMatch(/^3 uploaded, 0 skipped, 0 failed; 3 processed \(\d+\.\ds\)\n$/);
    expect(result.code).toBe(0);
    const entries = JSON.parse(result.stdout) as { file: string; upload: Record<string, unknown> }[];
    expect(entries.map((e) => e.upload)).toEqual(
      entries.map((e) => ({
        staging_id: e.upload.staging_id,
        status: 'queued',
        staging_stage: 'queued',
        context_applied: true,
        enqueued: true,
        paused: false,
      })),
    );
    // The storage host got three PUTs, none with an Authorization header.
    expect(emulator.storage.requests.map((r) => [r.method, r.authorization, r.status])).toEqual([
      ['PUT', false, 200],
      ['PUT', false, 200],
      ['PUT', false, 200],
    ]);
    const mints = posts('/v1/statements/uploads');
    expect(mints.map((m) => m.headers.authorization)).toEqual([
      'Bearer demo-org-token',
      'Bearer demo-org-token',
      'Bearer demo-org-token',
    ]);
    const ids = entries.map((e) => e.upload.staging_id).join(',');
    const listed = await runPds(['statements', 'ls', '--staging-ids', ids, '--json'], { env: env() });
    const statements = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(statements.map((s) => [s.file_name, s.file_type, s.file_size]).sort()).toEqual([
      ['sales.csv', 'text/csv', CSV.length],
      ['sales.csv.gz', 'application/gzip', gzipSync(CSV).length],
      ['sales.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', XLSX.length],
    ]);
    for (const statement of statements) {
      expect(statement).toMatchObject({
        accounting_period: '2026Q1',
        target_period: '2026H1',
        currency_royalty: 'EUR',
        currency_transaction: 'USD',
        payee: 'Nova Records',
        payor: 'Spotify',
        tags: ['q1', 'spotify'],
      });
    }
    const tags = await runPds(['tags', 'ls', '--scope', 'statements', '--search', 'spot'], { env: env() });
    expect(tags.stdout).toMatch(/^TAG\tSCOPE\tUSED\tID\nspotify\tstatements\t3\t\d+\n$/);
  });

  it('uploads a contract PDF with tags and extractions, and reads its file name and type back', async () => {
    const pdf = file('deal.pdf', PDF);
    const result = await runPds(
      ['upload', 'contract', pdf, '--tag', 'deal', '--extract', 'royalties', '--wait', '--interval', '0.1', '-q'],
      { env: env() },
    );
    expect(result.code).toBe(0);
    const stagingId = Number(result.stdout.trim());
    const contract = emulator.state.data[DEMO_PROJECT_ID]?.contracts.find((c) => c.staging_id === stagingId);
    const got = await runPds(['contracts', 'get', String(contract?.id), '--include', 'royalties', '--json'], {
      env: env(),
    });
    expect(JSON.parse(got.stdout)).toMatchObject({
      file_name: 'deal.pdf',
      file_type: 'application/pdf',
      tags: ['deal'],
    });
    expect(posts('/v1/contracts/uploads').at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('says which flow it used with --verbose', async () => {
    const result = await runPds(['upload', 'statement', file('verbose.csv', CSV), '--verbose'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("* uploading over signed URLs (the service's three-step flow)\n");
    expect(result.stderr).toMatch(
      /> PUT http:\/\/127\.0\.0\.1:\d+\/uploads\/statement\/[0-9a-f-]+\/\d+ \(signed URL, sent without credentials\)\n/,
    );
  });

  it('does not resend a mint whose answer was lost: one staging record, and the error says to check', async () => {
    const before = emulator.state.uploads.length;
    emulator.faults.dropAnswers.push('POST /v1/statements/uploads');
    const result = await runPds(['upload', 'statement', file('lost-mint.csv', CSV)], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'the request for an upload URL of lost-mint.csv got no answer; pds did not resend it',
    );
    expect(emulator.state.uploads.length).toBe(before + 1);
    expect(emulator.requests.filter((r) => r.path === '/v1/statements/uploads').length).toBe(1);
  });

  it('does not resend a complete whose answer was lost; the error names the staging id and says the bytes are stored', async () => {
    emulator.faults.dropAnswers.push('POST /v1/statements/uploads/complete');
    const result = await runPds(['upload', 'statement', file('lost-complete.csv', CSV)], { env: env() });
    expect(result.code).toBe(1);
    const id = emulator.state.uploads.at(-1)?.staging_id;
    expect(result.stderr).toContain(
      `the bytes of lost-complete.csv are stored under staging id ${id}, but the service did not confirm the upload (no answer; pds did not resend it)`,
    );
    expect(result.stderr).toContain(`pds statements status ${id}`);
    expect(posts('/v1/statements/uploads/complete')).toHaveLength(1);
    expect(emulator.state.uploads.filter((u) => u.file_name === 'lost-complete.csv')).toHaveLength(1);
  });

  it('sends the PUT again after a connection reset (an upsert), and the upload completes', async () => {
    emulator.storage.requests.length = 0;
    emulator.storage.faults.resetUploads = 1;
    const big = file('reset.csv', `${'isrc,units\n'}${'USRC17607839,1\n'.repeat(20_000)}`);
    const result = await runPds(['upload', 'statement', big, '--json'], { env: env() });
    expect(result.code).toBe(0);
    expect(emulator.storage.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    expect(emulator.storage.requests.at(-1)?.status).toBe(200);
    expect(JSON.parse(result.stdout)[0].upload.status).toBe('queued');
  });

  it('refuses a 60 MiB file and a .exe locally: exit 2, nothing sent', async () => {
    const large = file('large.csv', '');
    truncateSync(large, 60 * 1024 * 1024);
    const exe = file('setup.exe', 'MZ');
    emulator.requests.length = 0;
    const tooBig = await runPds(['upload', 'statement', large], { env: env() });
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toBe(
      `error: ${large}: 60.0 MiB (62914560 bytes) is over the 50 MiB upload limit (52428800 bytes)\n`,
    );
    const program = await runPds(['upload', 'statement', exe], { env: env() });
    expect(program.code).toBe(2);
    expect(program.stderr).toContain(
      `error: ${exe}: '.exe' is not a statement format the service takes; accepted: csv tsv tab txt`,
    );
    const binaryCsv = await runPds(['upload', 'statement', file('binary.csv', Buffer.from([0x50, 0, 1]))], {
      env: env(),
    });
    expect(binaryCsv.stderr).toContain('not a text file: it holds binary data (NUL bytes)');
    const badContext = await runPds(
      [
        'upload',
        'statement',
        file('ok.csv', CSV),
        '--accounting-period',
        '2026Q5',
        '--currency-royalty',
        'euro',
        '--scenario',
        'dsp.nope',
      ],
      { env: env() },
    );
    expect(badContext.code).toBe(2);
    expect(badContext.stderr).toContain('4 problems with the upload context; nothing was sent');
    expect(emulator.requests).toEqual([]);
  });
});

describe('a paused upload', () => {
  it('is reported with its reason and the retry command (exit 0; 7 with --wait); the retry queues it', async () => {
    const paused = await testEmulator({ flavor: 'current', processingMs: 20, pauseUploads: true });
    try {
      const penv = signedInEnv(paused.url);
      const result = await runPds(['upload', 'statement', file('paused.csv', CSV)], { env: penv });
      expect(result.code).toBe(0);
      const id = paused.state.uploads.at(-1)?.staging_id;
      expect(result.stderr).toContain(
        `staging id ${id}, paused: the project has reached its processing quota; retry when uploads are resumed; resume it with \`pds statements retry ${id}\``,
      );
      expect(result.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\n${join(dir, 'paused.csv')}\t${id}\tpaused\n`);
      const waited = await runPds(['upload', 'statement', file('paused-wait.csv', CSV), '--wait'], { env: penv });
      expect(waited.code).toBe(7);
      expect(waited.stderr).toContain('the service paused the upload');
      const still = await runPds(['statements', 'retry', String(id)], { env: penv });
      expect(still.code).toBe(0);
      expect(still.stderr).toContain(`the service keeps staging ${id} paused (`);
      paused.options.pauseUploads = false;
      const retried = await runPds(['statements', 'retry', String(id), '--json'], { env: penv });
      expect(retried.code).toBe(0);
      expect(JSON.parse(retried.stdout)).toMatchObject({ staging_id: id, status: 'queued', enqueued: true });
      expect(paused.requests.filter((r) => r.path.endsWith('/retry'))).toHaveLength(2);
    } finally {
      await paused.close();
    }
  });
});

describe('the fallback (--flavor seed: no signed-URL uploads)', () => {
  it('uploads a PDF over the multipart request, once per command finding out, and says so with --verbose', async () => {
    const seed = await testEmulator({ processingMs: 20, flavor: 'seed' });
    try {
      const senv = signedInEnv(seed.url);
      const pdfs = [file('seed-1.pdf', PDF), file('seed-2.pdf', PDF), file('seed-3.pdf', PDF)];
      const result = await runPds(['upload', 'statement', ...pdfs, '--verbose', '--concurrency', '3'], { env: senv });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        "* this service has no /v1/statements/uploads: uploading with the seed's multipart request\n",
      );
      expect(seed.requests.filter((r) => r.path === '/v1/statements/uploads').map((r) => r.status)).toEqual([405]);
      expect(seed.requests.filter((r) => r.path === '/v1/statements' && r.method === 'POST')).toHaveLength(3);
      expect(seed.storage.requests).toEqual([]);
    } finally {
      await seed.close();
    }
  });

  it('refuses a CSV and context flags with clear errors', async () => {
    const seed = await testEmulator({ processingMs: 20, flavor: 'seed' });
    try {
      const senv = signedInEnv(seed.url);
      const csv = await runPds(['upload', 'statement', file('seed.csv', CSV)], { env: senv });
      expect(csv.code).toBe(2);
      // The per-file start line (a non-interactive log), then the refusal once pds has found the service has no signed-URL uploads.
      expect(csv.stderr).toBe(
        `uploading ${join(dir, 'seed.csv')} (${CSV.length} B)\nerror: ${join(dir, 'seed.csv')}: this service takes only PDF statements (it has no signed-URL uploads, which carry other formats)\n`,
      );
      const tagged = await runPds(['upload', 'statement', file('seed-tag.pdf', PDF), '--tag', 'q1'], { env: senv });
      expect(tagged.code).toBe(2);
      expect(tagged.stderr).toContain(
        'this service cannot carry upload context (--accounting-period, --currency-*, --payee, --payor, --scenario, --target-family, --tag, --folder): it has no signed-URL uploads',
      );
      expect(seed.requests.filter((r) => r.path === '/v1/statements' && r.method === 'POST')).toEqual([]);
    } finally {
      await seed.close();
    }
  });
});

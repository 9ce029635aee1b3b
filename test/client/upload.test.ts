// The seed's upload flow (multipart with progress events, SPEC 4.8/4.9): the emulator runs as
// --flavor seed, so pds falls back to it; the signed-URL flow is tested in upload-signed.test.ts.
// `pds upload contract|statement` against a real emulator over loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import type { RecordedRequest } from '../../src/emulator/http.js';
import { testEmulator } from '../helpers/emulator.js';
import { SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';
import { realClock, type Clock } from '../../src/lib/clock.js';
import { HttpClient } from '../../src/lib/http/client.js';
import { createDocumentsApi } from '../../src/lib/api/documents.js';
import { MAX_UPLOAD_BYTES, checkFile } from '../../src/lib/transfer/local-upload.js';
import { openMultipart } from '../../src/lib/transfer/upload-body.js';
import { readUploadAnswer } from '../../src/lib/transfer/upload-answer.js';
import type { UploadProgressEvent } from '../../src/lib/schemas.js';

const SAMPLE = new URL('../fixtures/sample.pdf', import.meta.url).pathname;
const PDF = readFileSync(SAMPLE);

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await testEmulator({ processingMs: 20, flavor: 'seed' });
  dir = mkdtempSync(join(tmpdir(), 'pds-upload-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Polls for real but briefly: the emulator's processing runs on the wall clock. */
const quickClock: Clock = { now: () => Date.now(), sleep: (ms, signal) => realClock.sleep(Math.min(ms, 5), signal) };

/** The upload requests since `since`; not the mint that found the service has no signed-URL flow (405). */
const posts = (since: number, path?: string): RecordedRequest[] =>
  emulator.requests
    .slice(since)
    .filter((r) => r.method === 'POST' && !r.path.endsWith('/uploads') && (path === undefined || r.path === path));

/** A PDF of `size` bytes in the temp dir, with or without its %%EOF trailer. */
function pdfFile(name: string, size = PDF.length, trailer = true): string {
  const path = join(dir, name);
  if (size === PDF.length && trailer) {
    writeFileSync(path, PDF);
    return path;
  }
  const end = trailer ? '\n%%EOF\n' : '\n';
  const body = Buffer.alloc(size, 0x20);
  body.write('%PDF-1.4\n', 0, 'latin1');
  body.write(end, size - end.length, 'latin1');
  writeFileSync(path, body);
  return path;
}

const lastUpload = () => emulator.state.uploads.at(-1);

/** The summary line's duration (`(0.1s)`) varies from run to run: left out of exact comparisons. */
const withoutTime = (stderr: string): string => stderr.replace(/ \(\d+\.\ds\)\n$/, '\n');

describe('pds upload: sending', () => {
  it('uploads a statement as multipart and prints TSV when piped', async () => {
    const file = pdfFile('statement.pdf');
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['upload', 'statement', file]);
    const id = lastUpload()?.staging_id;
    expect(result).toEqual({
      code: 0,
      stdout: `FILE\tSTAGING_ID\tSTAGE\n${file}\t${id}\tqueued\n`,
      stderr: `uploading ${file} (601 B)\nuploaded ${file} (601 B): staging id ${id}, queued; follow it with \`pds statements status ${id}\`\n`,
    });
    const sent = posts(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      path: '/v1/statements',
      query: { projectId: DEMO_PROJECT },
      status: 200,
      upload: { fileName: 'statement.pdf', size: PDF.length, form: 'multipart' },
    });
    expect(sent[0]?.headers.accept).toContain('text/event-stream');
    expect(sent[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('uploads a contract with the extractions named either way', async () => {
    const file = pdfFile('contract.pdf');
    const before = emulator.requests.length;
    const result = await runCli(emulator, [
      'upload',
      'contract',
      file,
      '--extract',
      'royalties,extract-splits',
      '--extract',
      'royalties',
    ]);
    expect(result.code).toBe(0);
    const id = lastUpload()?.staging_id;
    expect(result.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\n${file}\t${id}\tqueued\n`);
    const sent = posts(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.path).toBe('/v1/contracts');
    expect(sent[0]?.upload).toEqual({
      fileName: 'contract.pdf',
      size: PDF.length,
      form: 'multipart',
      extractions: ['extract-royalties', 'extract-splits'],
    });
  });

  it('sends no extractions field without --extract', async () => {
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['upload', 'contract', pdfFile('plain.pdf')]);
    expect(result.code).toBe(0);
    expect(posts(before)[0]?.upload).toEqual({ fileName: 'plain.pdf', size: PDF.length, form: 'multipart' });
  });

  it('refuses an unknown extraction, listing the valid names, before any request', async () => {
    const before = emulator.requests.length;
    const result = await runCli(emulator, [
      'upload',
      'contract',
      pdfFile('x.pdf'),
      '--extract',
      'royalties,tea-leaves',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown extraction 'tea-leaves'");
    expect(result.stderr).toContain('valid extractions: accounting-period, assets, commitments');
    expect(result.stderr).toContain('balances, language (with or without the extract- prefix)');
    expect(emulator.requests.length).toBe(before);
  });

  it('has no --extract for statements', async () => {
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['upload', 'statement', pdfFile('x.pdf'), '--extract', 'royalties']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--extract'");
    expect(emulator.requests.length).toBe(before);
  });

  it('reads one PDF from stdin with --file-name', async () => {
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['upload', 'statement', '-', '--file-name', 'from-stdin.pdf'], {
      stdin: PDF,
    });
    expect(result.code).toBe(0);
    const id = lastUpload()?.staging_id;
    expect(result.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\n-\t${id}\tqueued\n`);
    expect(result.stderr).toBe(
      `uploading stdin (from-stdin.pdf) (601 B)\nuploaded stdin (from-stdin.pdf) (601 B): staging id ${id}, queued; follow it with \`pds statements status ${id}\`\n`,
    );
    expect(posts(before)[0]?.upload).toEqual({ fileName: 'from-stdin.pdf', size: PDF.length, form: 'multipart' });
  });

  it('needs --file-name for stdin, and refuses non-PDF stdin, before any request', async () => {
    const before = emulator.requests.length;
    const missing = await runCli(emulator, ['upload', 'statement', '-'], { stdin: PDF });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error: reading a PDF from stdin (-) needs --file-name <name>');
    const missingForContract = await runCli(emulator, ['upload', 'contract', '-'], { stdin: PDF });
    expect(missingForContract.stderr).toBe(
      'error: reading a PDF from stdin (-) needs --file-name <name>\n  e.g. `cat doc.pdf | pds upload contract - --file-name doc.pdf`\n',
    );
    const text = await runCli(emulator, ['upload', 'contract', '-', '--file-name', 'a.pdf'], { stdin: 'hello' });
    expect(text.code).toBe(2);
    expect(text.stderr).toBe('error: -: not a PDF: stdin does not start with %PDF-\n');
    const terminal = await runCli(emulator, ['upload', 'contract', '-', '--file-name', 'a.pdf'], { stdinTTY: true });
    expect(terminal.code).toBe(2);
    expect(terminal.stderr).toContain('stdin is a terminal');
    expect(emulator.requests.length).toBe(before);
  });

  it('names a single file with --file-name', async () => {
    const before = emulator.requests.length;
    const result = await runCli(emulator, [
      'upload',
      'statement',
      pdfFile('local-name.pdf'),
      '--file-name',
      'Q1 statement.pdf',
    ]);
    expect(result.code).toBe(0);
    expect(posts(before)[0]?.upload?.fileName).toBe('Q1 statement.pdf');
  });

  it('prints only staging ids with -q, and the records with --json', async () => {
    const quiet = await runCli(emulator, ['upload', 'statement', pdfFile('q.pdf'), '-q']);
    expect(quiet).toEqual({ code: 0, stdout: `${lastUpload()?.staging_id}\n`, stderr: '' });

    const file = pdfFile('j.pdf');
    const json = await runCli(emulator, ['upload', 'statement', file, '--json']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual([
      {
        file,
        upload: {
          staging_id: lastUpload()?.staging_id,
          staging_stage: 'queued',
          staging_done: false,
          processing_done: false,
          created_at: expect.any(String),
        },
      },
    ]);
  });
});

describe('pds upload: local checks', () => {
  it('--fail-fast: refuses missing, non-PDF and oversized files, one line each, and sends nothing', async () => {
    const good = pdfFile('good.pdf');
    const missing = join(dir, 'missing.pdf');
    const folder = join(dir, 'folder.pdf');
    mkdirSync(folder, { recursive: true });
    const text = join(dir, 'notes.pdf');
    writeFileSync(text, 'just some notes\n');
    // Sparse: 50 MiB + 1 byte on disk costs nothing.
    const huge = join(dir, 'huge.pdf');
    writeFileSync(huge, '%PDF-1.4\n');
    truncateSync(huge, MAX_UPLOAD_BYTES + 1);
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['upload', 'contract', good, missing, folder, text, huge, '--fail-fast']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      // A directory is a directory argument: this one holds no PDF, which is said, not fatal.
      `warning: ${folder}: no contract files to upload in it (--recursive takes its subdirectories too)\n` +
        'error: 3 of 4 files cannot be uploaded; nothing was sent (--fail-fast)\n' +
        `  ${missing}: no such file\n` +
        `  ${text}: not a PDF: the file does not start with %PDF-\n` +
        `  ${huge}: 50.0 MiB (52428801 bytes) is over the 50 MiB upload limit (52428800 bytes)\n`,
    );
    expect(emulator.requests.length).toBe(before);
  });

  it('says what is wrong with a single bad file in one line', async () => {
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['upload', 'statement', join(dir, 'nope.pdf')]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `error: ${join(dir, 'nope.pdf')}: no such file\n` });
    expect(emulator.requests.length).toBe(before);
  });

  it('accepts a file of exactly 50 MiB', async () => {
    const exact = join(dir, 'exact.pdf');
    writeFileSync(exact, '%PDF-1.4\n');
    truncateSync(exact, MAX_UPLOAD_BYTES);
    await expect(checkFile(exact, 'contract')).resolves.toMatchObject({
      fileName: 'exact.pdf',
      size: MAX_UPLOAD_BYTES,
    });
    unlinkSync(exact);
  });
});

describe('pds upload: progress and answers', () => {
  const client = () =>
    new HttpClient({
      baseUrl: emulator.url,
      token: 'demo-org-token',
      timeoutMs: 10_000,
      userAgent: 'pds-test',
      maxRetries: 0,
      signal: new AbortController().signal,
      sleep: realClock.sleep,
      env: {},
    });
  const api = () => createDocumentsApi(client());

  it('reports the service progress events in order, ending at 100 %', async () => {
    const file = await checkFile(pdfFile('progress.pdf', 3 * 1024 * 1024), 'contract');
    const events: UploadProgressEvent[] = [];
    const sent: number[] = [];
    const record = await api().upload('statement', DEMO_PROJECT, file, {
      onProgress: (event) => events.push(event),
      onBytes: (bytes) => sent.push(bytes),
    });
    expect(record.staging_stage).toBe('queued');
    expect(events.length).toBeGreaterThan(10);
    const percents = events.map((e) => e.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(new Set(percents).size).toBe(percents.length);
    expect(percents.at(-1)).toBe(100);
    const total = sent.at(-1) as number;
    expect(total).toBeGreaterThan(file.size);
    expect(events.every((e) => e.bytesTotal === total)).toBe(true);
    expect(events.at(-1)?.bytesUploaded).toBe(total);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
  });

  it('reads a plain JSON answer (the service answers JSON without the event-stream Accept)', async () => {
    const file = await checkFile(pdfFile('plain-json.pdf'), 'contract');
    const multipart = await openMultipart(file, []);
    const response = await client().send({
      method: 'POST',
      path: '/v1/statements',
      query: { projectId: DEMO_PROJECT },
      headers: {
        accept: 'application/json',
        'content-type': multipart.contentType,
        'content-length': String(multipart.length),
      },
      body: multipart.body,
      retry: false,
      stream: true,
    });
    await multipart.close();
    expect(response.headers.get('content-type')).toContain('application/json');
    const answer = await readUploadAnswer(response);
    expect(answer).toEqual({
      data: expect.objectContaining({ staging_id: lastUpload()?.staging_id, staging_stage: 'queued' }),
    });
  });

  it('shows a live progress line on a terminal', async () => {
    // The latency holds the answer back, so the live line has time to show bytes going out.
    const slow = await testEmulator({ processingMs: 20, latencyMs: 300, flavor: 'seed' });
    try {
      const file = pdfFile('live.pdf', 8 * 1024 * 1024);
      const result = await runCli(slow, ['upload', 'statement', file], { tty: true, env: { NO_COLOR: '1' } });
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/live\.pdf {2}[\d.]+ (KiB|MiB) \/ 8\.0 MiB {2}\d+% sent/);
      expect(result.stderr).toContain(
        `✓ live.pdf  8.0 MiB  staging id ${slow.state.uploads.at(-1)?.staging_id} · queued`,
      );
      expect(result.stdout).toContain('pds statements status');
    } finally {
      await slow.close();
    }
  });

  it('keeps a live line readable at 80 columns: the base name of a long path, the state whole', async () => {
    const deep = join(
      mkdtempSync(join(tmpdir(), 'pds-a-rather-long-directory-name-for-uploads-')),
      'and-another-level',
      'of-nesting',
    );
    mkdirSync(deep, { recursive: true });
    const file = join(deep, 'statement-2026-q1.pdf');
    writeFileSync(file, readFileSync(pdfFile('source-for-deep.pdf')));
    const result = await runCli(emulator, ['upload', 'statement', file], {
      tty: true,
      columns: 80,
      env: { NO_COLOR: '1' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`✓ statement-2026-q1.pdf  601 B  staging id ${lastUpload()?.staging_id} · queued`);
    expect(result.stderr).not.toContain('…');
  });

  it('draws no live lines on a terminal with TERM=dumb or PDS_NO_SPINNER=1: a static line per file', async () => {
    for (const env of [{ TERM: 'dumb' }, { PDS_NO_SPINNER: '1', NO_COLOR: '1' }]) {
      const file = pdfFile('static.pdf');
      const result = await runCli(emulator, ['upload', 'statement', file], { tty: true, env });
      expect(result.code).toBe(0);
      // No cursor movement, no line redrawn: only whole lines.
      expect(result.stderr).not.toMatch(/\u001b\[|\r/);
      expect(result.stderr).toContain(file);
    }
  });

  it('shows nothing but errors with -q on a terminal', async () => {
    const result = await runCli(emulator, ['upload', 'statement', pdfFile('quiet-tty.pdf'), '-q'], { tty: true });
    expect(result).toEqual({ code: 0, stdout: `${lastUpload()?.staging_id}\n`, stderr: '' });
  });
});

/**
 * A fake *service* for the failure modes the emulator does not produce on purpose: an event
 * stream that stops before `complete`, and an `error` event. It answers every upload POST the given
 * way; it has no signed-URL uploads (404), as a service of the seed's time.
 */
async function fakeService(
  answer: 'cut' | 'end' | 'error',
): Promise<{ url: string; posts: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || (req.url ?? '').includes('/uploads')) {
      res.writeHead(404).end();
      return;
    }
    count++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (answer === 'error') {
        res.end('event: error\ndata: {"error":{"message":"the file could not be stored"}}\n\n');
        return;
      }
      res.write('event: progress\ndata: {"bytesUploaded":10,"bytesTotal":900,"percent":1}\n\n', () => {
        if (answer === 'cut') res.socket?.destroy();
        else res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('pds upload: failures', () => {
  it('reports a stream cut before `complete` once, without resending, and says what to do', async () => {
    for (const answer of ['cut', 'end'] as const) {
      const service = await fakeService(answer);
      try {
        const result = await runCli(service.url, ['upload', 'statement', pdfFile('cut.pdf')]);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        const message =
          answer === 'cut'
            ? 'the connection broke before the service confirmed the upload'
            : 'the service ended the progress stream without confirming the upload';
        expect(result.stderr).toBe(
          `uploading ${join(dir, 'cut.pdf')} (601 B)\n` +
            `error: ${join(dir, 'cut.pdf')}: ${message}\n` +
            '  check with `pds statements ls` before retrying: the upload may have been received\n',
        );
        expect(service.posts()).toBe(1);
      } finally {
        await service.close();
      }
    }
  });

  it('reports an error event with the service message', async () => {
    const service = await fakeService('error');
    try {
      const result = await runCli(service.url, ['upload', 'contract', pdfFile('err.pdf'), '--json']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual([
        { file: join(dir, 'err.pdf'), error: { message: 'the file could not be stored' } },
      ]);
      expect(service.posts()).toBe(1);
    } finally {
      await service.close();
    }
  });

  it('retries an upload whose connection was refused: nothing had been sent', async () => {
    // A port that was free a moment ago refuses; the emulator starts there during the retry wait.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    let late: Emulator | undefined;
    const clock: Clock = {
      now: () => Date.now(),
      sleep: async () => {
        late ??= await testEmulator({ port, processingMs: 20, flavor: 'seed' });
      },
    };
    try {
      const result = await runCli(`http://127.0.0.1:${port}`, ['upload', 'statement', pdfFile('refused.pdf')], {
        clock,
      });
      expect(result.code).toBe(0);
      expect(late?.requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/uploads'))).toHaveLength(1);
    } finally {
      await late?.close();
    }
  });

  it('keeps going when one file of a batch fails: the others upload, exit 1, a summary', async () => {
    const first = pdfFile('batch-1.pdf', 256 * 1024);
    const doomed = pdfFile('batch-2.pdf');
    const third = pdfFile('batch-3.pdf');
    // The second file disappears once the first upload reaches the service: after the checks
    // passed, before its own upload (one at a time).
    const requests = emulator.requests;
    const push = requests.push.bind(requests);
    requests.push = (...items: RecordedRequest[]) => {
      if (items.some((r) => r.method === 'POST')) rmSync(doomed, { force: true });
      return push(...items);
    };
    const before = requests.length;
    let result: Awaited<ReturnType<typeof runCli>>;
    try {
      result = await runCli(emulator, ['upload', 'statement', first, doomed, third, '--concurrency', '1']);
    } finally {
      requests.push = push;
    }
    expect(result.code).toBe(1);
    const sent = posts(before);
    expect(sent.map((r) => r.upload?.fileName)).toEqual(['batch-1.pdf', 'batch-3.pdf']);
    const ids = emulator.state.uploads.slice(-2).map((u) => u.staging_id);
    expect(result.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\n${first}\t${ids[0]}\tqueued\n${third}\t${ids[1]}\tqueued\n`);
    expect(withoutTime(result.stderr)).toBe(
      `uploading ${first} (256 KiB)\n` +
        `uploaded ${first} (256 KiB): staging id ${ids[0]}, queued; follow it with \`pds statements status ${ids[0]}\`\n` +
        `uploading ${doomed} (601 B)\n` +
        `error: ${doomed}: cannot be read any more: no such file\n` +
        `uploading ${third} (601 B)\n` +
        `uploaded ${third} (601 B): staging id ${ids[1]}, queued; follow it with \`pds statements status ${ids[1]}\`\n` +
        '2 uploaded, 0 skipped, 1 failed\n',
    );
  });

  it('--fail-fast starts no upload after a failed one; the rest are failed as not started, exit as the failure', async () => {
    const service = await fakeService('error');
    try {
      const files = ['ff-1.pdf', 'ff-2.pdf', 'ff-3.pdf'].map((name) => pdfFile(name));
      const result = await runCli(service.url, [
        'upload',
        'statement',
        ...files,
        '--fail-fast',
        '--concurrency',
        '1',
        '--json',
      ]);
      expect(service.posts()).toBe(1);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual([
        { file: files[0], error: { message: 'the file could not be stored' } },
        { file: files[1], not_started: true, error: { message: 'not started: --fail-fast stopped the batch' } },
        { file: files[2], not_started: true, error: { message: 'not started: --fail-fast stopped the batch' } },
      ]);
      expect(withoutTime(result.stderr)).toBe('0 uploaded, 0 skipped, 3 failed (2 not started)\n');
    } finally {
      await service.close();
    }
  });

  it('gives the --json shape of failed uploads', async () => {
    const service = await fakeService('error');
    try {
      const a = pdfFile('shape-a.pdf');
      const b = pdfFile('shape-b.pdf');
      const result = await runCli(service.url, ['upload', 'statement', a, b, '--json']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual([
        { file: a, error: { message: 'the file could not be stored' } },
        { file: b, error: { message: 'the file could not be stored' } },
      ]);
      expect(withoutTime(result.stderr)).toBe('0 uploaded, 0 skipped, 2 failed\n');
    } finally {
      await service.close();
    }
  });

  it('sends each file exactly once when the service fails requests at random, waiting out each 503 it names a wait for', async () => {
    const flaky = await testEmulator({ processingMs: 20, failRate: 0.3, seed: 7, flavor: 'seed' });
    try {
      const files = Array.from({ length: 12 }, (_, i) => pdfFile(`flaky-${i}.pdf`));
      const result = await runCli(flaky, ['upload', 'statement', ...files, '--json']);
      // A 503 with Retry-After is the service refusing before it acts: the request goes again
      // after the wait, and no file is made twice.
      const refused = flaky.requests.filter((r) => r.method === 'POST' && r.status === 503).length;
      expect(refused).toBeGreaterThan(0);
      const entries = JSON.parse(result.stdout) as { file: string; upload?: unknown; error?: { status?: number } }[];
      const failed = entries.filter((e) => e.error);
      expect(failed.every((e) => e.error?.status === 503)).toBe(true);
      expect(flaky.state.uploads).toHaveLength(files.length - failed.length);
      const names = flaky.state.uploads.map((u) => u.file_name);
      expect(new Set(names).size).toBe(names.length);
      expect(result.code).toBe(failed.length === 0 ? 0 : 1);
      const waits = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
      expect(waits.length).toBeGreaterThan(0);
      expect(waits.every((line) => /: retrying in 1 s \(Ctrl-C to stop\)$/.test(line))).toBe(true);
      expect(withoutTime(result.stderr.slice(result.stderr.lastIndexOf('\n', result.stderr.length - 2) + 1))).toBe(
        `${files.length - failed.length} uploaded, 0 skipped, ${failed.length} failed\n`,
      );
    } finally {
      await flaky.close();
    }
  });

  it('keeps the error exit code of a single failed upload (403: 4)', async () => {
    const result = await runCli(emulator, ['upload', 'statement', pdfFile('forbidden.pdf')], {
      token: 'demo-project-token',
      project: SECOND_PROJECT_ID,
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('token does not have access to this project');
  });
});

describe('pds upload --wait', () => {
  it('waits until a contract is processed, exit 0', async () => {
    const file = pdfFile('wait-contract.pdf');
    const result = await runCli(emulator, ['upload', 'contract', file, '--extract', 'royalties,dates', '--wait'], {
      clock: quickClock,
    });
    expect(result.code).toBe(0);
    const upload = lastUpload();
    expect(result.stdout).toBe(
      `FILE\tSTAGING_ID\tSTAGE\tSTATE\tCONTRACT_ID\n${file}\t${upload?.staging_id}\tcompleted\tcompleted\t${upload?.result_id}\n`,
    );
    expect(result.stderr).toBe(
      `uploading ${file} (601 B)\nprocessed ${file}: staging id ${upload?.staging_id}, contract ${upload?.result_id} completed\n`,
    );
    const polls = emulator.requests.filter((r) => r.path === `/v1/contracts/${upload?.staging_id}/processes`);
    expect(polls.length).toBeGreaterThan(0);
  });

  it('waits for statements and prints the processes with --json', async () => {
    const file = pdfFile('wait-statement.pdf');
    const result = await runCli(emulator, ['upload', 'statement', file, '--wait', '--json'], { clock: quickClock });
    expect(result.code).toBe(0);
    const upload = lastUpload();
    expect(JSON.parse(result.stdout)).toEqual([
      {
        file,
        upload: expect.objectContaining({ staging_id: upload?.staging_id, staging_stage: 'queued' }),
        processes: {
          staging_id: upload?.staging_id,
          statement_id: upload?.result_id,
          staging_done: true,
          processing_done: true,
          staging_processes: {
            stage: 'completed',
            info: expect.objectContaining({ check: 'pdf-trailer', status: 'passed' }),
          },
          processing_processes: { status: 'completed', stage: 3, remarks: {} },
        },
      },
    ]);
  });

  it('exits 7 with the staging check details when staging fails', async () => {
    const file = pdfFile('no-trailer.pdf', 4096, false);
    const result = await runCli(emulator, ['upload', 'contract', file, '--extract', 'royalties', '--wait'], {
      clock: quickClock,
    });
    expect(result.code).toBe(7);
    const id = lastUpload()?.staging_id;
    expect(result.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\tSTATE\tCONTRACT_ID\n${file}\t${id}\tfailed\tfailed\t\n`);
    expect(result.stderr).toBe(
      `uploading ${file} (4.0 KiB)\n` +
        `error: ${file}: processing failed (staging id ${id})\n` +
        '  the staging check failed\n' +
        '  check: pdf-trailer\n' +
        '  status: failed\n' +
        '  message: the file does not end with %%EOF; it may be truncated or damaged\n' +
        `  see \`pds contracts status ${id}\`\n`,
    );
  });

  it('processes a batch while it uploads, and a failure in one is exit 7 for all', async () => {
    const good = pdfFile('wb-good.pdf');
    const bad = pdfFile('wb-bad.pdf', 2048, false);
    const result = await runCli(emulator, ['upload', 'statement', good, bad, '--wait', '--json'], {
      clock: quickClock,
    });
    expect(result.code).toBe(7);
    const entries = JSON.parse(result.stdout) as {
      file: string;
      processes: { staging_processes: { stage: string } };
      error?: { message: string; details: string[] };
    }[];
    expect(entries.map((e) => e.processes.staging_processes.stage)).toEqual(['completed', 'failed']);
    expect(entries[0]?.error).toBeUndefined();
    expect(entries[1]?.error?.message).toMatch(/^processing failed \(staging id \d+\)$/);
    expect(entries[1]?.error?.details).toContain(
      'message: the file does not end with %%EOF; it may be truncated or damaged',
    );
    expect(withoutTime(result.stderr)).toBe('1 uploaded, 0 skipped, 1 failed; 1 processed, 1 failed processing\n');
  });

  it('gives up after --wait-timeout with exit 1 and the command to check again', async () => {
    const slow = await testEmulator({ processingMs: 60_000, flavor: 'seed' });
    // A clock whose sleeps pass instantly but count: the overall limit is reached without waiting.
    let now = Date.now();
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    };
    try {
      const file = pdfFile('slow.pdf');
      const result = await runCli(slow, ['upload', 'statement', file, '--wait', '--wait-timeout', '30'], { clock });
      expect(result.code).toBe(1);
      const id = slow.state.uploads.at(-1)?.staging_id;
      expect(result.stderr).toBe(
        `uploading ${file} (601 B)\n` +
          `error: ${file}: still processing after 30 s (staging id ${id})\n` +
          `  check again with \`pds statements status ${id}\`, or raise --wait-timeout\n`,
      );
      // Backoff: 2 s, 3 s, 4.5 s, 6.75 s, 10 s, 10 s… within 30 s is a handful of polls, not 15.
      const polls = slow.requests.filter((r) => r.path.endsWith('/processes'));
      expect(polls.length).toBeGreaterThanOrEqual(4);
      expect(polls.length).toBeLessThanOrEqual(8);
    } finally {
      await slow.close();
    }
  });

  it('stops on Ctrl-C with exit 130, during the wait or while the body is going out', async () => {
    const slow = await testEmulator({ processingMs: 60_000, latencyMs: 400, flavor: 'seed' });
    try {
      const waiting = new AbortController();
      const clock: Clock = { now: () => Date.now(), sleep: (ms, signal) => realClock.sleep(Math.min(ms, 20), signal) };
      const interrupted = runCli(slow, ['upload', 'statement', pdfFile('ctrl-c.pdf'), '--wait'], {
        clock,
        signal: waiting.signal,
      });
      // Once the upload is through (the mint that finds no signed-URL flow, then the upload, each
      // after the 400 ms latency) the wait polls; interrupt it then.
      setTimeout(() => waiting.abort(), 1400);
      const result = await interrupted;
      expect(result).toEqual({
        code: 130,
        stdout: '',
        stderr: expect.stringMatching(
          /^uploading \S+ctrl-c\.pdf \(601 B\)\nwarning: \S+ctrl-c\.pdf was uploaded \(staging id (\d+)\); processing goes on in the service: follow it with `pds statements status \1`\n$/,
        ),
      });

      // Mid-body: the latency holds the service back while pds is sending (after the 400 ms mint).
      const sending = new AbortController();
      const file = pdfFile('ctrl-c-big.pdf', 8 * 1024 * 1024);
      const cut = runCli(slow, ['upload', 'statement', file], { signal: sending.signal });
      setTimeout(() => sending.abort(), 600);
      const midway = await cut;
      expect(midway.code).toBe(130);
      expect(midway.stdout).toBe('');
      // Piped, a large file says where it is at each quarter of its bytes: none, or some, before Ctrl-C.
      const lines = midway.stderr.split('\n');
      expect(lines[0]).toBe(`uploading ${file} (8.0 MiB)`);
      expect(lines.at(-2)).toBe(
        `warning: the upload of ${file} was interrupted; check with \`pds statements ls\` before retrying: the upload may have been received`,
      );
      for (const line of lines.slice(1, -2)) expect(line).toMatch(new RegExp(`^${file}: (25|50|75)% sent \\(\\d`));
    } finally {
      await slow.close();
    }
  });

  it('shows the extractions as they complete on a terminal', async () => {
    const file = pdfFile('tty-wait.pdf');
    const result = await runCli(emulator, ['upload', 'contract', file, '--extract', 'royalties,splits', '--wait'], {
      tty: true,
      clock: quickClock,
      env: { NO_COLOR: '1' },
      // Wide enough for the whole line whatever the length of the temp dir's path.
      columns: 300,
    });
    expect(result.code).toBe(0);
    const upload = lastUpload();
    expect(result.stderr).toContain(
      `✓ tty-wait.pdf  staging id ${upload?.staging_id} · contract ${upload?.result_id} · extractions 2/2: royalties ✓ splits ✓`,
    );
    expect(result.stdout).toContain(`pds contracts get ${upload?.result_id}`);
  });
});

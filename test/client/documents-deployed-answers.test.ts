// Uploads, retries, processes, statement lines and knowledge search against answers exactly like the
// deployed service's examples (test/fixtures/deployed, from ../shared/examples/deployed), served by a
// loopback server of this test's own: the counts where the seed had flags, `uploaded`, numeric ids,
// `detailed.csv_url`. And what pds must refuse or say plainly: a signed URL over plain http to a host
// that is not loopback (refused before any connection: nothing listens at those hosts), a malformed
// mint or complete answer (named by its field and value, never "no answer").
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';
import { startRogueServer, type RogueServer } from '../helpers/rogue-server.js';

const example = (name: string): { data: Record<string, any> } =>
  JSON.parse(readFileSync(new URL(`../fixtures/deployed/${name}.json`, import.meta.url), 'utf8')) as {
    data: Record<string, any>;
  };

const dir = mkdtempSync(join(tmpdir(), 'pds-deployed-answers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** What an upload of one file says on stderr when it fails: the file started, then its error. */
const failedUpload = (path: string, bytes: number, lines: string[]): string =>
  `uploading ${path} (${bytes} B)\nerror: ${path}: ${lines[0]}\n${lines
    .slice(1)
    .map((line) => `  ${line}\n`)
    .join('')}`;

const CSV_LINES = 'isrc,territory,streams\r\nGBQAV2600011,GB,1200\r\nGBQAV2600011,FR,\x1b[31m310\r\n';

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  body: string;
}

/** A route's answer: [status, body], or a behaviour of its own. */
type Route = (req: IncomingMessage, res: ServerResponse, body: string) => [number, unknown] | 'handled';

/**
 * The deployed service as its examples answer, on loopback; `routes` replace or add answers by
 * `METHOD /path` (no query). The signed URLs of the examples point to this server itself, so the
 * storage host is this server too, under /storage/.
 */
class DeployedService {
  server!: RogueServer;
  seen: Seen[] = [];
  routes = new Map<string, Route>();

  async start(): Promise<void> {
    this.server = await startRogueServer((req, res) => void this.answer(req, res));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.server.url);
    const body = Buffer.concat(chunks).toString('utf8');
    this.seen.push({
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      body,
    });
    const route = this.routes.get(`${req.method} ${url.pathname}`);
    const answer: ReturnType<Route> = route ? route(req, res, body) : [404, { error: { message: 'not found' } }];
    if (answer === 'handled') return;
    res.writeHead(answer[0], {
      'content-type': 'application/json',
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '99',
      'x-ratelimit-reset': '60',
    });
    res.end(JSON.stringify(answer[1]));
  }

  /** The examples' signed URLs, moved to this server (the invented storage host is not reachable). */
  local(url: string): string {
    const parsed = new URL(url);
    return `${this.server.url}/storage${parsed.pathname}${parsed.search}`;
  }

  sent(): string[] {
    return this.seen.map((s) => `${s.method} ${s.path}`);
  }
}

const service = new DeployedService();
const run = (args: string[], options: Parameters<typeof runCli>[2] = {}) => runCli(service.server.url, args, options);

beforeEach(async () => {
  if (!service.server) await service.start();
  service.seen = [];
  service.routes.clear();
});
afterAll(() => service.server?.close());

/** The signed-URL upload of the examples: mint, PUT to storage, complete with `complete`. */
function uploadRoutes(
  kind: 'statements' | 'contracts',
  complete: { data: Record<string, any> },
  mint: unknown = undefined,
): void {
  const minted = example('uploads.mint');
  // The staging id the completion will name (the examples' mint and completions differ).
  if (typeof complete.data?.staging_id === 'number') minted.data.staging_id = complete.data.staging_id;
  minted.data.upload_url = service.local(minted.data.upload_url as string);
  service.routes.set(`POST /v1/${kind}/uploads`, () => [201, mint ?? minted]);
  service.routes.set(`PUT /storage/storage/v1/object/upload/sign/statements/7d3e/53013-q2.csv`, () => [
    200,
    { Key: 'statements/7d3e/53013-q2.csv' },
  ]);
  service.routes.set(`POST /v1/${kind}/uploads/complete`, () => [200, complete]);
}

describe('uploads against the deployed answers', () => {
  it('a plain upload answers `uploaded` with no counts: a success, kept as sent in --json', async () => {
    uploadRoutes('statements', example('uploads.complete.plain'));
    const result = await run(['upload', 'statement', file('q2.csv', 'isrc,units\nX,1\n'), '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].upload).toEqual({
      ...example('uploads.complete.plain').data,
      staging_stage: 'uploaded',
    });
    expect(service.sent()).toEqual([
      'POST /v1/statements/uploads',
      'PUT /storage/storage/v1/object/upload/sign/statements/7d3e/53013-q2.csv',
      'POST /v1/statements/uploads/complete',
    ]);
    // The storage host never sees the token.
    expect(service.seen[1]?.authorization).toBeUndefined();
    const table = await run(['upload', 'statement', file('q2.csv', 'isrc,units\nX,1\n')]);
    expect(table.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\n${join(dir, 'q2.csv')}\t53013\tuploaded\n`);
  });

  it('a queued upload with context answers `enqueued: 1` (a count), and pds reports it queued', async () => {
    uploadRoutes('statements', example('uploads.complete.context'));
    const result = await run(['upload', 'statement', file('q2.csv', 'a\n'), '--accounting-period', '2026Q2', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].upload).toMatchObject({
      status: 'queued',
      enqueued: 1,
      context_applied: true,
      snapshot_hash: '9f2c4e',
    });
  });

  it('a paused upload (`paused: 1`) reads paused: exit 0 without --wait, STATE paused and exit 7 with it', async () => {
    uploadRoutes('statements', example('uploads.complete.paused'));
    service.routes.set('GET /v1/statements/53015/processes', () => [
      200,
      {
        data: {
          ...example('statements.processes').data,
          staging_id: 53015,
          staging_processes: { stage: 'paused', info: {} },
          pause_reason: 'quota reached',
        },
      },
    ]);
    const plain = await run(['upload', 'statement', file('q2.csv', 'a\n')]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\n${join(dir, 'q2.csv')}\t53015\tpaused\n`);
    expect(plain.stderr).toContain(
      'staging id 53015, paused: quota reached; resume it with `pds statements retry 53015`',
    );
    const waited = await run(['upload', 'statement', file('q2.csv', 'a\n'), '--wait']);
    expect(waited.code).toBe(7);
    expect(waited.stdout).toBe(
      `FILE\tSTAGING_ID\tSTAGE\tSTATE\tSTATEMENT_ID\n${join(dir, 'q2.csv')}\t53015\tpaused\tpaused\t\n`,
    );
  });

  it('`--extract language` sends extract-language', async () => {
    uploadRoutes('contracts', example('uploads.complete.plain'));
    const result = await run([
      'upload',
      'contract',
      file('deal.pdf', '%PDF-1.4\n%%EOF\n'),
      '--extract',
      'language,royalties',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(service.seen[0]?.body ?? '{}').extractions).toEqual(['extract-language', 'extract-royalties']);
  });
});

describe('a malformed mint or complete answer is said as what it is', () => {
  it('staging_id "abc": the request, the field and its value; no PUT, no complete, exit 1', async () => {
    uploadRoutes('statements', example('uploads.complete.plain'), {
      data: { ...example('uploads.mint').data, staging_id: 'abc' },
    });
    const result = await run(['upload', 'statement', file('q2.csv', 'a\n')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      failedUpload(join(dir, 'q2.csv'), 2, [
        'the service answered POST /v1/statements/uploads with staging_id "abc", not a staging id (a whole number)',
        'check with `pds statements ls` before retrying: the upload may have been received',
      ]),
    );
    expect(service.sent()).toEqual(['POST /v1/statements/uploads']);
  });

  it('no upload_url, or one that is not http(s), an escape made safe', async () => {
    const { upload_url: _, ...noUrl } = example('uploads.mint').data;
    uploadRoutes('statements', example('uploads.complete.plain'), { data: noUrl });
    const missing = await run(['upload', 'statement', file('q2.csv', 'a\n')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      ': the service answered POST /v1/statements/uploads with no upload_url, not an http(s) URL\n  staging id 53013 holds no file\n',
    );
    expect(missing.stderr).not.toContain('no answer');
    uploadRoutes('statements', example('uploads.complete.plain'), {
      data: { ...noUrl, upload_url: 'file:///etc/passwd\x1b]0;x\x07' },
    });
    const bad = await run(['upload', 'statement', file('q2.csv', 'a\n')]);
    expect(bad.stderr).toContain('with upload_url "file:///etc/passwd\\u001b]0;x\\u0007", not an http(s) URL\n');
    // Two mints (one per run); nothing else.
    expect(service.sent()).toEqual(['POST /v1/statements/uploads', 'POST /v1/statements/uploads']);
  });

  it('a complete answer without a status names it, and says where the bytes are', async () => {
    uploadRoutes('statements', { data: { staging_id: 53013 } });
    const result = await run(['upload', 'statement', file('q2.csv', 'a\n')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      failedUpload(join(dir, 'q2.csv'), 2, [
        'the service answered POST /v1/statements/uploads/complete with no status, not a status such as uploaded, queued or paused',
        'the bytes of q2.csv are stored under staging id 53013',
        'check it with `pds statements status 53013` before uploading again',
      ]),
    );
  });

  it('a complete answer that is not {data: {…}} is malformed too, not unconfirmed', async () => {
    uploadRoutes('statements', { data: [1, 2] as never });
    const result = await run(['upload', 'statement', file('q2.csv', 'a\n')]);
    expect(result.stderr).toContain(
      ': the service answered POST /v1/statements/uploads/complete with data [1,2], not an object\n',
    );
    expect(result.stderr).not.toContain('did not confirm');
  });
});

describe('no signed URL is used over plain http to a host that is not loopback', () => {
  for (const host of ['storage.example.invalid', '10.0.0.1']) {
    it(`an upload URL at http://${host}: refused before any connection (exit 2), the complete never sent`, async () => {
      uploadRoutes('statements', example('uploads.complete.plain'), {
        data: { ...example('uploads.mint').data, upload_url: `http://${host}/object/upload/sign/q2.csv?token=sig` },
      });
      const result = await run(['upload', 'statement', file('q2.csv', 'a\n')]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        failedUpload(join(dir, 'q2.csv'), 2, [
          `refusing to send q2.csv and its signed upload URL over plain http to ${host}: anyone on the way could read it`,
          `the service's upload URL for staging id 53013 is http://${host}/object/upload/sign/q2.csv; staging id 53013 holds no file`,
          'use a service whose storage answers over https, or, if this network is trusted, opt in with --allow-http, PDS_ALLOW_HTTP=1 or `pds config set allow-http true`',
        ]),
      );
      expect(service.sent()).toEqual(['POST /v1/statements/uploads']);
    });
  }

  it('a download URL, and the lines CSV, at http://storage.example.invalid: refused, exit 2', async () => {
    service.routes.set('GET /v1/statements/72001/download', () => [
      200,
      {
        data: {
          url: 'http://storage.example.invalid/72001.csv?token=sig',
          fileName: 'a.csv',
          fileType: 'text/csv',
          expiresIn: 60,
        },
      },
    ]);
    const download = await run(['statements', 'download', '72001', '-o', join(dir, 'never.csv')]);
    expect(download.code).toBe(2);
    expect(download.stderr).toContain(
      'error: refusing to send the signed download URL over plain http to storage.example.invalid',
    );
    expect(existsSync(join(dir, 'never.csv'))).toBe(false);
    const detailed = example('statements.get.detailed');
    detailed.data.detailed.csv_url = 'http://storage.example.invalid/exports/72001.csv?token=sig';
    service.routes.set('GET /v1/statements/72001', () => [200, detailed]);
    const lines = await run(['statements', 'lines', '72001']);
    expect(lines.code).toBe(2);
    expect(lines.stderr).toContain(
      'error: refusing to send the signed download URL over plain http to storage.example.invalid',
    );
    expect(lines.stdout).toBe('');
    expect(service.sent()).toEqual(['GET /v1/statements/72001/download', 'GET /v1/statements/72001']);
  });
});

describe('pds statements|contracts retry against the deployed answer', () => {
  it('reads the counts (numbers): still paused, 3 of 3, and keeps them in --json', async () => {
    service.routes.set('POST /v1/statements/staging/53015/retry', () => [200, example('staging.retry')]);
    const result = await run(['statements', 'retry', '53015']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'the service keeps staging 53015 paused (3 of 3); try again later with `pds statements retry 53015`',
    );
    const json = await run(['statements', 'retry', '53015', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(example('staging.retry').data);
  });

  it('an answer without a status is named, exit 1', async () => {
    service.routes.set('POST /v1/contracts/staging/53015/retry', () => [
      200,
      { data: { staging_id: 53015, enqueued: 0 } },
    ]);
    const result = await run(['contracts', 'retry', '53015']);
    expect(result).toMatchObject({
      code: 1,
      stderr:
        'error: the service answered POST /v1/contracts/staging/53015/retry with no status, not a status such as queued or paused\n',
    });
  });
});

describe('pds statements lines', () => {
  beforeEach(() => {
    const detailed = example('statements.get.detailed');
    detailed.data.detailed.csv_url = service.local(detailed.data.detailed.csv_url as string);
    service.routes.set('GET /v1/statements/72001', () => [200, detailed]);
    // The CSV is not JSON: served as it is.
    service.routes.set('GET /storage/exports/72001.csv', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(CSV_LINES)) });
      res.end(CSV_LINES);
      return 'handled';
    });
    service.routes.set('GET /v1/statements/72002', () => [200, example('statements.get.detailed.not-processed')]);
  });

  it('prints the CSV as it is when piped: the detailed get, then the signed URL without any credential', async () => {
    const result = await run(['statements', 'lines', '72001']);
    expect(result).toEqual({ code: 0, stdout: CSV_LINES, stderr: '' });
    expect(service.sent()).toEqual(['GET /v1/statements/72001', 'GET /storage/exports/72001.csv']);
    expect(service.seen[0]?.query).toEqual({ projectId: DEMO_PROJECT, detailed: 'true' });
    expect(service.seen[0]?.authorization).toBe('Bearer demo-org-token');
    expect(service.seen[1]?.authorization).toBeUndefined();
  });

  it('on a terminal, line ends stay and an escape sequence is shown, not sent', async () => {
    const result = await run(['statements', 'lines', '72001'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('isrc,territory,streams\nGBQAV2600011,GB,1200\nGBQAV2600011,FR,\\x1b[31m310\n');
  });

  it('-o saves the file whole; an existing file is not replaced without --force (exit 2), with --force it is', async () => {
    const target = join(dir, 'lines-out', 'q1.csv');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'lines-out'), { recursive: true });
    const saved = await run(['statements', 'lines', '72001', '-o', target]);
    expect(saved.code).toBe(0);
    expect(saved.stderr).toBe(`saved the lines of statement 72001 to ${target} (${Buffer.byteLength(CSV_LINES)} B)\n`);
    expect(readFileSync(target, 'utf8')).toBe(CSV_LINES);
    writeFileSync(target, 'mine\n');
    const refused = await run(['statements', 'lines', '72001', '-o', target]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error: ${target} exists`);
    expect(refused.stderr).toContain('--force replaces it');
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
    const forced = await run(['statements', 'lines', '72001', '-o', target, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(CSV_LINES);
    // No temporary file is left beside it.
    expect(readdirSync(join(dir, 'lines-out'))).toEqual(['q1.csv']);
  });

  it("a statement not processed yet: exit 1 with the service's detailed_error, made safe", async () => {
    const result = await run(['statements', 'lines', '72002']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: statement 72002 has no lines yet: Statement extraction is not completed yet\n  its processing must complete first: follow it with `pds statements status 72002`\n',
    });
    service.routes.set('GET /v1/statements/72002', () => [
      200,
      { data: { id: 72002, detailed: null, detailed_error: 'not yet\x1b[2J\u202e' } },
    ]);
    const unsafe = await run(['statements', 'lines', '72002']);
    expect(unsafe.stderr).toContain('error: statement 72002 has no lines yet: not yet\\x1b[2J\\u{202e}\n');
    expect(service.sent()).toEqual(['GET /v1/statements/72002', 'GET /v1/statements/72002']);
  });

  it("a detailed without a csv_url is named as the answer's fault, exit 1", async () => {
    service.routes.set('GET /v1/statements/72001', () => [
      200,
      { data: { id: 72001, detailed: { file_name: 'x.csv', row_count: 3 } } },
    ]);
    const result = await run(['statements', 'lines', '72001']);
    expect(result).toMatchObject({
      code: 1,
      stderr: 'error: the service answered GET /v1/statements/72001 with no detailed.csv_url, not an http(s) URL\n',
    });
  });

  it('refuses a bad id and -o into a missing directory: exit 2, nothing sent', async () => {
    const badId = await run(['statements', 'lines', 'abc']);
    expect(badId).toMatchObject({
      code: 2,
      stderr: "error: invalid statement id 'abc': statement ids are whole numbers\n",
    });
    const missing = await run(['statements', 'lines', '72001', '-o', join(dir, 'nowhere', 'x.csv')]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: `error: cannot write ${join(dir, 'nowhere', 'x.csv')}: the directory ${join(dir, 'nowhere')} does not exist\n`,
    });
    const dirTarget = await run(['statements', 'lines', '72001', '-o', dir]);
    expect(dirTarget.code).toBe(2);
    expect(service.seen).toEqual([]);
  });
});

describe('pds knowledge search --kind', () => {
  it('filters the answer in pds; no kind parameter is sent', async () => {
    const answer = example('knowledge.search');
    const policy = answer.data.results[0];
    answer.data.results.push(
      { ...policy, id: 42, kind: 'person', name: 'Ines Fairweather', claims: null, relationships: 'none' },
      { id: 43, name: 'No kind' },
    );
    service.routes.set(`GET /v1/projects/${DEMO_PROJECT}/knowledge/search`, () => [200, answer]);
    const people = await run(['knowledge', 'search', 'approval', '--kind', 'person', '--json']);
    expect(people.code).toBe(0);
    expect(JSON.parse(people.stdout)).toEqual([answer.data.results[1]]);
    expect(service.seen[0]?.query).toEqual({ q: 'approval' });
    const table = await run(['knowledge', 'search', 'approval', '--kind', 'policy,person']);
    expect(table.stdout).toBe(
      'ID\tKIND\tNAME\tCLAIMS\tRELATED\n41\tpolicy\tSync approval\trequires_approval_from: label director\towned_by Ines Fairweather\n42\tperson\tInes Fairweather\t\t\n',
    );
  });
});

describe('processes in the deployed form', () => {
  beforeEach(() => {
    service.routes.set('GET /v1/contracts/53021/processes', () => [200, example('contracts.processes')]);
    service.routes.set('GET /v1/statements/53011/processes', () => [200, example('statements.processes')]);
    const paused = {
      ...example('statements.processes').data,
      staging_id: 53015,
      statement_id: null,
      staging_done: false,
      extraction_done: false,
      extraction_processes: null,
      staging_processes: { stage: 'paused', info: {} },
      requires_action: true,
      available_actions: ['retry'],
      pause_reason: 'quota reached',
    };
    service.routes.set('GET /v1/statements/53015/processes', () => [200, { data: paused }]);
  });

  it('a contract upload: running, with its extractions; a statement: completed, its id', async () => {
    const contract = await run(['contracts', 'status', '53021']);
    expect(contract.code).toBe(0);
    expect(contract.stdout).toBe(
      'state\trunning\nstaging_id\t53021\nstaging_stage\tcompleted\ncontract_id\t\nextraction_stage\tprocessing\n' +
        'extractions\t[{"name":"extract-royalties","status":"completed","completed_at":"2026-05-19T07:45:12.000Z"},{"name":"extract-language","status":"queued","completed_at":null}]\n',
    );
    const statement = await run(['statements', 'status', '53011']);
    expect(statement.stdout).toBe(
      'state\tcompleted\nstaging_id\t53011\nstaging_stage\tcompleted\nstatement_id\t72001\nprocessing_status\tcompleted\nprocessing_stage\t5\n',
    );
  });

  it('a paused upload reads paused, not failed; --watch ends at once with exit 7', async () => {
    const status = await run(['statements', 'status', '53015']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^state\tpaused\n/);
    expect(status.stdout).toContain('paused\tquota reached; resume it with `pds statements retry 53015`\n');
    const watched = await run(['statements', 'status', '53015', '--watch']);
    expect(watched.code).toBe(7);
    expect(watched.stderr).toBe(
      'error: statement upload 53015 is paused\n  quota reached\n  resume it with `pds statements retry 53015`\n',
    );
    expect(service.sent()).toEqual(['GET /v1/statements/53015/processes', 'GET /v1/statements/53015/processes']);
  });

  it('several ids: each in the order given, one block each; the exit code is the worst', async () => {
    const both = await run(['statements', 'status', '53015', '53011']);
    expect(both.code).toBe(0);
    expect(both.stdout.split('\n\n').map((block) => block.split('\n')[0])).toEqual([
      'state\tpaused',
      'state\tcompleted',
    ]);
    const json = await run(['statements', 'status', '53011', '53015', '--json']);
    expect((JSON.parse(json.stdout) as { staging_id: number }[]).map((p) => p.staging_id)).toEqual([53011, 53015]);
    const withMissing = await run(['statements', 'status', '53011', '99999', '53015']);
    expect(withMissing.code).toBe(5);
    expect(withMissing.stderr).toBe('error: statement 99999: not found\n');
    expect(withMissing.stdout.split('\n\n')).toHaveLength(2);
    expect(service.sent()).toEqual([
      'GET /v1/statements/53015/processes',
      'GET /v1/statements/53011/processes',
      'GET /v1/statements/53011/processes',
      'GET /v1/statements/53015/processes',
      'GET /v1/statements/53011/processes',
      'GET /v1/statements/99999/processes',
      'GET /v1/statements/53015/processes',
    ]);
    const watched = await run(['statements', 'status', '53011', '53015', '--watch']);
    expect(watched.code).toBe(7);
    expect(watched.stderr).toContain('error: statement 53015: statement upload 53015 is paused\n');
  });

  it('refuses a bad id among several before anything is sent: exit 2', async () => {
    const result = await run(['statements', 'status', '53011', 'x1', '53015']);
    expect(result).toMatchObject({
      code: 2,
      stderr:
        "error: invalid staging or statement id 'x1': expected a whole number, like the staging_id an upload printed\n",
    });
    expect(service.seen).toEqual([]);
  });
});

describe('--skip-existing=content compares no further than the listed size', () => {
  it('a record whose file is longer than the listing said is a changed file at once: reading stops, no --max-size hint', async () => {
    const local = file('a.csv', 'isrc,units\nGBQAV2600011,1\n');
    expect(Buffer.byteLength(readFileSync(local))).toBe(26);
    const listed = example('statements.list');
    listed.data.items = [{ ...listed.data.items[0], id: 72001, file_name: 'a.csv', file_size: 26 }];
    listed.data.total_count = 1;
    service.routes.set('GET /v1/statements', () => [200, listed]);
    service.routes.set('GET /v1/statements/72001/download', () => [
      200,
      {
        data: {
          url: `${service.server.url}/storage/endless.csv?token=sig`,
          fileName: 'a.csv',
          fileType: 'text/csv',
          expiresIn: 60,
        },
      },
    ]);
    let written = 0;
    service.routes.set('GET /storage/endless.csv', (_req, res) => {
      // A body without end (no Content-Length), written as fast as pds reads it.
      res.writeHead(200, { 'content-type': 'text/csv' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return 'handled';
    });
    uploadRoutes('statements', example('uploads.complete.plain'));
    const result = await run(['upload', 'statement', local, '--skip-existing=content', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      expect.objectContaining({ file: local, changed: true, upload: expect.objectContaining({ staging_id: 53013 }) }),
    ]);
    expect(result.stderr).not.toContain('--max-size');
    // What the socket buffers took before pds stopped reading, not a gigabyte.
    expect(written).toBeLessThan(8 * 1024 * 1024);
    expect(service.sent()).toContain('POST /v1/statements/uploads/complete');
  });

  it('a Content-Length over the listed size is a mismatch before any byte is read; the same bytes are skipped', async () => {
    const body = 'isrc,units\nGBQAV2600011,1\n';
    const local = file('b.csv', body);
    const listed = example('statements.list');
    listed.data.items = [{ ...listed.data.items[0], id: 72001, file_name: 'b.csv', file_size: 26 }];
    listed.data.total_count = 1;
    service.routes.set('GET /v1/statements', () => [200, listed]);
    service.routes.set('GET /v1/statements/72001/download', () => [
      200,
      {
        data: {
          url: `${service.server.url}/storage/b.csv?token=sig`,
          fileName: 'b.csv',
          fileType: 'text/csv',
          expiresIn: 60,
        },
      },
    ]);
    let served = body;
    service.routes.set('GET /storage/b.csv', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(served)) });
      res.end(served);
      return 'handled';
    });
    uploadRoutes('statements', example('uploads.complete.plain'));
    const same = await run(['upload', 'statement', local, '--skip-existing=content', '--json']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toEqual([{ file: local, skipped: true, id: '72001' }]);
    served = `${body}${'x'.repeat(4096)}`;
    const longer = await run(['upload', 'statement', local, '--skip-existing=content', '--json']);
    expect(longer.code).toBe(0);
    expect(JSON.parse(longer.stdout)[0]).toMatchObject({ changed: true, upload: { status: 'uploaded' } });
  });
});

describe('against the emulator', () => {
  it('statements status of several ids prints each in order; a paused upload reads paused with --wait (STATE paused, exit 7)', async () => {
    const { answerOf, testEmulator } = await import('../helpers/emulator.js');
    const emulator = await testEmulator({ flavor: 'current', processingMs: 20, pauseUploads: true });
    try {
      // Two statements the emulator lists, the second before the first: the order given is kept.
      const listed = await answerOf<{ items: { id: number }[] }>(
        emulator,
        `/v1/statements?projectId=${DEMO_PROJECT}&page=1&perPage=2`,
      );
      const ids = listed.items.map((statement) => statement.id).reverse();
      expect(ids).toHaveLength(2);
      const several = await runCli(emulator, ['statements', 'status', ...ids.map(String), '--json']);
      expect(several.code).toBe(0);
      expect((JSON.parse(several.stdout) as { statement_id: number }[]).map((p) => p.statement_id)).toEqual(ids);
      expect(emulator.requests.map((r) => r.path).filter((p) => p.endsWith('/processes'))).toEqual(
        ids.map((id) => `/v1/statements/${id}/processes`),
      );
      const csv = file('paused.csv', 'a,b\n1,2\n');
      const waited = await runCli(emulator, ['upload', 'statement', csv, '--wait']);
      expect(waited.code).toBe(7);
      const id = emulator.state.uploads.at(-1)?.staging_id;
      expect(waited.stdout).toBe(`FILE\tSTAGING_ID\tSTAGE\tSTATE\tSTATEMENT_ID\n${csv}\t${id}\tpaused\tpaused\t\n`);
      const status = await runCli(emulator, ['statements', 'status', String(id)]);
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^state\tpaused\n/);
    } finally {
      await emulator.close();
    }
  });
});

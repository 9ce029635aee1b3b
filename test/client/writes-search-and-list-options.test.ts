// The commands of the deployed service beyond uploads (SERVICE-NOW.md), against the emulator over
// loopback: projects create, tags, statements update, knowledge search, the new list options; and
// every kind of bad input refused before anything is sent.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID, DEMO_PROJECT_TOKEN } from '../../src/emulator/seed.js';
import { answerOf, sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const emulator = sharedEmulator({ flavor: 'current', processingMs: 20 });
const sent = () => emulator.requests.map((r) => `${r.method} ${r.path}`);

// The records the tests write to, as the emulator lists them (read before the tests): the second
// contract, the first two statements.
let contractId: string;
let statementA: string;
let statementB: string;
beforeAll(async () => {
  const of = `projectId=${DEMO_PROJECT_ID}&page=1&perPage=2`;
  [, contractId] = (await answerOf<{ id: string }[]>(emulator, `/v1/contracts?${of}`)).map((c) => c.id) as [
    string,
    string,
  ];
  [statementA, statementB] = (await answerOf<{ items: { id: number }[] }>(emulator, `/v1/statements?${of}`)).items.map(
    (statement) => String(statement.id),
  ) as [string, string];
});

describe('pds projects create', () => {
  it('creates a project, sent once, and prints it', async () => {
    const result = await runCli(emulator, [
      'projects',
      'create',
      'Back catalogue',
      '--entity-name',
      'Nova Records',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const project = JSON.parse(result.stdout);
    expect(project).toMatchObject({ name: 'Back catalogue', entity_name: 'Nova Records' });
    expect(result.stderr).toBe(`make it the default with \`pds use ${project.id}\`\n`);
    expect(emulator.requests.at(-1)?.headers['content-type']).toBe('application/json');
    expect(sent()).toEqual(['POST /v1/projects']);
  });

  it('is refused for a project-scoped token (exit 4) and for an empty name (exit 2, nothing sent)', async () => {
    const scoped = await runCli(emulator, ['projects', 'create', 'x'], { token: DEMO_PROJECT_TOKEN });
    expect(scoped.code).toBe(4);
    expect(scoped.stderr).toBe('error: a project-scoped token cannot create projects\n');
    emulator.requests.length = 0;
    const empty = await runCli(emulator, ['projects', 'create', ' ']);
    expect(empty).toMatchObject({ code: 2, stderr: 'error: a project name is 1 to 200 characters\n' });
    expect(sent()).toEqual([]);
  });
});

describe('pds contracts|statements tag and pds tags ls', () => {
  it('sets the complete list, adds and removes (reading the current tags first), clears', async () => {
    const set = await runCli(emulator, ['contracts', 'tag', contractId, 'urgent', 'review']);
    expect(set).toMatchObject({
      code: 0,
      stdout: `resource_id\t${contractId}\nscope\tcontracts\ntags\turgent,review\n`,
    });
    const added = await runCli(emulator, ['contracts', 'tag', contractId, 'signed', '--add']);
    expect(added.stdout).toBe(`resource_id\t${contractId}\nscope\tcontracts\ntags\turgent,review,signed\n`);
    emulator.requests.length = 0;
    const removed = await runCli(emulator, ['contracts', 'tag', contractId, 'review', '--remove']);
    expect(removed.stdout).toBe(`resource_id\t${contractId}\nscope\tcontracts\ntags\turgent,signed\n`);
    expect(sent()).toEqual([`GET /v1/contracts/${contractId}`, 'PUT /v1/tags']);
    const listed = await runCli(emulator, ['tags', 'ls', '--scope', 'contracts', '--json']);
    expect(JSON.parse(listed.stdout).map((t: { tag: string }) => t.tag)).toEqual(['signed', 'urgent']);
    const cleared = await runCli(emulator, ['contracts', 'tag', contractId, '--clear']);
    expect(cleared.stdout).toBe(`resource_id\t${contractId}\nscope\tcontracts\ntags\t\n`);
  });

  it('refuses conflicting or missing tags before anything is sent', async () => {
    emulator.requests.length = 0;
    const both = await runCli(emulator, ['statements', 'tag', statementA, 'x', '--add', '--remove']);
    expect(both).toMatchObject({ code: 2, stderr: 'error: --add, --remove and --clear exclude each other\n' });
    const none = await runCli(emulator, ['statements', 'tag', statementA]);
    expect(none).toMatchObject({
      code: 2,
      stderr: 'error: name the tags to set (the complete list), or use --clear\n',
    });
    const clearWith = await runCli(emulator, ['statements', 'tag', statementA, 'x', '--clear']);
    expect(clearWith).toMatchObject({ code: 2, stderr: 'error: --clear takes no tags\n' });
    const badScope = await runCli(emulator, ['tags', 'ls', '--scope', 'artists']);
    expect(badScope.code).toBe(2);
    expect(sent()).toEqual([]);
  });

  it('a statement that does not exist: exit 5', async () => {
    const missing = await runCli(emulator, ['statements', 'tag', '999999', 'x']);
    expect(missing).toMatchObject({ code: 5, stderr: 'error: statement not found\n' });
  });
});

describe('pds statements update', () => {
  it('sends the fields given, normalized, and null for --clear-<field>', async () => {
    const result = await runCli(emulator, [
      'statements',
      'update',
      statementB,
      '--payee',
      'Nova',
      '--accounting-period',
      '2026-q3',
      '--currency-royalty',
      'eur',
      '--clear-payor',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      id: Number(statementB),
      payee: 'Nova',
      payor: null,
      accounting_period: '2026Q3',
      currency_royalty: 'EUR',
    });
  });

  it('refuses bad periods, currencies, conflicting flags and an empty change: exit 2, nothing sent', async () => {
    emulator.requests.length = 0;
    const bad = await runCli(emulator, [
      'statements',
      'update',
      statementB,
      '--accounting-period',
      '2026Q5',
      '--currency-transaction',
      'dollars',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "error: 2 problems; nothing was sent\n  invalid --accounting-period '2026Q5': expected a period such as 2026Q1\n  invalid --currency-transaction 'dollars': expected an ISO 4217 code such as USD\n",
    );
    const both = await runCli(emulator, ['statements', 'update', statementB, '--payee', 'x', '--clear-payee']);
    expect(both.stderr).toBe('error: --payee and --clear-payee exclude each other\n');
    const nothing = await runCli(emulator, ['statements', 'update', statementB]);
    expect(nothing.stderr).toBe(
      'error: nothing to change: give a field (--payee, --accounting-period, …) or a --clear-<field>\n',
    );
    const id = await runCli(emulator, ['statements', 'update', 'abc', '--payee', 'x']);
    expect(id.stderr).toBe("error: invalid statement id 'abc': expected a whole number\n");
    expect(sent()).toEqual([]);
  });
});

describe('pds knowledge search', () => {
  it('prints nodes with claims and relationships, and the records with --json', async () => {
    const table = await runCli(emulator, ['knowledge', 'search', 'Recoupment', 'policy']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe('ID\tKIND\tNAME\tCLAIMS\tRELATED');
    expect(table.stdout).toContain(
      '\tpolicy\tRecoupment policy\tsummary: Advances are recouped from the artist share before payout.\t\n',
    );
    const json = await runCli(emulator, ['knowledge', 'search', 'Royalty', '--kind', 'team', '--limit', '1', '--json']);
    const nodes = JSON.parse(json.stdout);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ kind: 'team', name: 'Royalty Operations' });
    // The service has no kind filter: pds filters its answer, and sends no kind.
    expect(emulator.requests.at(-1)?.query).toEqual({ q: 'Royalty', limit: '1' });
  });

  it('refuses an unknown kind and a bad limit before anything is sent', async () => {
    emulator.requests.length = 0;
    const kind = await runCli(emulator, ['knowledge', 'search', 'x', '--kind', 'robot']);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain("error: unknown --kind 'robot'");
    const limit = await runCli(emulator, ['knowledge', 'search', 'x', '--limit', '0']);
    expect(limit.code).toBe(2);
    expect(sent()).toEqual([]);
  });
});

describe('the new list options', () => {
  it('contracts: --score, --citations, --extractor-ids and the new includes are sent', async () => {
    const result = await runCli(emulator, [
      'contracts',
      'ls',
      '--score',
      '--citations',
      '--extractor-ids',
      'a,b',
      '--include',
      'languages,targets',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(emulator.requests.at(-1)?.query).toMatchObject({
      projectId: DEMO_PROJECT_ID,
      score: 'true',
      citations: 'true',
      extractorIds: 'a,b',
      includes: 'languages,targets',
    });
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ languages: [], targets: [], file_type: 'application/pdf' });
  });

  it('statements: --staging-ids, --extraction-stage on ls, --detailed on get; bad values refused', async () => {
    const ls = await runCli(emulator, [
      'statements',
      'ls',
      '--extraction-stage',
      'completed',
      '--staging-ids',
      '1,2',
      '--score',
      '--json',
    ]);
    expect(ls.code).toBe(0);
    expect(emulator.requests.at(-1)?.query).toMatchObject({
      extractionStage: 'completed',
      stagingIds: '1,2',
      score: 'true',
    });
    const get = await runCli(emulator, ['statements', 'get', statementA, '--detailed', '--json']);
    expect(emulator.requests.at(-1)?.query).toMatchObject({ detailed: 'true' });
    expect(JSON.parse(get.stdout)).toHaveProperty('file_size');
    emulator.requests.length = 0;
    const stage = await runCli(emulator, ['statements', 'ls', '--extraction-stage', 'done']);
    expect(stage.code).toBe(2);
    const ids = await runCli(emulator, ['statements', 'ls', '--staging-ids', 'x']);
    expect(ids).toMatchObject({
      code: 2,
      stderr: "error: invalid staging id 'x' in --staging-ids: expected whole numbers\n",
    });
    expect(sent()).toEqual([]);
  });
});

describe('pds contracts|statements retry: bad input', () => {
  it('refuses a non-numeric staging id (exit 2) and answers 404 for an unknown one (exit 5)', async () => {
    emulator.requests.length = 0;
    const bad = await runCli(emulator, ['statements', 'retry', 'abc']);
    expect(bad).toMatchObject({ code: 2, stderr: "error: invalid staging id 'abc': expected a whole number\n" });
    expect(sent()).toEqual([]);
    const unknown = await runCli(emulator, ['contracts', 'retry', '424242']);
    expect(unknown.code).toBe(5);
    expect(sent()).toEqual(['POST /v1/contracts/staging/424242/retry']);
  });
});

describe('pds statements status of a paused upload', () => {
  it('says why and how to resume; --watch ends with exit 7 instead of running out', async () => {
    const { testEmulator } = await import('../helpers/emulator.js');
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const paused = await testEmulator({ flavor: 'current', processingMs: 20, pauseUploads: true });
    try {
      const csv = join(mkdtempSync(join(tmpdir(), 'pds-paused-')), 'p.csv');
      writeFileSync(csv, 'a,b\n1,2\n');
      const upload = await runCli(paused, ['upload', 'statement', csv, '-q']);
      expect(upload.code).toBe(0);
      const id = upload.stdout.trim();
      const watched = await runCli(paused, ['statements', 'status', id, '--watch']);
      expect(watched.code).toBe(7);
      expect(watched.stdout + watched.stderr).toContain(`resume it with \`pds statements retry ${id}\``);
      expect(watched.stdout + watched.stderr).toContain('the project has reached its processing quota');
    } finally {
      await paused.close();
    }
  });
});

describe('a statement of another format downloads as it was uploaded', () => {
  it('a CSV comes back byte for byte, not checked as a PDF', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const csv = join(mkdtempSync(join(tmpdir(), 'pds-dl-')), 'back.csv');
    writeFileSync(csv, 'isrc,units\nX,1\n');
    const upload = await runCli(emulator, ['upload', 'statement', csv, '--wait', '--json'], {
      clock: { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 30))) },
    });
    expect(upload.code).toBe(0);
    const id = JSON.parse(upload.stdout)[0].processes.statement_id;
    const downloaded = await runCli(emulator, ['statements', 'download', String(id), '-o', '-']);
    expect(downloaded.code).toBe(0);
    expect(downloaded.stdout).toBe('isrc,units\nX,1\n');
  });
});

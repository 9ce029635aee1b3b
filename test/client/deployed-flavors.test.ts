// Every read command against the emulator in both of the forms a service may answer in: `seed`
// (SPEC.md) and `deployed` (SERVICE-NOW.md, "Records as the deployed service returns them"). pds
// must work the same against either (issue 30, "Done when"): exit 0, tables that name things (names
// or file names, never blank, never `[object Object]` or raw JSON), every record listed (the counts
// are the emulator store's), and ids printed as the service sent them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { ProjectData } from '../../src/emulator/store.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { expectReadable } from '../helpers/readable.js';

const FLAVORS = ['seed', 'deployed'] as const;
const RESOURCES = [
  'contracts',
  'statements',
  'entities',
  'relations',
  'artists',
  'writers',
  'recordings',
  'compositions',
] as const;
/** The flags that change what each resource's list and get carry. */
const FLAGS: Partial<Record<(typeof RESOURCES)[number], string[]>> = {
  contracts: ['--include', 'royalties,accounting-periods'],
  statements: ['--score'],
  entities: ['--merged'],
  artists: ['--merged'],
  recordings: ['--products'],
  compositions: ['--products'],
};

/** Piped output: rows keyed by the header lower-cased. */
function tsv(stdout: string): Record<string, string>[] {
  const [head = '', ...lines] = stdout.replace(/\n$/, '').split('\n');
  const header = head.split('\t').map((h) => h.toLowerCase());
  return lines.map((line) => Object.fromEntries(line.split('\t').map((cell, i) => [header[i] ?? `#${i}`, cell])));
}

/** What names a row: its name, or for documents its file name. */
const nameOf = (row: Record<string, string>) => row.name || row.file || row.file_name || '';

describe.each(FLAVORS)('the %s flavor', (flavor) => {
  const emulator = sharedEmulator({ flavor, processingMs: 20 });
  const pds = (args: string[], tty = false) =>
    runCli(emulator, args, { tty, columns: 220, env: { NO_COLOR: '1', PDS_PAGER: '' } });
  const listed = (resource: keyof ProjectData) =>
    emulator.state.data[DEMO_PROJECT_ID]![resource].filter((r) => !('merged_into' in r && r.merged_into));
  const firstId = async (resource: string) => (await pds([resource, 'ls', '-q', '--per-page', '1'])).stdout.trim();

  it.each(RESOURCES)('%s ls: every record (--all -q), each row named, tables readable', async (resource) => {
    const all = await pds([resource, 'ls', '--all', '-q']);
    expect(all.code).toBe(0);
    const ids = all.stdout.trim().split('\n');
    expect(ids).toHaveLength(listed(resource).length);
    expect(new Set(ids).size).toBe(ids.length);
    // The flavor really is in play: the deployed service's ids are numbers.
    const [first] = JSON.parse((await pds([resource, 'ls', '--json', '--per-page', '1'])).stdout) as { id: unknown }[];
    if (flavor === 'deployed') expect(typeof first?.id).toBe('number');
    for (const args of [
      [resource, 'ls'],
      [resource, 'ls', ...(FLAGS[resource] ?? [])],
    ]) {
      const piped = await pds(args);
      expect(piped.code).toBe(0);
      const rows = tsv(piped.stdout);
      expect(rows).toHaveLength(20);
      for (const row of rows) expect(nameOf(row), JSON.stringify(row)).not.toBe('');
      expectReadable(piped.stdout);
      const table = await pds(args, true);
      expect(table.code).toBe(0);
      expectReadable(table.stdout);
    }
  });

  /** What the emulator answers to the last request pds sent it, fetched again as it was sent. */
  async function answerToLast(): Promise<unknown> {
    const last = emulator.requests.at(-1)!;
    const answer = await fetch(`${emulator.url}${last.path}?${new URLSearchParams(last.query)}`, {
      headers: { authorization: 'Bearer demo-org-token' },
    });
    return ((await answer.json()) as { data: unknown }).data;
  }

  it.each(RESOURCES)('%s ls and get --json keep the records exactly as the service sent them', async (resource) => {
    const list = await pds([resource, 'ls', ...(FLAGS[resource] ?? []), '--json']);
    expect(list.code).toBe(0);
    const sent = (await answerToLast()) as unknown[] | { items: unknown[] };
    expect(JSON.parse(list.stdout)).toEqual(Array.isArray(sent) ? sent : sent.items);
    const id = String((JSON.parse(list.stdout) as { id: unknown }[])[0]?.id);
    const get = await pds([resource, 'get', id, ...(FLAGS[resource] ?? []), '--json']);
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toEqual(await answerToLast());
  });

  it.each(RESOURCES)('%s get: the id as the service sent it, the record readable', async (resource) => {
    const id = await firstId(resource);
    expect(id).not.toBe('');
    const args = [resource, 'get', id, ...(FLAGS[resource] ?? [])];
    const json = await pds([...args, '--json']);
    expect(json.code).toBe(0);
    const record = JSON.parse(json.stdout) as { id: unknown; name?: unknown; file_name?: unknown };
    expect(String(record.id)).toBe(id);
    if (flavor === 'deployed') expect(typeof record.id).toBe('number');
    const table = await pds(args, true);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain('[object Object]');
    expectReadable(table.stdout.split('\n\n')[0] ?? '');
    expect(table.stdout).toContain(String(record.name ?? record.file_name));
    expect((await pds([resource, 'get', id, '-q'])).stdout).toBe(`${id}\n`);
  });

  it('contracts ls --include counts the includes of every contract', async () => {
    const rows = tsv((await pds(['contracts', 'ls', '--include', 'royalties,accounting-periods'])).stdout);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.royalties, JSON.stringify(row)).toMatch(/^\d+$/);
      expect(row['accounting-periods'] ?? row.accounting_periods, JSON.stringify(row)).toMatch(/^\d+$/);
    }
    expect(rows.some((row) => row.royalties !== '0')).toBe(true);
  });

  it('contracts get --include draws the rows it found', async () => {
    const id = await firstId('contracts');
    const json = JSON.parse((await pds(['contracts', 'get', id, '--include', 'royalties', '--json'])).stdout);
    const royalties = (json.extractions?.royalties ?? json.royalties) as unknown[];
    expect(royalties.length).toBeGreaterThan(0);
    const table = await pds(['contracts', 'get', id, '--include', 'royalties'], true);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`Royalties (${royalties.length})`);
    expect(table.stdout).not.toContain('[object Object]');
  });

  it('projects ls and get name the projects', async () => {
    const rows = tsv((await pds(['projects', 'ls'])).stdout);
    expect(rows.map((row) => row.id)).toContain(DEMO_PROJECT_ID);
    for (const row of rows) expect(row.name).not.toBe('');
    const project = await pds(['projects', 'get'], true);
    expect(project.code).toBe(0);
    expectReadable(project.stdout);
    expect(project.stdout).toContain(emulator.state.projects.find((p) => p.id === DEMO_PROJECT_ID)!.name);
  });

  it('search names every match (contracts by their name or file) with its type, and a score where the service ranks', async () => {
    const result = await pds(['search', 'nova']);
    expect(result.code).toBe(0);
    const rows = tsv(result.stdout);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.type === 'contract')).toBe(true);
    for (const row of rows) {
      expect(row.name, JSON.stringify(row)).not.toBe('');
      expect(row.type, JSON.stringify(row)).toMatch(/^(recording|composition|contract|entity|artist|writer)$/);
      // The deployed service's entities, artists and writers come in rank order without a rank.
      expect(row.score, JSON.stringify(row)).toMatch(/^(\d+(\.\d+)?)?$/);
    }
    expectReadable(result.stdout);
    expectReadable((await pds(['search', 'nova'], true)).stdout);
  });

  it('statements status of a statement id shows its processing', async () => {
    const id = await firstId('statements');
    const result = await pds(['statements', 'status', id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^state\t(completed|running|failed)$/m);
    expectReadable(result.stdout);
  });

  it('an uploaded contract is followed with contracts status', async () => {
    const pdf = join(mkdtempSync(join(tmpdir(), 'pds-flavor-')), 'deal.pdf');
    writeFileSync(pdf, '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const upload = await pds(['upload', 'contract', pdf, '--json']);
    expect(upload.code).toBe(0);
    const stagingId = JSON.parse(upload.stdout)[0].upload.staging_id;
    expect(typeof stagingId).toBe('number');
    const status = await pds(['contracts', 'status', String(stagingId)]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^staging_id\\t${stagingId}$`, 'm'));
    expectReadable(status.stdout);
  });

  if (flavor === 'deployed') {
    it('tags ls and knowledge search answer, with names', async () => {
      const tags = await pds(['tags', 'ls', '--scope', 'statements']);
      expect(tags.code).toBe(0);
      expectReadable(tags.stdout);
      const knowledge = await pds(['knowledge', 'search', 'royalty']);
      expect(knowledge.code).toBe(0);
      const rows = tsv(knowledge.stdout);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.name).not.toBe('');
      expectReadable(knowledge.stdout);
    });

    it('statements lines prints the CSV from the storage origin, which sees no credential', async () => {
      const id = await firstId('statements');
      emulator.storage.requests.length = 0;
      const result = await pds(['statements', 'lines', id]);
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')[0]).toMatch(/,/);
      expect(result.stdout.trim().split('\n').length).toBeGreaterThan(1);
      expect(emulator.storage.requests.length).toBeGreaterThan(0);
      expect(emulator.storage.requests.every((r) => !r.authorization)).toBe(true);
    });
  } else {
    it('tags ls, knowledge search and statements lines, which SPEC.md lacks, fail clearly', async () => {
      for (const args of [
        ['tags', 'ls'],
        ['knowledge', 'search', 'royalty'],
        ['statements', 'lines', await firstId('statements')],
      ]) {
        const result = await pds(args);
        expect(result.code, args.join(' ')).not.toBe(0);
        expect(result.stderr).toMatch(/^error: /);
        expect(result.stdout).toBe('');
      }
    });
  }
});

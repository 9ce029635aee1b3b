import { beforeAll, describe, expect, it } from 'vitest';
import { SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import { answerOf, sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

const SEARCH_PATH = `/v1/projects/${DEMO_PROJECT}/search`;

const emulator = sharedEmulator({ flavor: 'current' });

interface Hit {
  type: string;
  id: string;
  name: string;
  score: number;
}
/** The emulator's answers to the searches the tests make: its hits, in its order (read before the tests). */
const served: Record<string, Hit[]> = {};
beforeAll(async () => {
  for (const q of ['golden hour', 'harbor', 'nova']) {
    served[q] = await answerOf<Hit[]>(emulator, `${SEARCH_PATH}?q=${encodeURIComponent(q)}`);
  }
});
/** A score as pds prints it: three decimals at most. */
const score = (hit: Hit) => String(Math.round(hit.score * 1000) / 1000);
/** On a terminal every score has three decimals, so that the column aligns on its point. */
const shownScore = (hit: Hit) => (Math.round(hit.score * 1000) / 1000).toFixed(3);
const tsv = (hits: Hit[]) =>
  `TYPE\tID\tNAME\tSCORE\n${hits.map((hit) => `${hit.type}\t${hit.id}\t${hit.name}\t${score(hit)}\n`).join('')}`;

describe('pds search', () => {
  it('prints type, id, name and score as TSV when piped', async () => {
    const result = await runCli(emulator, ['search', 'golden', 'hour']);
    const hits = served['golden hour'] ?? [];
    // Unrounded scores in the answer, so the rounding shows.
    expect(hits.some((hit) => score(hit) !== String(hit.score))).toBe(true);
    expect(result).toEqual({ code: 0, stdout: tsv(hits), stderr: '' });
    // The words are joined into one q, sent once.
    expect(emulator.requests.map((r) => [r.method, r.path, r.query, r.status])).toEqual([
      ['GET', SEARCH_PATH, { q: 'golden hour' }, 200],
    ]);
  });

  it('prints a table and the count on a TTY', async () => {
    const result = await runCli(emulator, ['search', 'harbor'], { tty: true, env: { NO_COLOR: '1' } });
    const hits = served.harbor ?? [];
    // Columns two spaces apart, the score right-aligned to three decimals.
    const width = (header: string, values: string[]) => Math.max(header.length, ...values.map((v) => v.length));
    const [type, id, name, scoreWidth] = [
      width(
        'TYPE',
        hits.map((hit) => hit.type),
      ) + 2,
      width(
        'ID',
        hits.map((hit) => hit.id),
      ) + 2,
      width(
        'NAME',
        hits.map((hit) => hit.name),
      ) + 2,
      width('SCORE', hits.map(shownScore)),
    ];
    const row = (cells: string[]) =>
      `${(cells[0] ?? '').padEnd(type)}${(cells[1] ?? '').padEnd(id)}${(cells[2] ?? '').padEnd(name)}${(cells[3] ?? '').padStart(scoreWidth)}\n`;
    expect(result).toEqual({
      code: 0,
      stdout:
        row(['TYPE', 'ID', 'NAME', 'SCORE']) +
        hits.map((hit) => row([hit.type, hit.id, hit.name, shownScore(hit)])).join(''),
      stderr: `${hits.length} results\n`,
    });
  });

  it('prints the hits as a JSON array with --json, unrounded', async () => {
    const result = await runCli(emulator, ['search', 'nova', '--limit', '2', '--json']);
    expect(result).toEqual({
      code: 0,
      stdout: `${JSON.stringify((served.nova ?? []).slice(0, 2), null, 2)}\n`,
      stderr: '',
    });
  });

  it('prints type:id with -q', async () => {
    const result = await runCli(emulator, ['search', 'harbor', '-q', '--limit', '3']);
    expect(result).toEqual({
      code: 0,
      stdout: (served.harbor ?? [])
        .slice(0, 3)
        .map((hit) => `${hit.type}:${hit.id}\n`)
        .join(''),
      stderr: '',
    });
  });

  it('filters by --type, singular or plural, comma-separated or repeated', async () => {
    const nova = served.nova ?? [];
    const writersAndEntities = nova.filter((hit) => hit.type === 'writer' || hit.type === 'entity');
    // Both types among more hits than the limit keeps, and other types beside them: the filter shows.
    expect(new Set(writersAndEntities.slice(0, 3).map((hit) => hit.type))).toEqual(new Set(['writer', 'entity']));
    expect(nova.length).toBeGreaterThan(writersAndEntities.length);
    const expected = tsv(writersAndEntities.slice(0, 3));
    for (const type of [
      ['writer,entity'],
      ['writers,entities'],
      ['entities, writers'],
      ['writers', '--type', 'entity'],
    ]) {
      const result = await runCli(emulator, ['search', 'nova', '--limit', '3', '--type', ...type]);
      expect(result).toEqual({ code: 0, stdout: expected, stderr: '' });
    }
    const artists = await runCli(emulator, ['search', 'nova', '--type', 'artists']);
    expect(nova.filter((hit) => hit.type === 'artist').length).toBeGreaterThan(1);
    expect(artists).toEqual({ code: 0, stdout: tsv(nova.filter((hit) => hit.type === 'artist')), stderr: '' });
    // The filter is applied to the hits; the query sent is the same.
    expect(emulator.requests.every((r) => r.query.q === 'nova' && Object.keys(r.query).length === 1)).toBe(true);
  });

  it('applies --limit after the type filter', async () => {
    const result = await runCli(emulator, ['search', 'nova', '--type', 'contract', '--limit', '1', '-q']);
    const [contract] = (served.nova ?? []).filter((hit) => hit.type === 'contract');
    expect(contract).toBeDefined();
    expect(result.stdout).toBe(`contract:${contract?.id}\n`);
  });

  it('prints only the header (piped) or "no results found" (TTY) when nothing matches; exit 0', async () => {
    expect(await runCli(emulator, ['search', 'zzzzqqq'])).toEqual({
      code: 0,
      stdout: 'TYPE\tID\tNAME\tSCORE\n',
      stderr: '',
    });
    expect(await runCli(emulator, ['search', 'zzzzqqq'], { tty: true })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'no results found\n',
    });
    expect(await runCli(emulator, ['search', 'zzzzqqq', '--json'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('counts characters as code points: 300 emoji are within 500', async () => {
    const result = await runCli(emulator, ['search', '🎵'.repeat(300)]);
    expect(result.code).toBe(0);
    expect(emulator.requests).toHaveLength(1);
  });
});

describe('pds search: input checked before any request', () => {
  it('exits 2 for an empty query', async () => {
    for (const args of [
      ['search', ''],
      ['search', '  ', ' '],
    ]) {
      expect(await runCli(emulator, args)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: the search query must be 1 to 500 characters (got 0)\n',
      });
    }
    expect(await runCli(emulator, ['search'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: missing required argument 'query'\n  see `pds --help`, or `pds <command> --help`\n",
    });
    expect(emulator.requests).toEqual([]);
  });

  it('exits 2 for a 501-character query, and accepts 500', async () => {
    expect(await runCli(emulator, ['search', 'a'.repeat(501)])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: the search query must be 1 to 500 characters (got 501)\n',
    });
    // Words are joined with one space, which counts.
    expect((await runCli(emulator, ['search', 'a'.repeat(250), 'b'.repeat(250)])).code).toBe(2);
    expect(emulator.requests).toEqual([]);
    expect((await runCli(emulator, ['search', 'a'.repeat(500)])).code).toBe(0);
    expect(emulator.requests).toHaveLength(1);
  });

  it('exits 2 for an unknown --type or a bad --limit', async () => {
    expect(await runCli(emulator, ['search', 'nova', '--type', 'song'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown search type 'song'\n  valid types: contract, entity, artist, writer, recording, composition\n",
    });
    for (const limit of ['0', 'ten', '-1']) {
      const result = await runCli(emulator, ['search', 'nova', '--limit', limit]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`invalid --limit '${limit}'`);
    }
    expect(emulator.requests).toEqual([]);
  });

  it('exits 2 with the hint when no project is selected', async () => {
    expect(await runCli(emulator, ['search', 'nova'], { project: null })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: no project selected\n  pass -p <project-id>, set PDS_PROJECT, or run `pds use <project>`\n',
    });
    expect(emulator.requests).toEqual([]);
  });

  it('searches the project given with -p; 403 outside the token scope is exit 4', async () => {
    const second = SECOND_PROJECT_ID;
    expect((await runCli(emulator, ['search', 'harbor', '-p', second])).code).toBe(0);
    expect(emulator.requests[0]!.path).toBe(`/v1/projects/${second}/search`);
    const forbidden = await runCli(emulator, ['search', 'harbor', '-p', second], { token: 'demo-project-token' });
    expect(forbidden).toEqual({ code: 4, stdout: '', stderr: 'error: token does not have access to this project\n' });
  });
});

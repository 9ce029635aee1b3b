// The same commands print the same thing whether the service answers in the spec's forms or in the
// drifted ones (every list paged; search keyed by type, with ranks): the tolerance pds owes both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { answerOf, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

interface Hit {
  type: string;
  id: string;
  name: string;
}

let spec: Emulator;
let drifted: Emulator;
/** How many artists the project holds, and the first artist the spec form's search for 'nova' answers. */
let artistCount: number;
let novaArtist: Hit;
beforeAll(async () => {
  [spec, drifted] = await Promise.all([
    testEmulator({ flavor: 'current' }),
    testEmulator({ flavor: 'current', drift: true }),
  ]);
  // The artists the spec form lists, page after page (it says no total).
  artistCount = 0;
  for (let page = 1; ; page++) {
    const artists = await answerOf<unknown[]>(spec, `/v1/artists?projectId=${DEMO_PROJECT}&page=${page}&perPage=50`);
    artistCount += artists.length;
    if (artists.length < 50) break;
  }
  // More than one page of five, so the footer and --all have pages to count.
  expect(artistCount).toBeGreaterThan(5);
  const hits = await answerOf<Hit[]>(spec, `/v1/projects/${DEMO_PROJECT}/search?q=nova`);
  novaArtist = hits.find((hit) => hit.type === 'artist') as Hit;
  expect(novaArtist?.name.toLowerCase()).toContain('nova');
});
afterAll(() => Promise.all([spec.close(), drifted.close()]));

const both = async (args: string[], tty = false) => {
  const options = { tty, env: { NO_COLOR: '1' } };
  const [a, b] = await Promise.all([runCli(spec, args, options), runCli(drifted, args, options)]);
  return { spec: a, drifted: b };
};

describe('a service that drifted from the spec', () => {
  it('really answers in the drifted forms', async () => {
    const artists = await fetch(`${drifted.url}/v1/artists?projectId=${DEMO_PROJECT}&perPage=2`, {
      headers: { authorization: 'Bearer demo-org-token' },
    }).then((r) => r.json() as Promise<{ data: unknown }>);
    expect(artists.data).toMatchObject({ items: [{}, {}], total_count: artistCount, page: 1, per_page: 2 });
    const search = await fetch(`${drifted.url}/v1/projects/${DEMO_PROJECT}/search?q=nova`, {
      headers: { authorization: 'Bearer demo-org-token' },
    }).then((r) => r.json() as Promise<{ data: Record<string, unknown[]> }>);
    expect(Object.keys(search.data).sort()).toEqual([
      'artists',
      'compositions',
      'contracts',
      'entities',
      'recordings',
      'writers',
    ]);
    expect(search.data.artists?.[0]).toMatchObject({
      id: novaArtist.id,
      name: novaArtist.name,
      matched_keywords: ['nova'],
      rank: expect.any(Number),
    });
  });

  it.each([
    ['artists', 'ls'],
    ['entities', 'ls', '--merged'],
    ['contracts', 'ls', '--include', 'royalties'],
    ['writers', 'ls', '--page', '2'],
    ['projects', 'ls'],
  ])('%s %s prints the same records, piped and as JSON', async (...args) => {
    const piped = await both(args);
    expect(piped.drifted).toEqual(piped.spec);
    expect(piped.spec.code).toBe(0);
    const json = await both([...args, '--json']);
    expect(json.drifted).toEqual(json.spec);
    expect(Array.isArray(JSON.parse(json.spec.stdout))).toBe(true);
  });

  it('--all follows every page of a drifted plain-array list', async () => {
    const result = await both(['artists', 'ls', '--all', '-q']);
    expect(result.drifted).toEqual(result.spec);
    expect(result.spec.stdout.trim().split('\n')).toHaveLength(artistCount);
  });

  it('on a TTY the drifted list even gains the total in its footer', async () => {
    const result = await both(['artists', 'ls', '--per-page', '5'], true);
    expect(result.drifted.stdout).toBe(result.spec.stdout);
    expect(result.spec.stderr).toBe('page 1 (more with --page 2 or --all)\n');
    expect(result.drifted.stderr).toBe(`page 1 of ${Math.ceil(artistCount / 5)} (${artistCount} total)\n`);
  });

  it('search prints type, id, name and score (the rank) for either form', async () => {
    const result = await both(['search', 'nova']);
    expect(result.spec.code).toBe(0);
    expect(result.drifted.code).toBe(0);
    const lines = (text: string) => text.trim().split('\n');
    expect(lines(result.drifted.stdout)[0]).toBe('TYPE\tID\tNAME\tSCORE');
    // The drifted form loses the service's order across types; the hits and scores are the same.
    expect(lines(result.drifted.stdout).sort()).toEqual(lines(result.spec.stdout).sort());
    const json = JSON.parse((await runCli(drifted, ['search', 'nova', '--json'])).stdout) as Record<string, unknown>[];
    // Every field of a match is kept in --json as the service sent it (its rank too); it gains its group's type.
    expect(json[0]).toMatchObject({
      type: expect.any(String),
      id: expect.any(String),
      name: expect.any(String),
      rank: expect.any(Number),
      matched_keywords: ['nova'],
    });
    expect(json[0]).not.toHaveProperty('score');
  });

  it('search --type and --limit work on the drifted form too', async () => {
    const result = await both(['search', 'nova', '--type', 'artist', '--limit', '2']);
    expect(result.drifted).toEqual(result.spec);
  });
});

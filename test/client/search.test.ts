import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

const SEARCH_PATH = `/v1/projects/${DEMO_PROJECT}/search`;

const emulator = sharedEmulator({ flavor: 'current' });

describe('pds search', () => {
  it('prints type, id, name and score as TSV when piped', async () => {
    const result = await runCli(emulator, ['search', 'golden', 'hour']);
    expect(result).toEqual({
      code: 0,
      stdout:
        'TYPE\tID\tNAME\tSCORE\n' +
        'recording\trec_00001\tGolden Hour\t1\n' +
        'composition\tcom_00001\tGolden Hour\t1\n' +
        'recording\trec_00097\tGolden Hour (Live)\t0.934\n' +
        'recording\trec_00081\tHour Static\t0.4\n' +
        'composition\tcom_00081\tHour Static\t0.4\n' +
        'recording\trec_00013\tDaylight Hour\t0.394\n' +
        'composition\tcom_00013\tDaylight Hour\t0.394\n' +
        'recording\trec_00109\tDaylight Hour (Live)\t0.384\n' +
        'artist\tart_00096\tThe Golden Monarchs\t0.383\n',
      stderr: '',
    });
    // The words are joined into one q, sent once.
    expect(emulator.requests.map((r) => [r.method, r.path, r.query, r.status])).toEqual([
      ['GET', SEARCH_PATH, { q: 'golden hour' }, 200],
    ]);
  });

  it('prints a table and the count on a TTY', async () => {
    const result = await runCli(emulator, ['search', 'harbor'], { tty: true, env: { NO_COLOR: '1' } });
    expect(result).toEqual({
      code: 0,
      stdout:
        'TYPE         ID         NAME                SCORE\n' +
        'recording    rec_00080  Harbor Fever        0.925\n' +
        'composition  com_00080  Harbor Fever        0.925\n' +
        'recording    rec_00062  Faded Harbor         0.76\n' +
        'composition  com_00062  Faded Harbor         0.76\n' +
        'recording    rec_00050  Burning the Harbor  0.747\n' +
        'composition  com_00050  Burning the Harbor  0.747\n' +
        'artist       art_00003  The Velvet Harbors   0.56\n',
      stderr: '7 results\n',
    });
  });

  it('prints the hits as a JSON array with --json, unrounded', async () => {
    const result = await runCli(emulator, ['search', 'nova', '--limit', '2', '--json']);
    expect(result).toEqual({
      code: 0,
      stdout: `${JSON.stringify(
        [
          { type: 'writer', id: 'wri_00058', name: 'Nova Lund', score: 0.9222 },
          { type: 'artist', id: 'art_00001', name: 'Nova Reyes', score: 0.92 },
        ],
        null,
        2,
      )}\n`,
      stderr: '',
    });
  });

  it('prints type:id with -q', async () => {
    const result = await runCli(emulator, ['search', 'harbor', '-q', '--limit', '3']);
    expect(result).toEqual({
      code: 0,
      stdout: 'recording:rec_00080\ncomposition:com_00080\nrecording:rec_00062\n',
      stderr: '',
    });
  });

  it('filters by --type, singular or plural, comma-separated or repeated', async () => {
    const expected =
      'TYPE\tID\tNAME\tSCORE\n' +
      'writer\twri_00058\tNova Lund\t0.922\n' +
      'writer\twri_00002\tNova Mercer\t0.918\n' +
      'entity\tent_00007\tNova Reyes Music LLC\t0.91\n';
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
    expect(artists).toEqual({
      code: 0,
      stdout:
        'TYPE\tID\tNAME\tSCORE\n' +
        'artist\tart_00001\tNova Reyes\t0.92\n' +
        'artist\tart_00087\tNova Teague\t0.918\n' +
        'artist\tart_00065\tElias Novak\t0.562\n' +
        'artist\tart_00037\tKwame Novak\t0.562\n' +
        'artist\tart_00007\tBastian Novak\t0.559\n',
      stderr: '',
    });
    // The filter is applied to the hits; the query sent is the same.
    expect(emulator.requests.every((r) => r.query.q === 'nova' && Object.keys(r.query).length === 1)).toBe(true);
  });

  it('applies --limit after the type filter', async () => {
    const result = await runCli(emulator, ['search', 'nova', '--type', 'contract', '--limit', '1', '-q']);
    expect(result.stdout).toBe('contract:20001\n');
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
    const second = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
    expect((await runCli(emulator, ['search', 'harbor', '-p', second])).code).toBe(0);
    expect(emulator.requests[0]!.path).toBe(`/v1/projects/${second}/search`);
    const forbidden = await runCli(emulator, ['search', 'harbor', '-p', second], { token: 'demo-project-token' });
    expect(forbidden).toEqual({ code: 4, stdout: '', stderr: 'error: token does not have access to this project\n' });
  });
});

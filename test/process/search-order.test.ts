// Search keeps the service's order, through the built CLI and `pds mcp`, against a replay of the
// deployed service's answers whose search is ranked by the service, not by name. Uses the bundle:
// `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { connectMcp, type Connected, type ToolResult } from '../helpers/mcp.js';
import { runPds, signedInEnv } from '../helpers/process.js';
import { example, startReplayServer, type ReplayServer } from '../helpers/replay-server.js';

const PROJECT: string = example('projects.get').data.id;

/**
 * A search answer in the deployed service's grouped form, ranked by the service and not by name:
 * the exact match first among artists (which carry no rank), recordings sent out of rank order.
 */
const RANKED = {
  recordings: [
    { id: 7702, name: 'Nova Lights', rank: 0.41 },
    { id: 7701, name: 'Reyes Road', rank: 0.77 },
  ],
  compositions: [],
  contracts: [{ id: 61001, matched_file_name: 'reyes-agreement.pdf', matched_keywords: 'reyes', rank: 0.3 }],
  entities: [],
  artists: [
    { id: 3001, name: 'Nova Reyes' },
    { id: 3002, name: 'Bastian Novak' },
    { id: 3003, name: 'Elias Novak' },
  ],
  writers: [],
};

let replay: ReplayServer;
let mcp: Connected;
const env = () => signedInEnv(replay.url, { PDS_TOKEN: 'replay-token', PDS_PROJECT: PROJECT });
beforeAll(async () => {
  replay = await startReplayServer();
  replay.alter = (path, data) => (path.endsWith('/search') ? RANKED : data);
  mcp = await connectMcp({ url: replay.url } as Emulator, [], {
    env: { PDS_PROJECT: PROJECT, PDS_TOKEN: 'replay-token' },
  });
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await replay?.close();
});

const names = (stdout: string): string[] =>
  (JSON.parse(stdout) as Record<string, unknown>[]).map((hit) => String(hit.name ?? hit.matched_file_name));

describe('search keeps the service order', () => {
  it('--type artist, with and without --limit: the service ranked Nova Reyes first', async () => {
    const limited = await runPds(['search', 'nova', 'reyes', '--type', 'artist', '--limit', '2', '--json'], {
      env: env(),
    });
    expect(limited.code, limited.stderr).toBe(0);
    expect(names(limited.stdout)).toEqual(['Nova Reyes', 'Bastian Novak']);
    const all = await runPds(['search', 'nova', 'reyes', '--type', 'artist', '--format', 'tsv'], { env: env() });
    expect(all.stdout).toBe(
      'TYPE\tID\tNAME\tSCORE\nartist\t3001\tNova Reyes\t\nartist\t3002\tBastian Novak\t\nartist\t3003\tElias Novak\t\n',
    );
  });

  it('across types, the order the README states: contracts, entities, artists, writers, recordings, compositions; a ranked group best first', async () => {
    const all = await runPds(['search', 'nova', 'reyes', '--json'], { env: env() });
    expect(names(all.stdout)).toEqual([
      'reyes-agreement.pdf',
      'Nova Reyes',
      'Bastian Novak',
      'Elias Novak',
      'Reyes Road',
      'Nova Lights',
    ]);
    const top = await runPds(['search', 'nova', 'reyes', '--limit', '2', '--json'], { env: env() });
    expect(names(top.stdout)).toEqual(['reyes-agreement.pdf', 'Nova Reyes']);
  });

  it('the MCP search tool gives the same order, with and without limit', async () => {
    const call = async (args: Record<string, unknown>) => {
      const result = (await mcp.client.callTool({ name: 'search', arguments: args })) as ToolResult;
      expect(result.isError).not.toBe(true);
      return ((result.structuredContent?.items ?? []) as { name: string }[]).map((hit) => hit.name);
    };
    expect(await call({ query: 'nova reyes', type: 'artist', limit: 2 })).toEqual(['Nova Reyes', 'Bastian Novak']);
    expect(await call({ query: 'nova reyes', type: ['artist'] })).toEqual([
      'Nova Reyes',
      'Bastian Novak',
      'Elias Novak',
    ]);
  });
});

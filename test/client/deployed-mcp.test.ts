// The built `pds mcp` against the replay of the deployed service's examples (test/fixtures/deployed):
// every read tool answers with what the service sent, numeric ids and names as objects included,
// and its structuredContent passes the tool's own output schema (the SDK's client checks it and
// throws when it does not). Tools taking an id take it as a number or as text. Issue 30 §1. Uses
// the bundle: `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { connectMcp, type Connected, type ToolResult } from '../helpers/mcp.js';
import { example, startReplayServer, STATEMENT_LINES_CSV, type ReplayServer } from '../helpers/replay-server.js';

const PROJECT: string = example('projects.get').data.id;
let replay: ReplayServer;
let mcp: Connected;
beforeAll(async () => {
  replay = await startReplayServer();
  // connectMcp reads only the server's URL.
  mcp = await connectMcp({ url: replay.url } as Emulator, [], {
    env: { PDS_PROJECT: PROJECT, PDS_TOKEN: 'replay-token' },
  });
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await replay?.close();
});

async function structured(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, `${name}: ${result.content.map((c) => c.text).join('\n')}`).not.toBe(true);
  return result.structuredContent;
}
const itemsOf = (name: string): any[] => {
  const data = example(name).data;
  return Array.isArray(data) ? data : data.items;
};
const { detailed: _detailed, detailed_error: _error, ...statement72001 } = example('statements.get.detailed').data;

describe('pds mcp against the deployed forms', () => {
  it.each([
    ['list_projects', {}, 'projects.list'],
    ['list_contracts', {}, 'contracts.list'],
    ['list_contracts', { include: ['royalties', 'accounting-periods'] }, 'contracts.list.includes'],
    ['list_statements', {}, 'statements.list'],
    ['list_recordings', {}, 'recordings.list'],
    ['list_compositions', {}, 'compositions.list'],
    ['list_artists', { merged: true }, 'artists.list.merged'],
    ['list_relations', {}, 'relations.list'],
  ])('%s %j: the items the service sent', async (tool, args, fixture) => {
    expect((await structured(tool, args)).items).toEqual(itemsOf(fixture));
  });

  it.each([
    ['get_project', {}, example('projects.get').data],
    ['get_contract', { id: 61001 }, itemsOf('contracts.list')[0]],
    [
      'get_contract',
      { id: '61001', include: ['royalties', 'splits'] },
      {
        ...itemsOf('contracts.list')[0],
        extractions: {
          royalties: example('contracts.get.all-includes.score').data.extractions.royalties,
          splits: example('contracts.get.all-includes.score').data.extractions.splits,
        },
      },
    ],
    ['get_statement', { id: 72001 }, statement72001],
    ['get_recording', { id: 7701, products: true }, example('recordings.get.products').data],
    ['get_writer', { id: 3501 }, example('writers.get').data],
    ['get_entity', { id: '9301' }, example('entities.get').data],
  ])('%s %j: the record the service sent', async (tool, args, expected) => {
    expect(await structured(tool, args)).toEqual(expected);
  });

  it('statement_status and contract_status take numeric ids and keep the processes as sent', async () => {
    expect(await structured('statement_status', { id: 53011 })).toMatchObject(example('statements.processes').data);
    expect(await structured('contract_status', { stagingId: 53021 })).toMatchObject(
      example('contracts.processes').data,
    );
  });

  it("statement_lines reads the CSV from the signed link without any credential; an unprocessed statement is the service's detailed_error", async () => {
    replay.storage.requests.length = 0;
    expect(await structured('statement_lines', { id: 72001 })).toEqual({
      id: '72001',
      csv: STATEMENT_LINES_CSV,
      next_cursor: null,
    });
    expect(replay.storage.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/exports/72001.csv', undefined],
    ]);
    const unprocessed = (await mcp.client.callTool({
      name: 'statement_lines',
      arguments: { id: 72002 },
    })) as ToolResult;
    expect(unprocessed.isError).toBe(true);
    expect(unprocessed.content.map((c) => c.text).join('\n')).toContain('Statement extraction is not completed yet');
    expect(replay.storage.requests).toHaveLength(1);
  });

  it('search keeps every field of each match, contracts by matched_file_name', async () => {
    const { items } = await structured('search', { query: 'glass' });
    const data = example('projects.search').data as Record<string, object[]>;
    const matches = Object.entries(data).flatMap(([group, list]) =>
      list.map((match) => ({ ...match, type: group.replace(/s$/, '') })),
    );
    expect(items).toHaveLength(matches.length);
    for (const match of matches) expect(items).toContainEqual(expect.objectContaining(match));
  });

  it('knowledge_search lists the nodes as sent; its kind filter is applied by pds', async () => {
    expect((await structured('knowledge_search', { query: 'approval' })).items).toEqual(
      example('knowledge.search').data.results,
    );
    expect((await structured('knowledge_search', { query: 'approval', kind: ['person'] })).items).toEqual([]);
    for (const request of replay.requests.filter((r) => r.path.endsWith('/knowledge/search')))
      expect(request.query).not.toHaveProperty('kind');
  });

  it("statement_lines reads a processed statement's CSV from its signed link, sending no credential there", async () => {
    const { STATEMENT_LINES_CSV } = await import('../helpers/replay-server.js');
    replay.storage.requests.length = 0;
    expect(await structured('statement_lines', { id: 72001 })).toEqual({
      id: '72001',
      csv: STATEMENT_LINES_CSV,
      next_cursor: null,
    });
    expect(replay.storage.requests).toHaveLength(1);
    expect(replay.storage.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("statement_lines of a statement not processed yet is an error with the service's reason", async () => {
    const result = (await mcp.client.callTool({ name: 'statement_lines', arguments: { id: 72002 } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain(example('statements.get.detailed.not-processed').data.detailed_error);
  });
});

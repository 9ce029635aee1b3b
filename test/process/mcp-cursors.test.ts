// Every MCP tool that ends a call with a cursor continues from that cursor alone, to the last page:
// the agent passes back only what it was given (issue 37). Each list is followed through the built
// `pds mcp` and compared with what the CLI lists of the same records with --all.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { connectMcp, cursorOf, type Connected, type ToolResult } from '../helpers/mcp.js';
import { runPds, signedInEnv } from '../helpers/process.js';
import { example, startReplayServer, type ReplayServer } from '../helpers/replay-server.js';

const emulator = sharedEmulator({ flavor: 'current' });

interface Page {
  text: string;
  structured: Record<string, unknown>;
}

/** Calls `tool` with `args`, then with each cursor alone, until a call ends with none. */
async function follow(client: Client, tool: string, args: Record<string, unknown>): Promise<Page[]> {
  const pages: Page[] = [];
  let next: Record<string, unknown> | undefined = args;
  while (next) {
    const result = (await client.callTool({ name: tool, arguments: next })) as ToolResult;
    const text = result.content.map((part) => part.text ?? '').join('\n');
    expect(result.isError, `${tool} ${JSON.stringify(next)}: ${text}`).not.toBe(true);
    const structured = result.structuredContent ?? {};
    pages.push({ text, structured });
    const cursor = structured.next_cursor;
    expect(typeof cursor === 'string' ? cursorOf(text) : null).toBe(cursor ?? null);
    next = typeof cursor === 'string' ? { cursor } : undefined;
    expect(pages.length, `${tool} pages without end`).toBeLessThan(200);
  }
  return pages;
}

const idsOf = (pages: Page[], key = 'items'): string[] =>
  pages.flatMap((page) => (page.structured[key] as { id: unknown }[]).map((item) => String(item.id)));

async function cliIds(args: string[]): Promise<string[]> {
  const run = await runPds([...args, '--json'], { env: signedInEnv(emulator.url) });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { id: unknown }[]).map((record) => String(record.id));
}

describe('pds mcp: every cursor continues alone, to the end', () => {
  let seven: Connected;
  let one: Connected;
  beforeAll(async () => {
    [seven, one] = await Promise.all([
      connectMcp(emulator, ['--max-results', '7']),
      connectMcp(emulator, ['--max-results', '1']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([seven?.close(), one?.close()]);
  });

  it.each(['contracts', 'statements', 'entities', 'relations', 'artists', 'writers', 'recordings', 'compositions'])(
    'list_%s: every page, each record once, as the CLI lists them',
    async (resource) => {
      const pages = await follow(seven.client, `list_${resource}`, {});
      expect(pages.length).toBeGreaterThan(2);
      expect(idsOf(pages)).toEqual(await cliIds([resource, 'ls', '--all']));
    },
  );

  it('search: the query is carried by the cursor; as many results as the whole answer holds, in the order the CLI prints', async () => {
    const pages = await follow(seven.client, 'search', { query: 'a' });
    expect(pages.length).toBeGreaterThan(2);
    const whole = (await one.client.callTool({ name: 'search', arguments: { query: 'a', limit: 1000 } })) as ToolResult;
    expect(pages.flatMap((page) => page.structured.items as unknown[])).toHaveLength(
      (whole.structuredContent?.total as number) ?? -1,
    );
    expect(idsOf(pages)).toEqual(await cliIds(['search', 'a']));
    const searches = emulator.requests.filter((request) => request.path.endsWith('/search'));
    expect(new Set(searches.map((request) => request.query.q))).toEqual(new Set(['a']));
  });

  it('list_projects and sandbox_read (a directory) page one entry at a time', async () => {
    const projects = await follow(one.client, 'list_projects', {});
    expect(projects.length).toBe(2);
    expect(idsOf(projects)).toEqual(await cliIds(['projects', 'ls']));
    const root = await follow(one.client, 'sandbox_read', { path: '/' });
    expect(root.length).toBeGreaterThan(5);
    const entries = root.flatMap((page) => page.structured.entries as string[]);
    expect(entries).toContain('AGENTS.md');
    expect(new Set(entries).size).toBe(entries.length);
  });

  it('a tool that needs an argument still says so when neither it nor a cursor is given, sending nothing', async () => {
    emulator.requests.length = 0;
    const result = (await seven.client.callTool({ name: 'statement_lines', arguments: {} })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      'error: id: required, unless a cursor of a previous statement_lines call is passed alone',
    );
    const search = (await seven.client.callTool({ name: 'search', arguments: {} })) as ToolResult;
    expect(search.content[0]?.text).toBe(
      'error: query: required, unless a cursor of a previous search call is passed alone',
    );
    expect(emulator.requests).toEqual([]);
  });
});

describe('pds mcp: statement_lines pages a long export with its cursor alone', () => {
  let replay: ReplayServer;
  let mcp: Connected;
  beforeAll(async () => {
    replay = await startReplayServer();
    mcp = await connectMcp({ url: replay.url } as Emulator, [], {
      env: { PDS_PROJECT: example('projects.get').data.id, PDS_TOKEN: 'replay-token' },
    });
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
    await replay?.close();
  });

  it('three parts of a 120,000-character export, joined back to the export', async () => {
    const row = (n: number) => `GBQAV26${String(n).padStart(5, '0')},GB,${n},${(n / 100).toFixed(2)}`;
    const rows = Array.from({ length: 4000 }, (_, n) => row(n));
    replay.linesCsv = `isrc,territory,streams,licensor_revenue\n${rows.join('\n')}\n`;
    expect(replay.linesCsv.length).toBeGreaterThan(100_000);
    const pages = await follow(mcp.client, 'statement_lines', { id: 72001 });
    expect(pages).toHaveLength(3);
    expect(pages.map((page) => page.structured.csv as string).join('')).toBe(replay.linesCsv);
    expect(pages.at(-1)?.text).toMatch(/\nend of the lines$/);
  });
});

// The deployed service's tools of `pds mcp` (knowledge search, tags, staging retry, statement edits,
// upload context), made from the CLI verbs' definitions: driven by the MCP SDK's client over stdio
// against the built CLI and an emulator on port 0, and compared with the CLI verbs themselves.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { runPds } from '../helpers/process.js';
import { between, callTool as call, connectMcp, data, mcpEnv, type Connected } from '../helpers/mcp.js';

const emulator = sharedEmulator({ flavor: 'current', processingMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'pds-mcp-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CSV = 'isrc,units,amount\nUSRC17607839,120,3.60\n';
writeFileSync(join(dir, 'sales.csv'), CSV);

const sent = () => emulator.requests.map((r) => `${r.method} ${r.path}`);
/** structuredContent, which the SDK's client has checked against the tool's outputSchema. */
async function structured(client: Connected['client'], name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

let writer: Connected;
beforeAll(async () => {
  writer = await connectMcp(emulator, ['--allow-writes'], { cwd: dir });
});
afterAll(async () => {
  await writer?.close();
});

describe('tools made from the CLI verbs', () => {
  // Their checks are the verbs' own; the messages name the tool's inputs, not the CLI's flags.
  it('take the verb’s arguments and flags, described by the flags’ own help', async () => {
    const { tools } = await writer.client.listTools();
    const tool = (name: string) => tools.find((t) => t.name === name);
    const tag = tool('tag_statement');
    expect(Object.keys(tag?.inputSchema.properties ?? {})).toEqual([
      'id',
      'tags',
      'add',
      'remove',
      'clear',
      'projectId',
    ]);
    expect(tag?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    const help = (await runPds(['statements', 'tag', '--help'])).stdout;
    for (const name of ['add', 'remove', 'clear']) {
      const description =
        (tag?.inputSchema.properties?.[name] as { description?: string } | undefined)?.description ?? '';
      expect(description.length, name).toBeGreaterThan(10);
      expect(help.replace(/\s+/g, ' '), name).toContain(description);
    }
    expect(Object.keys(tool('update_statement')?.inputSchema.properties ?? {})).toEqual([
      'id',
      'accountingPeriod',
      'targetPeriod',
      'currencyRoyalty',
      'currencyTransaction',
      'payee',
      'payor',
      'clearPayee',
      'clearPayor',
      'clearAccountingPeriod',
      'clearTargetPeriod',
      'clearCurrencyRoyalty',
      'clearCurrencyTransaction',
      'projectId',
    ]);
    expect(Object.keys(tool('knowledge_search')?.inputSchema.properties ?? {})).toEqual([
      'query',
      'kind',
      'limit',
      'projectId',
    ]);
    expect(Object.keys(tool('retry_contract')?.inputSchema.properties ?? {})).toEqual(['stagingId', 'projectId']);
    expect(Object.keys(tool('upload_statement')?.inputSchema.properties ?? {})).toEqual([
      'path',
      'accountingPeriod',
      'targetPeriod',
      'currencyRoyalty',
      'currencyTransaction',
      'payee',
      'payor',
      'scenario',
      'targetFamily',
      'tag',
      'folder',
      'projectId',
    ]);
    expect(Object.keys(tool('upload_contract')?.inputSchema.properties ?? {})).toEqual([
      'path',
      'extract',
      'tag',
      'folder',
      'projectId',
    ]);
  });

  it('knowledge_search returns what `pds knowledge search --json` prints, inside the markers', async () => {
    const cli = await runPds(['knowledge', 'search', 'royalty', '--limit', '3', '--json'], { env: mcpEnv(emulator) });
    expect(cli.code).toBe(0);
    const printed = JSON.parse(cli.stdout) as unknown[];
    expect(printed.length).toBeGreaterThan(0);
    const result = await call(writer.client, 'knowledge_search', { query: 'royalty', limit: 3 });
    expect(data(result.text)).toEqual(printed);
    expect(await structured(writer.client, 'knowledge_search', { query: ['royalty'], limit: '3' })).toEqual({
      items: printed,
      next_cursor: null,
    });
    const bad = await call(writer.client, 'knowledge_search', { query: 'royalty', kind: 'robot' });
    expect(bad).toEqual({
      isError: true,
      text: "error: unknown kind 'robot'\n  valid kinds: organization, team, person, process, decision, policy, principle, topic, question",
    });
  });

  it('tag_statement sets, adds and clears; list_tags lists; a conflicting call sends nothing', async () => {
    expect(await structured(writer.client, 'tag_statement', { id: 40001, tags: ['q1', 'spotify'] })).toEqual({
      resource_id: 40001,
      scope: 'statements',
      tags: 'q1,spotify',
    });
    emulator.requests.length = 0;
    expect((await structured(writer.client, 'tag_statement', { id: '40001', tags: 'review', add: true })).tags).toBe(
      'q1,spotify,review',
    );
    expect(sent()).toEqual(['GET /v1/statements/40001', 'PUT /v1/tags']);
    const tags = await structured(writer.client, 'list_tags', { scope: 'statements', search: 'spot' });
    expect(tags).toEqual({
      items: [expect.objectContaining({ tag: 'spotify', scope: 'statements', usage_count: 1 })],
      next_cursor: null,
    });
    emulator.requests.length = 0;
    const both = await call(writer.client, 'tag_statement', { id: 40001, tags: ['x'], add: true, remove: true });
    expect(both).toEqual({ isError: true, text: 'error: add, remove and clear exclude each other' });
    const unknownScope = await call(writer.client, 'list_tags', { scope: 'artists' });
    expect(unknownScope.isError).toBe(true);
    expect(sent()).toEqual([]);
    expect((await structured(writer.client, 'tag_statement', { id: 40001, clear: true })).tags).toBe('');
  });

  it('update_statement sends the fields normalized; bad values are refused with nothing sent', async () => {
    const updated = await structured(writer.client, 'update_statement', {
      id: 40002,
      payee: 'Nova',
      accountingPeriod: '2026-q3',
      currencyRoyalty: 'eur',
      clearPayor: true,
    });
    // The service's currency_tx and currency, under the names statements get gives them.
    expect(updated).toMatchObject({
      id: 40002,
      payee: 'Nova',
      payor: null,
      accounting_period: '2026Q3',
      currency_royalty: 'EUR',
    });
    emulator.requests.length = 0;
    const bad = await call(writer.client, 'update_statement', {
      id: 40002,
      accountingPeriod: '2026Q5',
      currencyTransaction: 'dollars',
    });
    expect(bad).toEqual({
      isError: true,
      text: "error: 2 problems; nothing was sent\n  invalid accountingPeriod '2026Q5': expected a period such as 2026Q1\n  invalid currencyTransaction 'dollars': expected an ISO 4217 code such as USD",
    });
    expect(sent()).toEqual([]);
  });

  it('upload_statement takes a CSV with its context, as `pds upload statement` does; a bad period sends nothing', async () => {
    emulator.requests.length = 0;
    const bad = await call(writer.client, 'upload_statement', { path: 'sales.csv', accountingPeriod: '2026Q9' });
    expect(bad).toEqual({
      isError: true,
      text: "error: invalid accountingPeriod '2026Q9': expected a period such as 2026Y, 2026H1, 2026Q3 or 2026M11",
    });
    expect(sent()).toEqual([]);
    const uploaded = await structured(writer.client, 'upload_statement', {
      path: 'sales.csv',
      accountingPeriod: '2026-q1',
      currencyRoyalty: 'eur',
      payee: 'Nova Records',
      tag: ['q1', 'mcp'],
    });
    expect(uploaded).toMatchObject({ status: 'queued', context_applied: true });
    const listed = await runPds(['statements', 'ls', '--staging-ids', String(uploaded.staging_id), '--json'], {
      env: mcpEnv(emulator),
    });
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        file_name: 'sales.csv',
        file_type: 'text/csv',
        accounting_period: '2026Q1',
        currency_royalty: 'EUR',
        payee: 'Nova Records',
        tags: ['q1', 'mcp'],
      }),
    ]);
  });
});

describe('retry_statement', () => {
  it('queues a paused upload again; while the service keeps it paused, says so inside the markers', async () => {
    const paused = await testEmulator({ flavor: 'current', processingMs: 20, pauseUploads: true });
    const server = await connectMcp(paused, ['--allow-writes', '--toolsets', 'uploads'], { cwd: dir });
    try {
      // Listed first: the client then checks each structuredContent against the tool's outputSchema.
      await server.client.listTools();
      const uploaded = await structured(server.client, 'upload_statement', { path: 'sales.csv' });
      expect(uploaded.status).toBe('paused');
      const still = await call(server.client, 'retry_statement', { stagingId: uploaded.staging_id });
      expect(still.isError).toBe(false);
      expect(data<{ status: string }>(still.text).status).toBe('paused');
      // The note quotes the service's numbers: it comes in markers of its own, after the data's.
      const [, notes] = still.text.split(/<\/untrusted-data-[0-9a-f-]{36}>\n/);
      expect(between(notes ?? '').inside).toBe(
        `warning: the service keeps staging ${uploaded.staging_id} paused (120 of 100); try again later with \`pds statements retry ${uploaded.staging_id}\``,
      );
      paused.options.pauseUploads = false;
      expect(
        await structured(server.client, 'retry_statement', { stagingId: String(uploaded.staging_id) }),
      ).toMatchObject({
        staging_id: uploaded.staging_id,
        status: 'queued',
      });
      const notANumber = await call(server.client, 'retry_statement', { stagingId: 'abc' });
      expect(notANumber).toEqual({ isError: true, text: "error: invalid staging id 'abc': expected a whole number" });
      expect(paused.requests.filter((r) => r.path.endsWith('/retry'))).toHaveLength(2);
    } finally {
      await server.close();
      await paused.close();
    }
  });
});

describe('the knowledge and tags toolsets', () => {
  it('knowledge is read-only; tags writes and needs --allow-writes', async () => {
    const knowledge = await connectMcp(emulator, ['--toolsets', 'knowledge']);
    try {
      expect((await knowledge.client.listTools()).tools.map((t) => t.name)).toEqual(['knowledge_search']);
    } finally {
      await knowledge.close();
    }
    expect(await runPds(['mcp', '--toolsets', 'tags'], { env: mcpEnv(emulator) })).toMatchObject({
      code: 2,
      stderr: 'error: --toolsets: tags writes: add --allow-writes to offer it\n',
    });
    const tags = await connectMcp(emulator, ['--allow-writes', '--toolsets', 'tags']);
    try {
      expect((await tags.client.listTools()).tools.map((t) => t.name)).toEqual([
        'list_tags',
        'tag_contract',
        'tag_statement',
      ]);
    } finally {
      await tags.close();
    }
  });
});

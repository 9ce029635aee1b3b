// The MCP tools of what a project earned (statements_totals, statements_lines_rollup,
// statements_check) over the built `pds mcp`, against the deployed emulator: the same groups and
// findings as the CLI's --json, in pages of --max-results whose cursor continues alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISAGREEING, DUPLICATE_OF, isProcessed } from '../../src/emulator/deployed/statements.js';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { connectMcp, type Connected, type ToolResult } from '../helpers/mcp.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
let mcp: Connected;
beforeAll(async () => {
  mcp = await connectMcp(emulator, ['--max-results', '5'], {
    env: { PDS_PROJECT: DEMO_PROJECT_ID },
  });
});
afterAll(() => mcp.close());

/** A tool's structuredContent: its page of records, and the cursor and counts beside it. */
type Page = Record<string, unknown> & { next_cursor: string | null } & Record<'items', unknown[]>;

async function structured(name: string, args: Record<string, unknown>): Promise<Page> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  return result.structuredContent as Page;
}

/** Every page of a tool's answer, following each cursor alone. */
async function allPages(name: string, args: Record<string, unknown>, key: 'items'): Promise<unknown[]> {
  const first = await structured(name, args);
  const items = [...first[key]];
  let cursor = first.next_cursor;
  while (cursor !== null) {
    const next = await structured(name, { cursor });
    expect(next[key].length).toBeLessThanOrEqual(5);
    items.push(...next[key]);
    cursor = next.next_cursor;
  }
  return items;
}

const cliJson = async (args: string[]) =>
  JSON.parse((await runCli(emulator, [...args, '--json'], { env: { NO_COLOR: '1' } })).stdout);

describe('the MCP tools of what a project earned', () => {
  it('statements_totals pages the same groups as `pds statements totals --json`, bounded by --max-results', async () => {
    const first = await structured('statements_totals', { by: ['period'] });
    expect(first.items.length).toBe(5);
    expect(first.not_processed).toBeGreaterThan(0);
    const groups = await allPages('statements_totals', { by: ['period'] }, 'items');
    expect(groups).toEqual(await cliJson(['statements', 'totals', '--by', 'period']));
  });

  it('statements_lines_rollup: the groups of `lines --all --by isrc --top 3` and of --by territory (any case)', async () => {
    const groups = await allPages('statements_lines_rollup', { by: ['isrc'], top: 3 }, 'items');
    expect(groups).toEqual(await cliJson(['statements', 'lines', '--all', '--by', 'isrc', '--top', '3']));
    const byTerritory = await allPages('statements_lines_rollup', { by: ['Territory'], currency: 'EUR' }, 'items');
    expect(byTerritory).toEqual(
      await cliJson(['statements', 'lines', '--all', '--by', 'territory', '--currency', 'EUR']),
    );
  });

  it('statements_check says ok: false and names the statement whose lines disagree', async () => {
    const result = await structured('statements_check', {});
    expect(result.ok).toBe(false);
    expect(result.items[0]).toEqual(
      expect.objectContaining({ check: 'lines', statement: DISAGREEING.id, difference: '-0.05' }),
    );
    // Two processed statements of the store that agree with their lines and repeat no other.
    const repeats = new Set(Object.entries(DUPLICATE_OF).flat().map(Number));
    const ids = (emulator.state.data[DEMO_PROJECT_ID]?.statements ?? [])
      .filter((s) => isProcessed(s) && s.id !== DISAGREEING.id && !repeats.has(s.id))
      .slice(0, 2)
      .map((s) => s.id);
    expect(ids).toHaveLength(2);
    const clean = await structured('statements_check', { ids });
    expect(clean).toEqual({ ok: true, checked: 2, items: [], total: 0, incomplete: [], next_cursor: null });
  });

  it('statements_totals names an amount it cannot read in `incomplete`, never counting it as zero', async () => {
    const s = (emulator.state.data[DEMO_PROJECT_ID]?.statements ?? []).find(isProcessed)!;
    s.financials_given = { licensor_revenue: 'NaN' };
    try {
      const result = await structured('statements_totals', {});
      expect(result.incomplete).toEqual([`statement ${s.id}: licensor_revenue "NaN" is not an amount`]);
      const check = await structured('statements_check', { ids: [s.id] });
      expect(check).toMatchObject({ ok: false, checked: 0 });
      expect(check.incomplete).toEqual([
        'no statement could be checked',
        `statement ${s.id}: not checked (its financials' licensor_revenue "NaN": not an amount)`,
      ]);
    } finally {
      delete s.financials_given;
    }
  });

  it('refuses a rollup without columns, and a bad period, as errors', async () => {
    const none = (await mcp.client.callTool({ name: 'statements_lines_rollup', arguments: {} })) as ToolResult;
    expect(none.isError).toBe(true);
    const period = (await mcp.client.callTool({
      name: 'statements_totals',
      arguments: { period: '2025Q9' },
    })) as ToolResult;
    expect(period.isError).toBe(true);
    expect(JSON.stringify(period.content)).toContain("invalid period '2025Q9'");
  });
});

// `pds mcp tools`: every tool `pds mcp` can offer, its toolset, whether it writes. Needs no sign-in.
import type { Context } from '../../lib/context.js';
import type { Column } from '../../lib/output/view.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';
import type { tools } from './definitions.js';
import { TOOLS } from './tools.js';

interface Row {
  tool: string;
  toolset: string;
  writes: boolean;
  title: string;
  /** The CLI verb the tool is made from (verb-tools.ts), or null for a tool of its own. */
  verb: string | null;
}

const columns: Column<Row>[] = [
  { header: 'tool', value: (row) => row.tool },
  { header: 'toolset', value: (row) => row.toolset },
  { header: 'writes', value: (row) => (row.writes ? 'yes' : 'no') },
  { header: 'title', value: (row) => row.title },
];

export async function run(_opts: OptionsOf<typeof tools>, ctx: Context): Promise<void> {
  const rows: Row[] = TOOLS.map((tool) => ({
    tool: tool.name,
    toolset: tool.toolset,
    writes: tool.write,
    title: tool.title,
    verb: tool.verb ?? null,
  }));
  async function* single() {
    yield { items: rows, page: 1, perPage: rows.length, total: rows.length };
  }
  await ctx.output.list(single(), {
    columns,
    id: (row) => row.tool,
    noun: 'tools',
    all: true,
    fields: [...columns.map((c) => c.header), 'verb'],
  });
}

// `pds mcp tools`: every tool `pds mcp` can offer, its toolset, whether it writes. Needs no sign-in.
import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import type { Column } from '../../lib/output.js';
import { TOOLS, type ToolDefinition } from './tools.js';

export const allowsNewProfile = true;

export const scripting = ['jq'] as const;

export const Options = z.object({ args: z.tuple([]) });

const columns: Column<ToolDefinition>[] = [
  { header: 'tool', value: (tool) => tool.name },
  { header: 'toolset', value: (tool) => tool.toolset },
  { header: 'writes', value: (tool) => (tool.write ? 'yes' : 'no') },
  { header: 'title', value: (tool) => tool.title },
];

export async function run(_opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  if (ctx.settings.json) {
    ctx.output.json(TOOLS.map((tool) => ({ tool: tool.name, toolset: tool.toolset, writes: tool.write, title: tool.title })));
    return;
  }
  await ctx.output.list(
    (async function* () {
      yield { items: TOOLS, page: 1, perPage: TOOLS.length, total: TOOLS.length };
    })(),
    { columns, id: (tool) => tool.name, noun: 'tools', all: true },
  );
}

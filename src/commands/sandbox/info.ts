// `pds sandbox info`: the workspace's own guide (layout, counts, example commands).
import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { AGENTS_GUIDE, openSandbox, printFile } from './session.js';

export const paged = true;

export const scripting = ['jq'] as const;

export const Options = z.object({ args: z.tuple([]) });

export async function run(_opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const sandbox = await openSandbox(ctx);
  await printFile(ctx, sandbox, AGENTS_GUIDE);
}

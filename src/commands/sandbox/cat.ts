// `pds sandbox cat <path>`: a sandbox file's content, byte for byte.
import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { openSandbox, printFile } from './session.js';

export const paged = true;

export const scripting = ['jq'] as const;

export const Options = z.object({ args: z.tuple([z.string()]) });

export async function run(opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const sandbox = await openSandbox(ctx);
  await printFile(ctx, sandbox, opts.args[0]);
}

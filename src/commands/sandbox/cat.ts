// `pds sandbox cat <path>`: a sandbox file's content, byte for byte.
import type { Context } from '../../lib/context.js';
import { openSandbox, printFile } from './session.js';
import type { cat } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof cat>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const sandbox = await openSandbox(ctx);
  await printFile(ctx, sandbox, opts.args[0]);
}

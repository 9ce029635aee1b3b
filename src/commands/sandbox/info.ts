// `pds sandbox info`: the workspace's own guide (layout, counts, example commands).
import type { Context } from '../../lib/context.js';
import { AGENTS_GUIDE, openSandbox, printFile } from './session.js';
import type { info } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof info>;

export async function run(_opts: Options, ctx: Context): Promise<void> {
  const sandbox = await openSandbox(ctx);
  await printFile(ctx, sandbox, AGENTS_GUIDE);
}

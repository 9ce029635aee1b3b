// `pds sandbox connect`: opens the project's sandbox session (the other verbs also do it themselves).
import type { Context } from '../../lib/context.js';
import { openSandbox } from './session.js';
import type { connect } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof connect>;

export async function run(_opts: Options, ctx: Context): Promise<void> {
  const { projectId, session } = await openSandbox(ctx);
  if (await ctx.output.asData(session)) return;
  ctx.output.info(`sandbox ${session.sandboxId} of project ${projectId}: ${session.status}`);
}

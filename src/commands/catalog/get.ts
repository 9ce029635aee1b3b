import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import type { ResourceName } from '../../lib/api/catalog.js';
import { UsageError } from '../../lib/errors.js';
import { ResourceFlags, resourceQuery } from './flags.js';

export const Options = z.object({ ...ResourceFlags, args: z.tuple([z.string()]) });

export async function run(opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const resource = opts.resource as ResourceName;
  const id = opts.args[0].trim();
  if (id === '' || id.includes('/')) throw new UsageError(`invalid ${resource} id '${opts.args[0]}'`);
  if (resource === 'statements' && !/^\d+$/.test(id)) {
    throw new UsageError(`invalid statement id '${id}': statement ids are whole numbers`);
  }
  const extra = resourceQuery(opts);
  const projectId = ctx.project();
  const record = await ctx.api.catalog.get(resource, projectId, id, extra);
  await ctx.output.record(record);
}

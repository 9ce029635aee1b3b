import type { Context } from '../../lib/context.js';
import type { ResourceName } from '../../lib/api/catalog.js';
import { UsageError } from '../../lib/errors.js';
import { ResourceFlags, resourceQuery } from './flags.js';
import { resourceFields } from './views.js';
import type { GetOptions } from './index.js';

type Options = GetOptions;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const resource = opts.resource as ResourceName;
  const id = checkResourceId(resource, opts.args[0]);
  const extra = resourceQuery(opts);
  ctx.output.checkFields(resourceFields(resource, 'detail'), resource);
  const projectId = ctx.project();
  const record = await ctx.api.catalog.get(resource, projectId, id, extra);
  await ctx.output.record(record);
}

/** An id checked before any request: never empty, never a path; statement ids are whole numbers. */
export function checkResourceId(resource: ResourceName, raw: string): string {
  const id = raw.trim();
  if (id === '' || id.includes('/')) throw new UsageError(`invalid ${resource} id '${raw}'`);
  if (resource === 'statements' && !/^\d+$/.test(id)) {
    throw new UsageError(`invalid statement id '${id}': statement ids are whole numbers`);
  }
  return id;
}

import type { Context } from '../../lib/context.js';
import { RESOURCES, resourceOf, type ResourceName } from '../../lib/resources.js';
import { NotFoundError, UsageError } from '../../lib/errors.js';
import { notFoundIn } from '../../lib/not-found.js';
import { resourceQuery } from './flags.js';
import { personViewOf } from './record-views.js';
import { detailView, listFields } from './views.js';
import type { GetOptions } from './definitions.js';

type Options = GetOptions;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const resource: ResourceName = opts.resource;
  const id = checkResourceId(resource, opts.args[0]);
  const extra = resourceQuery(opts);
  ctx.output.checkFields(listFields(resource), resource);
  const projectId = ctx.project();
  const record = await ctx.api.catalog.get(resource, projectId, id, extra).catch(async (error: unknown) => {
    throw error instanceof NotFoundError
      ? await notFoundIn(ctx.api, RESOURCES[resource].singular, id, projectId, error)
      : error;
  });
  // The human forms (a table, and its piped `field<TAB>value`) get the record's reading: the
  // deployed service's includes under the names the spec form's have. Data formats get it as it came.
  const read = !ctx.output.isData && ctx.output.jq === undefined && ctx.output.fields === undefined;
  // A terminal gets the resource's view for a person (record-views.ts).
  await ctx.output.record(
    read ? detailView(record) : record,
    'id',
    read ? () => personViewOf(resource, record, { verbose: ctx.settings.verbose }) : undefined,
  );
}

/**
 * A record's id, checked before any request (get, download, the agents' tools): a resource of
 * whole-number ids (statements) takes only those; any other id is not empty and has nothing that
 * would change the URL (a path separator, `?`, `#`) or that no id has (white space). A number (an
 * agent's tool call, the deployed service's ids) is taken as its digits.
 */
export function checkResourceId(resource: ResourceName, given: string | number): string {
  const raw = String(given);
  const id = raw.trim();
  const { singular, wholeNumberIds } = resourceOf(resource);
  if (wholeNumberIds && !/^\d+$/.test(id)) {
    throw new UsageError(`invalid ${singular} id '${raw}': ${singular} ids are whole numbers`);
  }
  if (id === '' || /[/\\?#\s]/.test(id)) throw new UsageError(`invalid ${singular} id '${raw}'`);
  return id;
}

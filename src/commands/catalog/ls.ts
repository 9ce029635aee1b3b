import type { Context } from '../../lib/context.js';
import type { ResourceName } from '../../lib/resources.js';
import { listColumns, listFields } from './views.js';
import { resourceQuery } from './flags.js';
import type { ListOptions } from './definitions.js';

type Options = ListOptions;

export async function run(opts: Options, ctx: Context): Promise<void> {
  await list(opts.resource, opts, ctx);
}

/** The list of one resource, its records typed by it from the pages to the columns. */
async function list<R extends ResourceName>(resource: R, opts: Options, ctx: Context): Promise<void> {
  const extra = resourceQuery(opts);
  const fields = listFields(resource);
  const projectId = ctx.project();
  // --all asks for the largest pages the service allows: fewer round trips.
  const perPage = opts.perPage ?? (opts.all ? 100 : 20);
  const query = { projectId, page: opts.page, perPage, extra };
  const catalog = ctx.api.catalog;
  const pages = opts.all
    ? catalog.allPages(resource, query)
    : (async function* () {
        yield await catalog.listPage(resource, query);
      })();
  await ctx.output.list(pages, {
    columns: listColumns(resource, { merged: opts.merged, includes: extra.includes, score: extra.score === 'true' }),
    id: (record) => String(record.id),
    noun: resource,
    all: opts.all === true,
    fields,
  });
}

import type { Context } from '../../lib/context.js';
import { NotFoundError } from '../../lib/errors.js';
import { missingFeature } from '../../lib/not-found.js';
import type { Tag } from '../../lib/schemas.js';
import type { ls } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof ls>;

/** One page of up to 100 tags: a project has few, and the service lists them in one answer. */
const PER_PAGE = 100;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const projectId = ctx.project();
  const items = await ctx.api.tags
    .list(projectId, {
      ...(opts.scope === undefined ? {} : { scope: opts.scope }),
      ...(opts.search === undefined ? {} : { search: opts.search }),
      perPage: PER_PAGE,
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
      throw await missingFeature(ctx.api, ctx.settings.apiUrl, 'tags on contracts and statements', projectId, error);
    });
  async function* pages() {
    yield { items, page: 1, perPage: PER_PAGE };
  }
  await ctx.output.list<Tag>(pages(), {
    noun: 'tags',
    all: true,
    id: (tag) => String(tag.id),
    fields: ['id', 'tag', 'scope', 'usage_count'],
    columns: [
      { header: 'tag', value: (tag) => tag.tag, format: 'name', priority: 100 },
      { header: 'scope', value: (tag) => tag.scope, priority: 60, overflow: 'never' },
      { header: 'used', value: (tag) => tag.usage_count, format: 'count' },
      { header: 'id', value: (tag) => tag.id, format: 'id' },
    ],
  });
}

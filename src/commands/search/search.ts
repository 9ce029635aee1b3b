import type { Context } from '../../lib/context.js';
import { hitName, hitScore, type SearchHit } from '../../lib/api/projects.js';
import { commaList, singular } from '../../lib/output/text.js';
import type { Column } from '../../lib/output/view.js';
import { UsageError } from '../../lib/errors.js';
import type { search } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof search>;

export { SEARCH_TYPES } from './definitions.js';
import { SEARCH_TYPES } from './definitions.js';

const columns: Column<SearchHit>[] = [
  { header: 'type', value: (hit) => hit.type, priority: 60, overflow: 'never' },
  { header: 'id', value: (hit) => hit.id, format: 'id' },
  // A contract of the deployed service is named by the file it matched in.
  { header: 'name', value: hitName, format: 'name' },
  // A hit the service ranked without a number (the grouped form's artists) has no score to show.
  {
    header: 'score',
    format: 'score',
    value: (hit) => {
      const score = hitScore(hit);
      return score === undefined ? '' : Math.round(score * 1000) / 1000;
    },
  },
];

export async function run(opts: Options, ctx: Context): Promise<void> {
  const query = searchQuery(opts.args[0].join(' '));
  const types = searchTypes(opts.type);
  const fields = ['type', 'id', 'name', 'score'];
  ctx.output.checkFields(fields, 'search results');
  const projectId = ctx.project();
  let hits = await ctx.api.projects.search(projectId, query);
  if (types.length > 0) hits = hits.filter((hit) => types.includes(hit.type));
  if (opts.limit !== undefined) hits = hits.slice(0, opts.limit);
  async function* single() {
    yield { items: hits, page: 1, perPage: hits.length, total: hits.length };
  }
  await ctx.output.list(single(), {
    columns,
    id: (hit) => `${hit.type}:${hit.id}`,
    noun: 'results',
    all: true,
    fields,
  });
}

/** The query as the service takes it: 1 to 500 characters once trimmed. */
export function searchQuery(text: string): string {
  const query = text.trim();
  // Characters as a person (and the service) counts them: code points, not UTF-16 units.
  const length = [...query].length;
  if (length < 1 || length > 500) {
    throw new UsageError(`the search query must be 1 to 500 characters (got ${length})`);
  }
  return query;
}

/** `--type artists,contract` → ['artist', 'contract']: checked locally against the documented names; a plural is accepted. */
export function searchTypes(value: string | string[] | undefined): string[] {
  const types = commaList(value).map(singular);
  const unknown = types.filter((t) => !(SEARCH_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw new UsageError(`unknown search type '${unknown[0]}'`, {
      details: [`valid types: ${SEARCH_TYPES.join(', ')}`],
    });
  }
  return types;
}

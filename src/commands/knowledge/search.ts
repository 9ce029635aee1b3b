// `pds knowledge search`: the project's knowledge graph (docs/service.md). The service takes no kind
// filter: --kind filters its answer here, and no `kind` parameter is sent.
import type { Context } from '../../lib/context.js';
import { NotFoundError, UsageError } from '../../lib/errors.js';
import { missingFeature } from '../../lib/not-found.js';
import { KNOWLEDGE_KINDS } from '../../lib/transfer/formats.js';
import type { KnowledgeNode } from '../../lib/schemas.js';
import type { search } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';
import { isPlainObject } from '../../lib/shape.js';

type Options = OptionsOf<typeof search>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const q = opts.args[0].join(' ').trim();
  if (q === '' || q.length > 500) throw new UsageError('a query is 1 to 500 characters');
  const kinds = (opts.kind ?? []).map((kind) => kind.trim().toLowerCase());
  const unknown = kinds.filter((kind) => !(KNOWLEDGE_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0)
    throw new UsageError(`unknown --kind ${unknown.map((k) => `'${k}'`).join(', ')}`, {
      details: [`valid kinds: ${KNOWLEDGE_KINDS.join(', ')}`],
    });
  const projectId = ctx.project();
  const answer = await ctx.api.projects
    .knowledge(projectId, q, opts.limit === undefined ? {} : { limit: opts.limit })
    .catch(async (error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
      throw await missingFeature(ctx.api, ctx.settings.apiUrl, 'knowledge search', projectId, error);
    });
  const nodes =
    kinds.length === 0
      ? answer.results
      : answer.results.filter((node) => typeof node.kind === 'string' && kinds.includes(node.kind));
  async function* pages() {
    yield { items: nodes, page: 1, perPage: nodes.length };
  }
  await ctx.output.list<KnowledgeNode>(pages(), {
    noun: 'knowledge nodes',
    // One answer, not a page: the footer counts it (the verb takes no --page).
    all: true,
    id: (node) => String(node.id),
    columns: [
      { header: 'id', value: (node) => node.id, format: 'id' },
      { header: 'kind', value: (node) => node.kind, priority: 60, overflow: 'never' },
      { header: 'name', value: (node) => node.name, format: 'name' },
      {
        header: 'claims',
        value: (node) =>
          listOf(node.claims)
            .map((c) => `${text(c.predicate)}: ${text(c.value)}`)
            .join('; '),
      },
      {
        header: 'related',
        priority: 30,
        value: (node) =>
          listOf(node.relationships)
            .map((r) => `${text(r.edge_type)} ${text(isPlainObject(r.node) ? r.node.name : undefined)}`)
            .join('; '),
      },
    ],
  });
}

/** The objects of a list the service sent; anything else (absent, null, another type) is none. */
const listOf = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isPlainObject) : []);

/** A value inside a cell: a string as it is, nothing for null or absent, anything else as JSON. */
const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : (JSON.stringify(value) ?? '');

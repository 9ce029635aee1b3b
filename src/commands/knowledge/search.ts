import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { KNOWLEDGE_KINDS } from '../../lib/formats.js';
import type { KnowledgeNode } from '../../lib/schemas.js';
import type { search } from './index.js';
import type { OptionsOf } from '../../lib/verb.js';

type Options = OptionsOf<typeof search>;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const q = opts.args[0].join(' ').trim();
  if (q === '' || q.length > 500) throw new UsageError('a query is 1 to 500 characters');
  const kinds = opts.kind ?? [];
  const unknown = kinds.filter((kind) => !(KNOWLEDGE_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0) throw new UsageError(`unknown --kind ${unknown.map((k) => `'${k}'`).join(', ')}`, { details: [`valid kinds: ${KNOWLEDGE_KINDS.join(', ')}`] });
  const projectId = ctx.project();
  const answer = await ctx.api.projects.knowledge(projectId, q, { ...(kinds.length > 0 ? { kinds } : {}), ...(opts.limit === undefined ? {} : { limit: opts.limit }) });
  async function* pages() {
    yield { items: answer.results, page: 1, perPage: answer.results.length };
  }
  await ctx.output.list<KnowledgeNode>(pages(), {
    noun: 'knowledge nodes',
    id: (node) => String(node.id),
    columns: [
      { header: 'id', value: (node) => node.id },
      { header: 'kind', value: (node) => node.kind },
      { header: 'name', value: (node) => node.name },
      { header: 'claims', value: (node) => (node.claims ?? []).map((c) => `${c.predicate}: ${String(c.value ?? '')}`).join('; ') },
      { header: 'related', value: (node) => (node.relationships ?? []).map((r) => `${r.edge_type} ${r.node.name}`).join('; ') },
    ],
  });
}

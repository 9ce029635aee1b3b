// The knowledge search of the deployed service (docs/service.md): nodes (people, organizations,
// topics, processes…) with claims and relationships. The emulator seeds them from a project's own
// catalog (its first entities, artists and writers) plus a few fixed nodes every project has, so
// the search finds names a user also sees in `pds entities ls`.
import { KNOWLEDGE_KIND_NAMES, type KnowledgeKind } from './vocabulary.js';
import type { ProjectData } from './store.js';

interface Claim {
  id: string;
  predicate: string;
  claim_type: string;
  value: string;
  state: string;
  authority_class: string;
  evidence: { source: string; excerpt: string }[];
}

interface KnowledgeNode {
  id: string;
  /** Its place in the project's nodes, from 1: the deployed flavor's numeric ids derive from it. */
  number: number;
  kind: KnowledgeKind;
  name: string;
  summary: string;
  claims: Claim[];
  links: string[];
  updated_at: string;
}

/** Each project's nodes are built once and kept while its data lives. */
const cache = new WeakMap<ProjectData, KnowledgeNode[]>();
const UPDATED = '2026-06-30T12:00:00.000Z';
const FIXED: [KnowledgeKind, string, string][] = [
  ['team', 'Royalty Operations', 'Processes incoming statements and pays out royalties.'],
  ['process', 'Quarterly statement run', 'Statements are reconciled and sent every quarter.'],
  ['policy', 'Recoupment policy', 'Advances are recouped from the artist share before payout.'],
  ['principle', 'Pay on receipt', 'Royalties are paid on money received, not on money invoiced.'],
  ['decision', 'Move to semi-annual accounting', 'Accounting moves from quarterly to semi-annual periods.'],
  ['topic', 'Streaming royalties', 'Royalty rates and splits on streaming income.'],
  ['question', 'Which distributor reports TikTok usage?', 'Open question raised in the last statement review.'],
];

function claim(nodeId: string, n: number, predicate: string, value: string): Claim {
  return {
    id: `${nodeId}-c${n}`,
    predicate,
    claim_type: 'fact',
    value,
    state: 'accepted',
    authority_class: 'document',
    evidence: [{ source: 'contract', excerpt: value }],
  };
}

function buildNodes(projectId: string, data: ProjectData): KnowledgeNode[] {
  const nodes: KnowledgeNode[] = [];
  const node = (kind: KnowledgeKind, name: string, summary: string, claims: [string, string][]): KnowledgeNode => {
    const id = `kn-${projectId.slice(0, 8)}-${nodes.length + 1}`;
    const made = {
      id,
      number: nodes.length + 1,
      kind,
      name,
      summary,
      claims: claims.map(([p, v], i) => claim(id, i + 1, p, v)),
      links: [],
      updated_at: UPDATED,
    };
    nodes.push(made);
    return made;
  };
  const orgs = data.entities
    .filter((e) => e.merged_into === undefined)
    .slice(0, 5)
    .map((e) =>
      node('organization', e.name, `${e.name}, a party to the project's contracts.`, [['role', 'counterparty']]),
    );
  const people = [...data.artists.slice(0, 5), ...data.writers.slice(0, 5)]
    .filter((p) => p.merged_into === undefined)
    .map((p) =>
      node('person', p.name, `${p.name}, credited on the project's catalog.`, [
        ['credited_as', data.artists.includes(p) ? 'artist' : 'writer'],
      ]),
    );
  const fixed = FIXED.map(([kind, name, summary]) => node(kind, name, summary, [['summary', summary]]));
  // Everyone is linked to the team; people to the first organization.
  const team = fixed[0] as KnowledgeNode;
  for (const other of [...orgs, ...people]) other.links.push(team.id);
  for (const person of people) if (orgs[0]) person.links.push(orgs[0].id);
  return nodes;
}

/** `kind` query values (comma-separated or repeated); a 400 field error for an unknown one. */
export function parseKinds(errors: Record<string, string[]>, raw: string[]): Set<KnowledgeKind> | undefined {
  const values = raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = values.filter((v) => !(KNOWLEDGE_KIND_NAMES as readonly string[]).includes(v));
  if (unknown.length > 0)
    errors.kind = unknown.map((v) => `unknown kind '${v}'; valid: ${KNOWLEDGE_KIND_NAMES.join(', ')}`);
  return values.length === 0 ? undefined : new Set(values as KnowledgeKind[]);
}

/** Rank: the share of the query's words found in the node's name (2×) and summary (1×). */
function rank(node: KnowledgeNode, words: string[]): number {
  const name = node.name.toLowerCase();
  const summary = node.summary.toLowerCase();
  let score = 0;
  for (const word of words) score += name.includes(word) ? 2 : summary.includes(word) ? 1 : 0;
  return Math.round((score / (2 * words.length)) * 1000) / 1000;
}

/** Where the deployed flavor's numeric node ids start; a node's claims and edges are numbered under it. */
const NUMERIC_NODES_START = 8_000_000;

/** A node's id and its claims' and edges' ids: the stored strings, or numbers (the deployed forms). */
function idsOf(
  n: KnowledgeNode,
  numeric: boolean,
): { node: string | number; sub: (tag: string, k: number) => string | number } {
  if (!numeric) return { node: n.id, sub: (tag, k) => `${n.id}-${tag}${k}` };
  const node = NUMERIC_NODES_START + n.number;
  return { node, sub: (_tag, k) => node * 10 + k };
}

export function knowledgeSearch(
  projectId: string,
  data: ProjectData,
  q: string,
  limit: number,
  kinds?: Set<KnowledgeKind>,
  numeric = false,
): Record<string, unknown> {
  let nodes = cache.get(data);
  if (!nodes) {
    nodes = buildNodes(projectId, data);
    cache.set(data, nodes);
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const results = nodes
    .filter((n) => !kinds || kinds.has(n.kind))
    .map((n) => ({ n, rank: rank(n, words) }))
    .filter((r) => r.rank > 0)
    .sort((a, b) => b.rank - a.rank || a.n.name.localeCompare(b.n.name))
    .slice(0, limit)
    .map(({ n, rank: r }) => {
      const ids = idsOf(n, numeric);
      return {
        id: ids.node,
        kind: n.kind,
        name: n.name,
        summary: n.summary,
        rank: r,
        claims: n.claims.map((c, k) => ({ ...c, id: ids.sub('c', k + 1) })),
        relationships: n.links.map((to, i) => {
          const other = byId.get(to) as KnowledgeNode;
          const node = { id: idsOf(other, numeric).node, kind: other.kind, name: other.name };
          return {
            edge_id: ids.sub('e', i + 1),
            edge_type: other.kind === 'team' ? 'member_of' : 'works_with',
            direction: 'outgoing',
            node,
            state: 'accepted',
            evidence_count: 1,
          };
        }),
        updated_at: n.updated_at,
      };
    });
  return { results, freshness: { last_indexed_at: UPDATED, eventually_consistent: true, scope: 'project' } };
}

// Projects, project search, and the deployed service's project creation and knowledge search.
import type * as z from 'zod/mini';
import type { HttpClient } from '../http/client.js';
import type { KnowledgeResults, Project, SearchResult } from '../schemas.js';
import { ServiceError } from '../errors.js';
import { isPlainObject, listShape } from '../shape.js';
import { toPage } from './catalog.js';
import { PROJECT_RECORD_SHAPE, PROJECT_SHAPE } from './shapes.js';
import { driftNotes } from './drift.js';
import { singular } from '../output/text.js';

// zod, and the schemas, are loaded by the calls that check with them: `projects ls` checks its
// list by its plain shape (shape.ts), and a run that goes well loads neither.
const schemas = () => import('../schemas.js');
const PROJECTS_SHAPE = listShape(PROJECT_RECORD_SHAPE);

/**
 * One search hit, whichever form the service answered in, with every field it sent: the spec's
 * `{type, id, name, score}`, or a match of the grouped form, which gains the `type` of its group
 * (and keeps its `rank`, and a contract's `matched_file_name`).
 */
export type SearchHit = { type: string; id: string | number } & Record<string, unknown>;

export function createProjectsApi(http: HttpClient) {
  const drift = http.tracing ? driftNotes((line) => http.trace(line)) : undefined;
  return {
    async list(): Promise<Project[]> {
      const data = await http.shapedData<
        Project[] | { items: Project[]; total_count: number; page: number; per_page: number }
      >({ path: '/v1/projects' }, PROJECTS_SHAPE, async () => (await schemas()).ProjectList);
      const { items } = toPage(data, { page: 1, perPage: 0 });
      drift?.('projects', PROJECT_SHAPE, items);
      return items;
    },

    /** `POST /v1/projects` (docs/service.md). Never resent: a second one would make a second project. */
    async create(name: string, entityName?: string): Promise<Project> {
      const { Project } = await schemas();
      return http.data(
        {
          method: 'POST',
          path: '/v1/projects',
          json: { name, ...(entityName === undefined ? {} : { entityName }) },
          retry: false,
        },
        Project,
      );
    },

    /**
     * `GET /v1/projects/{id}/knowledge/search`: nodes with their claims and relationships. The
     * service takes no kind filter (docs/service.md): a caller that offers one filters the results.
     */
    async knowledge(
      projectId: string,
      q: string,
      options: { limit?: number } = {},
    ): Promise<z.infer<typeof KnowledgeResults>> {
      const { KnowledgeResults } = await schemas();
      return http.data(
        { path: `/v1/projects/${encodeURIComponent(projectId)}/knowledge/search`, query: { q, limit: options.limit } },
        KnowledgeResults,
      );
    },

    async get(projectId: string): Promise<Project> {
      const { Project } = await schemas();
      const project = await http.data({ path: `/v1/projects/${encodeURIComponent(projectId)}` }, Project);
      drift?.('projects', PROJECT_SHAPE, [project]);
      return project;
    },

    async search(projectId: string, q: string): Promise<SearchHit[]> {
      const { SearchData } = await schemas();
      const request = { path: `/v1/projects/${encodeURIComponent(projectId)}/search`, query: { q } };
      const data = await http.data(request, SearchData);
      if (Array.isArray(data))
        return data.map((hit) => (typeof hit.type === 'string' ? (hit as SearchHit) : { ...hit, type: '' }));
      // The grouped form: {recordings: [{id, name, rank, …}], contracts: [{id, matched_file_name, …}], …}.
      const groups: { type: string; hits: SearchHit[] }[] = [];
      for (const [key, matches] of Object.entries(data)) {
        if (!Array.isArray(matches)) continue;
        // The grouped form keys by plural type: `entities` → `entity`.
        const type = singular(key);
        const hits = matches.map((match, index) => ({ ...matchOf(match, `${key}.${index}`, request), type }));
        groups.push({ type, hits: byRank(hits) });
      }
      return groups.sort((a, b) => typeOrder(a.type) - typeOrder(b.type)).flatMap((group) => group.hits);
    },
  };
}

/**
 * The result types, in the order the grouped form's types are listed in one list (types pds does
 * not know come after them, in the service's order): the service ranks within a type, never across.
 */
export const SEARCH_TYPES = ['contract', 'entity', 'artist', 'writer', 'recording', 'composition'] as const;
const typeOrder = (type: string): number => {
  const index = (SEARCH_TYPES as readonly string[]).indexOf(type);
  return index === -1 ? SEARCH_TYPES.length : index;
};

/**
 * A group in the service's order, best rank first when every match has one (a stable sort: equal
 * ranks keep the service's order). A group without ranks (artists, writers, entities) stays as sent.
 */
function byRank(hits: SearchHit[]): SearchHit[] {
  if (!hits.every((hit) => hitScore(hit) !== undefined)) return hits;
  return [...hits].sort((a, b) => (hitScore(b) as number) - (hitScore(a) as number));
}

/** What a hit is called: its name, or the file a contract matched by (the deployed service). */
export function hitName(hit: Record<string, unknown>): string {
  const name = hit.name ?? hit.matched_file_name;
  return typeof name === 'string' ? name : name === undefined || name === null ? '' : String(name);
}

/** How well a hit matched: the spec's score, or the grouped form's rank; undefined when neither is a number. */
export function hitScore(hit: Record<string, unknown>): number | undefined {
  const score = hit.score ?? hit.rank;
  return typeof score === 'number' && Number.isFinite(score) ? score : undefined;
}

/** A match of a group: it needs its id, as every record does; a group's match without one is an answer pds cannot use. */
function matchOf(match: unknown, where: string, request: { path: string }): SearchResult {
  if (isPlainObject(match) && (typeof match.id === 'string' || Number.isSafeInteger(match.id)))
    return match as SearchResult;
  throw new ServiceError(`unexpected response from GET ${request.path}`, {
    details: [`data.${where}.id: a match needs an id (a string or a whole number)`],
  });
}

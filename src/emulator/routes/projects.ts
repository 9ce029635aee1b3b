// 4.1 Projects: list per token scope, get, and search (scoring lives in ../search.ts).
import {
  HttpError,
  deployedForms,
  driftedForms,
  projectInScope,
  type Handler,
  type RouteContext,
  type Route,
} from '../http.js';
import { SEARCH_TYPES, searchProject, type SearchType } from '../search.js';
import type { ProjectRecord } from '../store.js';
import { deployedProject } from '../deployed/records.js';
import { deployedSearch } from '../deployed/search.js';

/** A project as the flavor draws it: stored as the spec form has it, or in the deployed form. */
export const projectBody = (ctx: RouteContext, project: ProjectRecord): unknown =>
  deployedForms(ctx.options) ? deployedProject(project) : project;

const listProjects: Handler = (ctx) => {
  const visible = ctx.state.projects.filter(
    (p) => p.organization_id === ctx.scope.organization_id && (!ctx.scope.project_id || ctx.scope.project_id === p.id),
  );
  // A plain array also under --drift and in the deployed forms: the service's clients read it so.
  return { body: { data: visible.map((p) => projectBody(ctx, p)) } };
};

// A malformed id names no project: 404 like any unknown one (docs/service.md, "Two forms" lists no 400 here).
const getProject: Handler = (ctx) => {
  const id = ctx.params.project_id ?? '';
  const project = ctx.state.projects.find((p) => p.id === id.toLowerCase());
  if (!project || project.organization_id !== ctx.scope.organization_id) {
    throw new HttpError(404, 'project not found');
  }
  return { body: { data: projectBody(ctx, projectInScope(ctx, id, 'project_id')) } };
};

const MAX_QUERY_CHARS = 500;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** `q`: required, 1 to 500 characters (counted as code points, as a user counts them). */
function searchQuery(ctx: RouteContext): string {
  const q = ctx.query.get('q');
  if (q === null) throw new HttpError(400, { q: ['q is required'] });
  const length = [...q].length;
  if (length < 1 || length > MAX_QUERY_CHARS) {
    throw new HttpError(400, { q: [`q must be 1 to ${MAX_QUERY_CHARS} characters long, got ${length}`] });
  }
  // Only spaces is a query with nothing to look for: the same mistake as an empty one.
  if (q.trim() === '') throw new HttpError(400, { q: ['q must contain a non-space character'] });
  return q;
}

const isSearchType = (value: string): value is SearchType => (SEARCH_TYPES as readonly string[]).includes(value);

/** Extension: `type=contract,artist` narrows the kinds searched; plural names are accepted too. */
function searchTypes(ctx: RouteContext): readonly SearchType[] {
  const values = ctx.query
    .getAll('type')
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (values.length === 0) return SEARCH_TYPES;
  const singular = (value: string) => {
    const lower = value.toLowerCase();
    return lower === 'entities' ? 'entity' : lower.replace(/s$/, '');
  };
  const unknown = values.filter((value) => !isSearchType(singular(value)));
  if (unknown.length > 0) {
    throw new HttpError(400, {
      type: unknown.map((value) => `unknown type '${value}'; valid: ${SEARCH_TYPES.join(', ')}`),
    });
  }
  return [...new Set(values.map(singular).filter(isSearchType))];
}

/** Extension: `limit` (1 to 100, default 20) caps the number of results. */
function searchLimit(ctx: RouteContext): number {
  const raw = ctx.query.get('limit');
  if (raw === null || raw === '') return DEFAULT_LIMIT;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > MAX_LIMIT) {
    throw new HttpError(400, { limit: [`limit must be an integer from 1 to ${MAX_LIMIT}`] });
  }
  return limit;
}

const search: Handler = (ctx) => {
  const project = projectInScope(ctx, ctx.params.project_id ?? '', 'project_id');
  const q = searchQuery(ctx);
  const types = searchTypes(ctx);
  const limit = searchLimit(ctx);
  const data = ctx.state.data[project.id];
  if (!data) throw new HttpError(500, 'project data missing');
  const hits = searchProject(data, q, types, limit);
  if (deployedForms(ctx.options)) return { body: { data: deployedSearch(data, hits, q) } };
  return { body: { data: driftedForms(ctx.options) ? keyedByType(hits, q) : hits } };
};

/** The drifted search form: `{recordings: [{id, name, matched_keywords, is_metadata_match, rank}], …}`. */
function keyedByType(hits: ReturnType<typeof searchProject>, q: string): Record<string, unknown[]> {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const keyed: Record<string, unknown[]> = {};
  for (const type of SEARCH_TYPES) keyed[type === 'entity' ? 'entities' : `${type}s`] = [];
  for (const hit of hits) {
    const matched = words.filter((word) => hit.name.toLowerCase().includes(word));
    keyed[hit.type === 'entity' ? 'entities' : `${hit.type}s`]?.push({
      id: hit.id,
      name: hit.name,
      matched_keywords: matched,
      is_metadata_match: false,
      rank: hit.score,
    });
  }
  return keyed;
}

export const projectRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/projects', handler: listProjects },
  { method: 'GET', pattern: '/v1/projects/:project_id', handler: getProject },
  { method: 'GET', pattern: '/v1/projects/:project_id/search', handler: search },
];

// GET /v1/writers and /v1/artists, and one of each by id.
import { queryProject, type RouteContext, type Route } from '../../http.js';
import { deployedPerson } from '../../deployed/records.js';
import type { ProjectRecord, PersonRecord, ProjectData } from '../../store.js';
import type { Fields } from './common.js';
import { compact, arrayPage, found, deployed, recordOf, roots, mergedIndex, mergedRefs } from './common.js';

const personShape =
  (index: Map<string, PersonRecord[]> | undefined) =>
  (p: PersonRecord): Fields =>
    compact({ id: p.id, name: p.name, project_id: p.project_id, merged: mergedRefs(index, p.id) });

const personRenderer = (
  ctx: RouteContext,
  project: ProjectRecord,
  data: ProjectData,
  kind: 'artists' | 'writers',
): ((p: PersonRecord) => Fields) => {
  const merged = mergedIndex(ctx, data[kind]);
  return deployed(ctx)
    ? deployedPerson(kind === 'artists' ? 'artist' : 'writer', project.created_at, merged)
    : personShape(merged);
};

export const personRoutes = (path: string, kind: 'artists' | 'writers', what: 'artist' | 'writer'): Route[] => [
  {
    method: 'GET',
    pattern: path,
    handler: (ctx) => {
      const { project, data } = queryProject(ctx);
      return arrayPage(ctx, roots(data[kind]), personRenderer(ctx, project, data, kind));
    },
  },
  {
    method: 'GET',
    pattern: `${path}/:id`,
    handler: (ctx) => {
      const { project, data } = queryProject(ctx);
      const person = found(recordOf(ctx, data[kind], what), what);
      return { body: { data: personRenderer(ctx, project, data, kind)(person) } };
    },
  },
];

// GET /v1/relations and /v1/relations/{id}.
import { queryProject, type Handler, type RouteContext } from '../../http.js';
import { deployedRelation } from '../../deployed/records.js';
import { fieldsOf, RELATION_OWN_FIELDS, type ProjectData, type RelationRecord } from '../../store.js';
import { type Fields, compact, envelopePage, found, deployed, recordOf, roots, mergedIndex } from './common.js';

const relationShape =
  (index: Map<string, RelationRecord[]> | undefined) =>
  (r: RelationRecord): Fields =>
    compact({
      id: r.id,
      ...fieldsOf(r, RELATION_OWN_FIELDS),
      // A relation's duplicates also say when they were merged (docs/service.md, "Records").
      merged:
        index &&
        (index.get(r.id) ?? []).map((m) => ({ id: m.id, name: m.name, merged_at: m.merged_at ?? m.updated_at })),
    });

const relationRenderer = (ctx: RouteContext, data: ProjectData): ((r: RelationRecord) => Fields) =>
  (deployed(ctx) ? deployedRelation : relationShape)(mergedIndex(ctx, data.relations));

export const listRelations: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, roots(data.relations), relationRenderer(ctx, data));
};

export const getRelation: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const relation = found(recordOf(ctx, data.relations, 'relation'), 'relation');
  return { body: { data: relationRenderer(ctx, data)(relation) } };
};

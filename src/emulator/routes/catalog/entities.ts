// GET /v1/entities and /v1/entities/{id}, with the roles filter.
import { HttpError, queryProject, type Handler, type RouteContext } from '../../http.js';
import { derived, entityByUuid } from '../../deployed/indexes.js';
import { deployedEntity } from '../../deployed/records.js';
import { ENTITY_OWN_FIELDS, fieldsOf, type ContractRecord, type EntityRecord, type ProjectData } from '../../store.js';
import type { Fields } from './common.js';
import { compact, arrayPage, found, deployed, recordOf, roots, mergedIndex, mergedRefs } from './common.js';

const entityShape =
  (index: Map<string, EntityRecord[]> | undefined) =>
  (e: EntityRecord): Fields =>
    compact({
      ...fieldsOf(e, ['id', ...ENTITY_OWN_FIELDS, 'division_of', 'project_id', 'created_at', 'updated_at']),
      merged: mergedRefs(index, e.id),
    });

const ROLES = ['assignee', 'assignor'] as const;
type Role = (typeof ROLES)[number];
const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Comma-separated values of a query parameter, also when it is repeated (`?a=x&a=y`). */
export const listParam = (ctx: RouteContext, name: string): string[] =>
  ctx.query
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');

function parseRoles(ctx: RouteContext): Set<Role> | undefined {
  const values = listParam(ctx, 'roles');
  const unknown = values.filter((value) => !isRole(value));
  if (unknown.length > 0) {
    throw new HttpError(400, { roles: unknown.map((value) => `unknown role '${value}'; valid: ${ROLES.join(', ')}`) });
  }
  // Omitted or empty means every entity, whatever its role (docs/service.md, "Records").
  return values.length === 0 ? undefined : new Set(values.filter(isRole));
}

/** Ids of the root entities that sign at least one contract under one of the roles. */
function entitiesInRoles(
  contracts: readonly ContractRecord[],
  entities: readonly EntityRecord[],
  roles: Set<Role>,
): Set<string> {
  const rootOf = new Map<string, string>();
  for (const e of entities) if (e.merged_into !== undefined) rootOf.set(e.id, e.merged_into);
  const ids = new Set<string>();
  for (const contract of contracts) {
    for (const party of contract.parties) {
      if (roles.has(party.role)) ids.add(rootOf.get(party.entity_id) ?? party.entity_id);
    }
  }
  return ids;
}

/**
 * The root entities in any of the roles, in list order. Kept per set of roles while the contracts
 * and entities keep their lengths: a contract's parties are set when it is created.
 */
function entitiesWithRoles(data: ProjectData, roles: Set<Role>): EntityRecord[] {
  const key = ROLES.filter((role) => roles.has(role)).join(',');
  return derived(data.contracts, `roles:${key}:${data.entities.length}`, () => {
    const signers = entitiesInRoles(data.contracts, data.entities, roles);
    return roots(data.entities).filter((e) => signers.has(e.id));
  });
}

export const listEntities: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const roles = parseRoles(ctx);
  const items = roles ? entitiesWithRoles(data, roles) : roots(data.entities);
  return arrayPage(ctx, items, entityRenderer(ctx, data));
};

const entityRenderer = (ctx: RouteContext, data: ProjectData): ((e: EntityRecord) => Fields) =>
  deployed(ctx) ? deployedEntity(data, mergedIndex(ctx, data.entities)) : entityShape(mergedIndex(ctx, data.entities));

// A merged (non-root) record asked for by id is served as it is: the id stays valid after a merge,
// and a client following a reference to it should not get a 404.
export const getEntity: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const entity = found(
    recordOf(ctx, data.entities, 'entity') ?? entityByUuid(data.entities, ctx.params.id ?? ''),
    'entity',
  );
  return { body: { data: entityRenderer(ctx, data)(entity) } };
};

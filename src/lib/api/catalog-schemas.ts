// The zod schemas of the catalog resources (paths and types are in catalog.ts): a record fetched by
// id is checked against its detail schema; a list page that fails its plain check is parsed by its
// list schema, whose issues name what is wrong; the agents' tools declare their output with them.
import { Artist, Composition, Contract, Entity, Recording, Relation, Statement, StatementDetail, Writer, compiledObject, listOf } from '../schemas.js';
import type { ResourceName } from './catalog.js';

export const RESOURCE_SCHEMAS = {
  contracts: { item: Contract, detail: Contract },
  statements: { item: Statement, detail: StatementDetail },
  entities: { item: Entity, detail: Entity },
  relations: { item: Relation, detail: Relation },
  artists: { item: Artist, detail: Artist },
  writers: { item: Writer, detail: Writer },
  recordings: { item: Recording, detail: Recording },
  compositions: { item: Composition, detail: Composition },
} as const satisfies Record<ResourceName, unknown>;

/**
 * The list schema of each resource, made once (see envelopeOf in http.ts for why), its records
 * parsed by the compiled parser (see compiledObject for why).
 */
const listSchemas = new Map<ResourceName, ReturnType<typeof listOf>>();
export function listSchemaOf(resource: ResourceName): ReturnType<typeof listOf> {
  let schema = listSchemas.get(resource);
  if (!schema) {
    schema = listOf(compiledObject(RESOURCE_SCHEMAS[resource].item));
    listSchemas.set(resource, schema);
  }
  return schema;
}

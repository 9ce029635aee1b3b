// The zod schemas of the catalog resources (each resource is defined in lib/resources.ts), one each: a
// record is read alike in a list and by id (both forms' fields are in one documented shape). A
// record fetched by id is checked against it; a list page that fails its plain check is parsed by
// its list schema, whose issues name what is wrong; the agents' tools declare their output with them.
import {
  Artist,
  Composition,
  Contract,
  Entity,
  Recording,
  Relation,
  Statement,
  Writer,
  compiledObject,
  listOf,
} from '../schemas.js';
import type * as z from 'zod/mini';
import type { ResourceName } from '../resources.js';

export const RESOURCE_SCHEMAS = {
  contracts: Contract,
  statements: Statement,
  entities: Entity,
  relations: Relation,
  artists: Artist,
  writers: Writer,
  recordings: Recording,
  compositions: Composition,
} as const satisfies Record<ResourceName, z.ZodMiniType>;

/**
 * The list schema of each resource, made once (see envelopeOf in http-errors.ts for why), its records
 * parsed by the compiled parser (see compiledObject for why).
 */
const listSchemas = new Map<ResourceName, ReturnType<typeof listOf>>();
export function listSchemaOf(resource: ResourceName): ReturnType<typeof listOf> {
  let schema = listSchemas.get(resource);
  if (!schema) {
    schema = listOf(compiledObject(RESOURCE_SCHEMAS[resource]));
    listSchemas.set(resource, schema);
  }
  return schema;
}

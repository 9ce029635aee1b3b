// The zod schemas of the catalog resources (each resource is defined in lib/resources.ts), one each: a
// record is read alike in a list and by id (both forms' fields are in one documented shape). A
// record fetched by id is checked against it; a list page that fails its plain check is parsed by
// its list schema, whose issues name what is wrong; the agents' tools declare their output with them.
import { compiledObject, listOf, recordSchema } from '../schemas.js';
import type * as z from 'zod/mini';
import { RESOURCE_NAMES, type ResourceName } from '../resources.js';
import type { ShapeType } from '../shape.js';
import { ITEM_SHAPES } from './shapes.js';

/** Each resource's schema, made from its documented shape (api/shapes.ts). */
export const RESOURCE_SCHEMAS = Object.fromEntries(
  RESOURCE_NAMES.map((resource) => [resource, recordSchema(ITEM_SHAPES[resource])]),
) as { readonly [R in ResourceName]: z.ZodMiniType<ShapeType<(typeof ITEM_SHAPES)[R]>> };

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

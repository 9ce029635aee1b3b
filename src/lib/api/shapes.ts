// The records lists print, as shapes (shape.ts): what their zod schemas in schemas.ts check, written
// out so that a list checks its pages without loading zod. test/unit/shapes.test.ts holds each one
// to its schema (shapeOf), so the two cannot drift apart.
import type { Shape } from '../shape.js';

const MERGED = { optional: { array: { object: { id: 'string', name: 'string' } } } } as const;
const PRODUCTS = {
  optional: { array: { object: { name: 'string', upc: 'string', release_date: 'string', artists: { array: 'string' }, source: 'string', store: 'string' } } },
} as const;
const optionalString = { optional: 'string' } as const;

export const PROJECT_SHAPE: Shape = { object: { id: 'string', name: 'string', created_at: 'string', organization_id: 'string' } };

const ARTIST: Shape = { object: { id: 'string', name: 'string', project_id: 'string', merged: MERGED } };

/** The list record of each catalog resource (RESOURCES in catalog.ts). */
export const ITEM_SHAPES = {
  contracts: { object: { id: 'string', name: 'string', project_id: 'string', created_at: 'string', file_name: optionalString, file_type: optionalString } },
  statements: {
    object: {
      id: 'int',
      file_name: optionalString,
      file_type: optionalString,
      file_size: { optional: 'int' },
      statement_name: optionalString,
      statement_type: optionalString,
      statement_category: optionalString,
      statement_producer: optionalString,
      processing_status: optionalString,
      upload_status: optionalString,
      approval_status: optionalString,
      has_revenues: { optional: 'boolean' },
      has_costs: { optional: 'boolean' },
      has_summary: { optional: 'boolean' },
      currency_transaction: optionalString,
      currency_royalty: optionalString,
      entity_id: optionalString,
      created_at: optionalString,
      processed_at: optionalString,
    },
  },
  entities: {
    object: {
      id: 'string',
      internal_uuid: 'string',
      name: 'string',
      email: optionalString,
      phone: optionalString,
      address: optionalString,
      shorthand: optionalString,
      division_of: optionalString,
      project_id: 'string',
      created_at: 'string',
      updated_at: 'string',
      merged: MERGED,
    },
  },
  relations: {
    object: {
      id: 'string',
      name: 'string',
      email: optionalString,
      phone: optionalString,
      department: optionalString,
      created_at: 'string',
      updated_at: 'string',
      merged: { optional: { array: { object: { id: 'string', name: 'string', merged_at: 'string' } } } },
    },
  },
  artists: ARTIST,
  writers: ARTIST,
  recordings: {
    object: {
      id: 'string',
      name: 'string',
      duration_ms: 'int',
      type: 'string',
      artists: { array: 'string' },
      created_at: 'string',
      updated_at: 'string',
      products: PRODUCTS,
    },
  },
  compositions: {
    object: {
      id: 'string',
      name: 'string',
      type: 'string',
      writers: { array: 'string' },
      artists: { array: 'string' },
      created_at: 'string',
      updated_at: 'string',
      products: PRODUCTS,
    },
  },
} as const satisfies Record<string, Shape>;

/** The fields an object shape names (what `--fields` may name of a record). */
export function shapeFields(shape: Shape): string[] {
  return typeof shape === 'object' && 'object' in shape ? Object.keys(shape.object) : [];
}

// The service's records, as shapes (shape.ts): the one definition of each. A list checks its pages
// with them without loading zod; schemas.ts builds their zod schemas from them (schemaOf), which
// word what is wrong with a page that fails, check a record fetched by id and describe the agents'
// tools; and their types are ShapeType of them.
import type { Shape } from '../shape.js';

const MERGED = { optional: { array: { object: { id: 'string', name: 'string' } } } } as const;
export const PRODUCT_SHAPE = {
  object: { name: 'string', upc: 'string', release_date: 'string', artists: { array: 'string' }, source: 'string', store: 'string' },
} as const satisfies Shape;
const PRODUCTS = { optional: { array: PRODUCT_SHAPE } } as const;
const optionalString = { optional: 'string' } as const;

export const PROJECT_SHAPE = { object: { id: 'string', name: 'string', created_at: 'string', organization_id: 'string' } } as const satisfies Shape;

const ARTIST = { object: { id: 'string', name: 'string', project_id: 'string', merged: MERGED } } as const satisfies Shape;

/** The list record of each catalog resource (RESOURCES in catalog.ts). */
export const ITEM_SHAPES = {
  // Each include (--include) adds one key of that name holding an array, loosely specified. The file's
  // name and type are the deployed service's (SERVICE-NOW.md); a service of the seed's time leaves them out.
  contracts: { object: { id: 'string', name: 'string', project_id: 'string', created_at: 'string', file_name: optionalString, file_type: optionalString } },
  // Unprocessed statements lack derived fields, so everything but the id and the file is optional.
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

/** A statement fetched by id: its list record and a few fields more. */
export const STATEMENT_DETAIL_SHAPE = {
  object: {
    ...ITEM_SHAPES.statements.object,
    statement_desc: optionalString,
    statement_subtype: optionalString,
    statement_version: optionalString,
    has_summary_lines: { optional: 'boolean' },
    modified_at: optionalString,
  },
} as const satisfies Shape;

/** The fields an object shape names (what `--fields` may name of a record). */
export function shapeFields(shape: Shape): string[] {
  return typeof shape === 'object' && 'object' in shape ? Object.keys(shape.object) : [];
}

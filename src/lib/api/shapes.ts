// The service's records, as shapes (shape.ts): the one definition of each. A shape here says what
// pds reads and draws, in every form the documents give (the spec form's and the deployed service's,
// docs/service.md, "Records"), not what the service must send:
// - what a command needs of a record is its `id` (a string or a number): pds checks only that
//   (RECORD_SHAPE), and lets every other field through as it came (absent, null, another type, new);
// - the documented form of every other field is kept for `--verbose`, which says once per field
//   when an answer differs from it (drift.ts), for `--fields` and the CSV columns (every documented
//   field, in this order), and for the agents' tool descriptions.
// schemas.ts builds the zod schemas of what is checked; the record types are ShapeType of the
// documented shapes (every field but the id optional and nullable).
import type { Shape } from '../shape.js';
import { CONTRACT_INCLUDES, type ContractInclude } from '../vocabulary.js';
import type { ResourceName } from '../resources.js';

/** A record's id: a string (the spec form, and projects everywhere) or a number (the deployed service). */
export const ID_SHAPE = { union: ['string', 'int'] } as const satisfies Shape;

/** A documented field that may be missing or null. */
const maybe = <S extends Shape>(shape: S) => ({ optional: { nullable: shape } }) as const;
const text = maybe('string');
const number = maybe('number');
const flag = maybe('boolean');
const anyObject = maybe({ object: {} });
const strings = maybe({ array: 'string' });
/** An id that came as a string (the spec form) or a number (deployed), where it may be left out. */
const someId = maybe(ID_SHAPE);

/** People named in a record: the spec form's names, or the deployed service's objects with a `name`. */
const NAMES = maybe({ array: { union: ['string', { object: { name: 'string' } }] } });
/** People with their part: `{id?, name, role}` (entities' artists, recordings' creators). */
const ROLES = maybe({ array: { object: { name: text, role: text } } });
/** Duplicates merged into a record (`includeMerged`). */
const MERGED = maybe({ array: { object: { id: ID_SHAPE, name: text, merged_at: text } } });
/** ISRCs or ISWCs: `[{type, value, source}]`. */
const IDENTIFIERS = maybe({ array: { object: { type: text, value: text, source: text } } });

/** Who a party is and how to reach it: the first fields of an entity and of a relation. */
const CONTACT = { internal_uuid: text, name: text, email: text, phone: text } as const;

const PRODUCT_SHAPE = {
  object: { name: text, upc: text, release_date: text, artists: NAMES, source: text, store: text },
} as const satisfies Shape;
const PRODUCTS = maybe({ array: PRODUCT_SHAPE });

// A project's id is a UUID string in both documents, and commands pass it on as the projectId.
export const PROJECT_SHAPE = {
  object: {
    id: 'string',
    name: text,
    created_at: text,
    updated_at: text,
    organization_id: text,
    entity_name: text,
    billing_type: text,
    user_id: someId,
    live: flag,
    archived: flag,
  },
} as const satisfies Shape;

const PERSON = {
  object: {
    id: ID_SHAPE,
    internal_uuid: text,
    name: text,
    project_id: text,
    created_at: text,
    updated_at: text,
    merged: MERGED,
  },
} as const satisfies Shape;

/** The spec form's contract carries each requested include as a top-level key holding an array. */
const TOP_LEVEL_INCLUDES = Object.fromEntries(CONTRACT_INCLUDES.map((name) => [name, maybe({ array: 'unknown' })])) as {
  readonly [name in ContractInclude]: ReturnType<typeof maybe<{ array: 'unknown' }>>;
};

/** The record of each catalog resource (defined in lib/resources.ts), in a list and fetched by id. */
export const ITEM_SHAPES = {
  // The spec form's contract has a name and one top-level key per include; the deployed one is named by
  // its file and holds its includes under `extractions` (views.ts reads both).
  contracts: {
    object: {
      id: ID_SHAPE,
      internal_uuid: text,
      name: text,
      file_name: text,
      file_type: text,
      project_id: text,
      created_at: text,
      tags: strings,
      extractions: maybe({ record: maybe({ array: 'unknown' }) }),
      custom_extractions: maybe({ array: { object: { id: ID_SHAPE, extractor_name: text } } }),
      score: maybe({ object: { summary: anyObject, triggered_rules: maybe({ array: anyObject }) } }),
      ...TOP_LEVEL_INCLUDES,
    },
  },
  // The spec form's list and single-item fields together with the deployed service's: an unprocessed
  // statement lacks the derived ones.
  statements: {
    object: {
      id: ID_SHAPE,
      staging_id: someId,
      file_name: text,
      file_type: text,
      file_size: number,
      statement_name: text,
      statement_desc: text,
      statement_type: text,
      statement_category: text,
      statement_subtype: text,
      statement_producer: text,
      statement_version: text,
      processing_status: text,
      extraction_stage: text,
      upload_status: text,
      approval_status: text,
      has_revenues: flag,
      has_costs: flag,
      has_summary: flag,
      has_summary_lines: flag,
      accounting_period: text,
      target_period: text,
      currency_transaction: text,
      currency_royalty: text,
      payee: text,
      payor: text,
      tags: strings,
      entity_id: someId,
      financials: maybe({
        object: { currency: text, period: text, licensee_revenue: number, licensor_revenue: number },
      }),
      statement_summary: maybe({ object: { summary: strings } }),
      detailed: maybe({ object: { csv_url: 'string', file_name: text, row_count: number } }),
      detailed_error: text,
      score: maybe({ object: { summary: anyObject, triggered_rules: maybe({ array: anyObject }) } }),
      created_at: text,
      processed_at: text,
      modified_at: text,
    },
  },
  entities: {
    object: {
      id: ID_SHAPE,
      ...CONTACT,
      address: text,
      shorthand: text,
      division_of: someId,
      project_id: text,
      artists: ROLES,
      writers: ROLES,
      relations: ROLES,
      created_at: text,
      updated_at: text,
      merged: MERGED,
    },
  },
  relations: {
    object: {
      id: ID_SHAPE,
      ...CONTACT,
      department: text,
      created_at: text,
      updated_at: text,
      merged: MERGED,
    },
  },
  artists: PERSON,
  writers: PERSON,
  recordings: {
    object: {
      id: ID_SHAPE,
      internal_uuid: text,
      name: text,
      identifiers: IDENTIFIERS,
      artists: NAMES,
      creators: ROLES,
      duration_ms: number,
      type: text,
      release_date: text,
      created_at: text,
      updated_at: text,
      products: PRODUCTS,
    },
  },
  compositions: {
    object: {
      id: ID_SHAPE,
      name: text,
      identifiers: IDENTIFIERS,
      writers: NAMES,
      artists: NAMES,
      creators: ROLES,
      type: text,
      created_at: text,
      updated_at: text,
      products: PRODUCTS,
    },
  },
} as const satisfies Record<ResourceName, Shape>;

/**
 * What pds checks of every record: an object with an `id`, a string or a number. Every other field
 * passes as it came; the documented shapes above describe them.
 */
export const RECORD_SHAPE = { object: { id: ID_SHAPE } } as const satisfies Shape;
/** What pds checks of a project: its id, the UUID every project-scoped request names. */
export const PROJECT_RECORD_SHAPE = { object: { id: 'string' } } as const satisfies Shape;

/** The fields an object shape names (what `--fields` may name of a record). */
export function shapeFields(shape: Shape): string[] {
  return typeof shape === 'object' && 'object' in shape ? Object.keys(shape.object) : [];
}

// zod schemas for every resource and envelope of the service (SPEC sections 2, 4, 6, 7).
// Shared by the client (to parse responses) and the emulator's tests (to check what it serves).
// Objects are loose: a newer service may add fields, and `--json` must pass them through.
// zod/mini: the same validators as classic zod, tree-shakable, so parsing costs next to nothing at
// start-up (classic zod adds ~60 ms to every run; measured in scripts/bench.js's notes).
import * as z from 'zod/mini';
import { $constructor, $ZodObjectJIT, type $ZodObject } from 'zod/v4/core';
import { checkOf, type Check, type Shape, type ShapeType } from './shape.js';
import { ITEM_SHAPES, PRODUCT_SHAPE, PROJECT_SHAPE, STATEMENT_DETAIL_SHAPE } from './api/shapes.js';
export { CONTRACT_INCLUDES, EXTRACTIONS, type ContractInclude, type ExtractionName } from './vocabulary.js';

export { UUID_PATTERN } from './vocabulary.js';
import { UUID_PATTERN } from './vocabulary.js';
export const uuid = z.string().check(z.regex(UUID_PATTERN, 'must be a UUID'));

// The records are defined once, as shapes (api/shapes.ts); their schemas are built from them.
export const Project = schemaOf(PROJECT_SHAPE);
export type Project = z.infer<typeof Project>;
export const Entity = schemaOf(ITEM_SHAPES.entities);
export type Entity = z.infer<typeof Entity>;
export const Statement = schemaOf(ITEM_SHAPES.statements);
export type Statement = z.infer<typeof Statement>;
export const StatementDetail = schemaOf(STATEMENT_DETAIL_SHAPE);
export type StatementDetail = z.infer<typeof StatementDetail>;
export const Contract = schemaOf(ITEM_SHAPES.contracts);
export type Contract = z.infer<typeof Contract>;
export const Product = schemaOf(PRODUCT_SHAPE);
export type Product = z.infer<typeof Product>;
export const Composition = schemaOf(ITEM_SHAPES.compositions);
export type Composition = z.infer<typeof Composition>;
export const Recording = schemaOf(ITEM_SHAPES.recordings);
export type Recording = z.infer<typeof Recording>;
export const Relation = schemaOf(ITEM_SHAPES.relations);
export type Relation = z.infer<typeof Relation>;
export const Artist = schemaOf(ITEM_SHAPES.artists);
export type Artist = z.infer<typeof Artist>;
export const Writer = Artist;
export type Writer = Artist;

// Search: the spec's array of {type, id, name, score}, or the drifted object keyed by resource type
// whose matches carry a rank instead of a score (CLI.md, "Tolerance").
export const SearchResult = z.looseObject({
  type: z.string(),
  id: z.string(),
  name: z.string(),
  score: z.number(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchMatch = z.looseObject({
  id: z.pipe(z.union([z.string(), z.number()]), z.transform(String)),
  name: z.string(),
  matched_keywords: z.optional(z.array(z.string())),
  is_metadata_match: z.optional(z.boolean()),
  rank: z.optional(z.number()),
});
export const SearchByType = z.record(z.string(), z.array(SearchMatch));
/** A project search's answer: the spec's array, or the drifted object keyed by type. */
export const SearchData = z.union([z.array(SearchResult), SearchByType]);

export const ContractUpload = z.looseObject({
  staging_id: z.int(),
  staging_stage: z.string(),
  staging_done: z.boolean(),
  extractions_done: z.boolean(),
  created_at: z.string(),
});
export const StatementUpload = z.looseObject({
  staging_id: z.int(),
  staging_stage: z.string(),
  staging_done: z.boolean(),
  processing_done: z.boolean(),
  created_at: z.string(),
});
export type ContractUpload = z.infer<typeof ContractUpload>;
export type StatementUpload = z.infer<typeof StatementUpload>;


const StagingProcesses = z.looseObject({
  stage: z.string(),
  info: z.record(z.string(), z.unknown()),
});

export const Extraction = z.looseObject({
  name: z.string(),
  status: z.string(),
  completed_at: z.nullable(z.string()),
});
export type Extraction = z.infer<typeof Extraction>;

export const ContractProcesses = z.looseObject({
  staging_id: z.int(),
  contract_id: z.nullable(z.int()),
  staging_done: z.boolean(),
  extraction_done: z.boolean(),
  staging_processes: StagingProcesses,
  extraction_processes: z.nullable(
    z.looseObject({
      stage: z.string(),
      extractions: z.array(Extraction),
    }),
  ),
});
export type ContractProcesses = z.infer<typeof ContractProcesses>;

/**
 * Statement processes come in two forms (CLI.md, "Tolerance"): the spec's `processing_done` and
 * `processing_processes: {status, stage, remarks}`, or a newer service's `extraction_done` and
 * `extraction_processes: {stage, step, remarks}` with `staging_terminal`, `requires_action` and
 * `available_actions`. Either is accepted; commands read them through statementRun().
 */
export const StatementProcesses = z.looseObject({
  staging_id: z.int(),
  statement_id: z.nullable(z.int()),
  staging_done: z.boolean(),
  processing_done: z.optional(z.boolean()),
  staging_processes: StagingProcesses,
  processing_processes: z.optional(
    z.nullable(
      z.looseObject({
        status: z.string(),
        stage: z.int(),
        remarks: z.record(z.string(), z.unknown()),
      }),
    ),
  ),
  extraction_done: z.optional(z.boolean()),
  extraction_processes: z.optional(
    z.nullable(
      z.looseObject({
        stage: z.string(),
        step: z.optional(z.nullable(z.number())),
        remarks: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
      }),
    ),
  ),
  staging_terminal: z.optional(z.boolean()),
  requires_action: z.optional(z.boolean()),
  available_actions: z.optional(z.array(z.unknown())),
});
export type StatementProcesses = z.infer<typeof StatementProcesses>;

// ---- the deployed service beyond the spec (SERVICE-NOW.md) ----

/** The mint of the signed-URL upload: a staging record and where to PUT the bytes. */
export const UploadMint = z.looseObject({ staging_id: z.int(), upload_url: z.string(), file_path: z.optional(z.string()) });
export type UploadMint = z.infer<typeof UploadMint>;

/** The answer of `…/uploads/complete`. */
export const UploadComplete = z.looseObject({
  staging_id: z.int(),
  status: z.string(),
  context_applied: z.optional(z.boolean()),
  snapshot_hash: z.optional(z.nullable(z.string())),
  enqueued: z.optional(z.nullable(z.boolean())),
  paused: z.optional(z.nullable(z.boolean())),
});
export type UploadComplete = z.infer<typeof UploadComplete>;

/** The answer of `…/staging/{id}/retry`. */
export const StagingRetry = z.looseObject({
  staging_id: z.int(),
  status: z.string(),
  enqueued: z.optional(z.nullable(z.boolean())),
  current_count: z.optional(z.nullable(z.number())),
  limit: z.optional(z.nullable(z.number())),
});
export type StagingRetry = z.infer<typeof StagingRetry>;

export const Tag = z.looseObject({ id: z.union([z.int(), z.string()]), tag: z.string(), scope: z.optional(z.string()), usage_count: z.optional(z.int()) });
export type Tag = z.infer<typeof Tag>;
export const TagsPut = z.looseObject({ resource_id: z.union([z.int(), z.string()]), scope: z.string(), tags: z.array(Tag) });
export type TagsPut = z.infer<typeof TagsPut>;

export const StatementUpdate = z.looseObject({
  id: z.int(),
  tags: z.optional(z.nullable(z.array(z.string()))),
  payee: z.optional(z.nullable(z.string())),
  payor: z.optional(z.nullable(z.string())),
  accounting_period: z.optional(z.nullable(z.string())),
  target_period: z.optional(z.nullable(z.string())),
  currency_tx: z.optional(z.nullable(z.string())),
  currency: z.optional(z.nullable(z.string())),
});
export type StatementUpdate = z.infer<typeof StatementUpdate>;

export const KnowledgeNode = z.looseObject({
  id: z.union([z.string(), z.int()]),
  kind: z.string(),
  name: z.string(),
  summary: z.optional(z.nullable(z.string())),
  rank: z.optional(z.nullable(z.number())),
  claims: z.optional(z.array(z.looseObject({ predicate: z.string(), value: z.optional(z.unknown()) }))),
  relationships: z.optional(
    z.array(z.looseObject({ edge_type: z.string(), direction: z.optional(z.string()), node: z.looseObject({ id: z.union([z.string(), z.int()]), kind: z.string(), name: z.string() }) })),
  ),
  updated_at: z.optional(z.nullable(z.string())),
});
export type KnowledgeNode = z.infer<typeof KnowledgeNode>;
export const KnowledgeResults = z.looseObject({ results: z.array(KnowledgeNode), freshness: z.optional(z.unknown()) });

export const SandboxSession = z.looseObject({ sandboxId: z.string(), status: z.string() });
export const SandboxDisconnected = z.looseObject({ status: z.string() });
export const SandboxFile = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('directory'), entries: z.array(z.string()) }),
  z.looseObject({ type: z.literal('file'), content: z.string() }),
]);
export type SandboxFile = z.infer<typeof SandboxFile>;
export const ExecResult = z.looseObject({
  command: z.string(),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.int(),
});
export type ExecResult = z.infer<typeof ExecResult>;

export const UploadProgressEvent = z.looseObject({
  bytesUploaded: z.int(),
  bytesTotal: z.int(),
  percent: z.int(),
});
export type UploadProgressEvent = z.infer<typeof UploadProgressEvent>;

// Paged envelope of statements, compositions, recordings, relations (and, after drift, any list).
export const paged = <T extends z.ZodMiniType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    total_count: z.int(),
    page: z.int(),
    per_page: z.int(),
  });

/** A service may send any list as a plain array or as the paged envelope; both are accepted. */
export function listOf<T extends z.ZodMiniType>(item: T) {
  return z.union([z.array(item), paged(item)]);
}

/** `GET /v1/projects`, made once (see envelopeOf in http.ts for why). */
export const ProjectList = listOf(Project);

// Every successful body is {data: …}.
export const envelope = <T extends z.ZodMiniType>(data: T) => z.looseObject({ data });

// {"error": {"message": "…"}} or field-level details {"error": {"field": ["…"]}}.
export const ErrorBody = z.looseObject({
  error: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/**
 * The answer of `GET /v1/{contracts|statements}/{id}/download`, a deployed endpoint outside the
 * spec: a signed URL on a storage host, which expires after `expiresIn` seconds.
 */
export const DownloadLink = z.looseObject({
  url: z.string(),
  fileName: z.optional(z.nullable(z.string())),
  fileType: z.optional(z.nullable(z.string())),
  expiresIn: z.optional(z.nullable(z.number())),
});
export type DownloadLink = z.infer<typeof DownloadLink>;

const compiledParser: $constructor<$ZodObject> = $ZodObjectJIT;
const miniMethods: $constructor<z.ZodMiniType> = z.ZodMiniType;
const CompiledObject = $constructor<$ZodObject>('PdsCompiledObject', (inst, def) => {
  compiledParser.init(inst, def);
  miniMethods.init(inst as unknown as z.ZodMiniType, def);
});

/**
 * The same object schema, parsed by zod's compiled object parser (the one classic zod uses; zod/mini
 * leaves it out to stay small). It checks the same and returns the same value, key order included.
 * Lists use it for their records: mini's parser walks the shape with ~860 bytes of garbage per
 * record, which made half of all an `--all` allocated and, through the collections it caused, grew
 * V8's young generation with the record count; the compiled one makes ~170.
 */
export function compiledObject<T extends z.ZodMiniType>(schema: T): T {
  const def = schema._zod.def as unknown as $ZodObject['_zod']['def'];
  if (def.type !== 'object') throw new Error(`compiledObject: a ${def.type} schema, not an object`);
  return new CompiledObject({ ...def }) as unknown as T;
}

const plainChecks = new WeakMap<z.ZodMiniType, Check | null>();

/**
 * The same check as the schema's, as a plain function over the value as it is, or null when the
 * schema does more than check (a transform, a default, a pattern): zod's parse copies every
 * object it passes, which over an `--all` of 100,000 records made a third of the garbage and most
 * of the parsing. An answer that passes is used as sent; one that fails goes through zod, whose
 * issues name what is wrong. Objects are loose (unknown fields pass), as every schema here is.
 */
export function plainCheck(schema: z.ZodMiniType): Check | null {
  let check = plainChecks.get(schema);
  if (check === undefined) {
    const shape = shapeOf(schema);
    check = shape === null ? null : checkOf(shape);
    plainChecks.set(schema, check);
  }
  return check;
}

/** The zod schema of a shape: what it checks, with zod's words for what is wrong. */
export function schemaOf<S extends Shape>(shape: S): z.ZodMiniType<ShapeType<S>> {
  return buildSchema(shape) as unknown as z.ZodMiniType<ShapeType<S>>;
}

// A function declaration, not a table: the records above are built while this module loads.
function buildSchema(shape: Shape): z.ZodMiniType {
  if (shape === 'string') return z.string();
  if (shape === 'boolean') return z.boolean();
  if (shape === 'unknown') return z.unknown();
  if (shape === 'int') return z.int();
  if (shape === 'number') return z.number();
  if ('literal' in shape) return z.literal(shape.literal);
  if ('optional' in shape) return z.optional(buildSchema(shape.optional));
  if ('nullable' in shape) return z.nullable(buildSchema(shape.nullable));
  if ('array' in shape) return z.array(buildSchema(shape.array));
  if ('union' in shape) return z.union(shape.union.map(buildSchema));
  if ('record' in shape) return z.record(z.string(), buildSchema(shape.record));
  return z.looseObject(Object.fromEntries(Object.entries(shape.object).map(([field, inner]) => [field, buildSchema(inner)])));
}

/** What the schema checks, as plain data (shape.ts), or null when it does more than check. */
export function shapeOf(schema: z.ZodMiniType): Shape | null {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string; checks?: unknown[] };
  const inner = (key: string): Shape | null => shapeOf(def[key] as z.ZodMiniType);
  switch (def.type) {
    case 'string':
      return def.checks?.length ? null : 'string';
    case 'boolean':
      return 'boolean';
    case 'unknown':
      return 'unknown';
    case 'literal': {
      const values = def.values as unknown[];
      return values.length === 1 && typeof values[0] === 'string' ? { literal: values[0] } : null;
    }
    case 'number':
      if (def.format === 'safeint') return 'int';
      return def.checks?.length || def.format !== undefined ? null : 'number';
    case 'optional':
    case 'nullable': {
      const shape = inner('innerType');
      if (shape === null) return null;
      return def.type === 'optional' ? { optional: shape } : { nullable: shape };
    }
    case 'array': {
      const shape = inner('element');
      return shape && { array: shape };
    }
    case 'union': {
      const shapes = (def.options as z.ZodMiniType[]).map(shapeOf);
      return shapes.some((shape) => shape === null) ? null : { union: shapes as Shape[] };
    }
    case 'record': {
      const key = def.keyType as z.ZodMiniType;
      const shape = inner('valueType');
      if (!shape || key._zod.def.type !== 'string' || (key._zod.def as { checks?: unknown[] }).checks?.length) return null;
      return { record: shape };
    }
    case 'object': {
      const catchall = def.catchall as z.ZodMiniType | undefined;
      if (catchall === undefined || catchall._zod.def.type !== 'unknown') return null;
      const fields: Record<string, Shape> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodMiniType>)) {
        const shape = shapeOf(field);
        if (shape === null) return null;
        fields[key] = shape;
      }
      return { object: fields };
    }
    default:
      return null;
  }
}

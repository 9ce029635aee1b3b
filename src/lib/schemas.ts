// zod schemas for the envelopes of the service and the records outside the catalog (the catalog's
// resources are api/catalog-schemas.ts's, made by recordSchema) (docs/service.md, "Records").
// Shared by the client (to parse responses) and the emulator's tests (to check what it serves).
// Objects are loose: a newer service may add fields, and `--json` must pass them through.
// zod/mini: the same validators as classic zod, tree-shakable, so parsing costs next to nothing at
// start-up (classic zod adds ~60 ms to every run; measured in scripts/bench.js's notes).
import * as z from 'zod/mini';
import { $constructor, $ZodObjectJIT, type $ZodObject, type $ZodType, type $ZodTypes } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import { checkOf, type Check, type Shape, type ShapeType } from './shape.js';
import { PROJECT_SHAPE } from './api/shapes.js';
export { CONTRACT_INCLUDES, EXTRACTIONS, type ContractInclude, type ExtractionName } from './vocabulary.js';

/**
 * Parse options that word every issue in English whatever else in the process set zod's locale
 * (classic zod, which the MCP SDK loads, sets its own): one answer, one message, in every verb.
 */
export const IN_ENGLISH = { error: en().localeError };

/** The first issues of a failed parse as `path: message` lines, for an error's details. */
export function issueLines(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string[] {
  return error.issues.slice(0, 5).map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`);
}

export { UUID_PATTERN } from './vocabulary.js';
import { UUID_PATTERN } from './vocabulary.js';
export const uuid = z.string().check(z.regex(UUID_PATTERN, 'must be a UUID'));

/**
 * What pds accepts of a record of a documented shape (api/shapes.ts): its `id`, a string or a
 * number, checked; every documented field named, of any type (so the agents' tools list them), and
 * any other field kept. Typed as the documented form, whose fields are all optional and nullable.
 */
export function recordSchema<S extends { object: { readonly id: Shape; readonly [field: string]: Shape } }>(
  documented: S,
): z.ZodMiniType<ShapeType<S>> {
  const fields = Object.fromEntries(
    Object.keys(documented.object).map((field): [string, Shape] => [
      field,
      field === 'id' ? documented.object.id : { optional: 'unknown' },
    ]),
  );
  // Each field but the id is checked as unknown: typed as documented, as the records are read.
  return buildSchema({ object: fields }) as z.ZodMiniType<ShapeType<S>>;
}

export const Project = recordSchema(PROJECT_SHAPE);
export type Project = z.infer<typeof Project>;

const anyId = z.union([z.string(), z.int()]);

// Search: the spec's array of {type, id, name, score}, or the drifted object keyed by resource type
// whose matches carry a rank instead of a score (docs/service.md, "Tolerance"); the deployed service's
// contracts are named by `matched_file_name`. A match needs its id; the rest is drawn as it came.
export const SearchResult = z.looseObject({ id: anyId });
export type SearchResult = z.infer<typeof SearchResult>;
/** The grouped form: each group a list of matches; a group may be null, and a key that is no list is not a group. */
export const SearchByType = z.record(z.string(), z.unknown());
/** A project search's answer: the spec's array, or the drifted object keyed by type. */
export const SearchData = z.union([z.array(SearchResult), SearchByType]);

// The seed's multipart upload answers (docs/service.md, "Uploads"): pds acts on the staging id (it polls it) and
// the stage (a paused upload is reported so); the rest is shown as sent.
export const ContractUpload = z.looseObject({ staging_id: z.int(), staging_stage: z.string() });
export const StatementUpload = ContractUpload;
export type ContractUpload = z.infer<typeof ContractUpload>;
export type StatementUpload = z.infer<typeof StatementUpload>;

// Processes (docs/service.md, "Processes"): what `status`, `--watch` and `--wait` act on is
// the staging stage, so only that is checked; ids, the extraction or processing run and the
// deployed service's fields may come in any form, and commands read them through
// documents/processes.ts, which copes with each (docs/service.md, "Tolerance").
const StagingProcesses = z.looseObject({ stage: z.string() });

export const ContractProcesses = z.looseObject({ staging_processes: StagingProcesses });
export type ContractProcesses = z.infer<typeof ContractProcesses>;

/** Either form: the spec's `processing_*` or the deployed `extraction_*` (see statementRun). */
export const StatementProcesses = z.looseObject({ staging_processes: StagingProcesses });
export type StatementProcesses = z.infer<typeof StatementProcesses>;

/** One extraction of a contract's run, as processes.ts reads it from whatever the service sent. */
export interface Extraction {
  name: string;
  status: string;
  completed_at: string | null;
}

// ---- the deployed service beyond the spec (docs/service.md) ----

// Uploads and retries: what pds acts on (the staging id it polls, the URL it PUTs to, the status it
// reports) is checked field by field in api/documents.ts, which says which field of which answer was
// wrong; everything else is kept as sent (the deployed service's counts, snapshot hash, new fields).

/** The mint of the signed-URL upload: a staging record and where to PUT the bytes. */
export type UploadMint = { staging_id: number; upload_url: string } & Record<string, unknown>;

/** The answer of `…/uploads/complete` (`enqueued`, `paused`: counts on the deployed service). */
export type UploadComplete = { staging_id: number; status: string } & Record<string, unknown>;

/** The answer of `…/staging/{id}/retry` (`enqueued`, `current_count`, `limit`: numbers or null). */
export type StagingRetry = { staging_id: number; status: string } & Record<string, unknown>;
/** The MCP retry tool's output: the two fields pds reads, the rest as sent. */
export const StagingRetry = z.looseObject({ staging_id: z.union([z.int(), z.string()]), status: z.string() });

/** A tag: pds acts on its id and its text (`tag --add` merges with the tags a record has); the rest is shown as sent. */
export const Tag = z.looseObject({ id: z.union([z.int(), z.string()]), tag: z.string() });
export type Tag = z.infer<typeof Tag>;
export const TagsPut = z.looseObject({
  resource_id: z.union([z.int(), z.string()]),
  scope: z.string(),
  tags: z.array(Tag),
});
export type TagsPut = z.infer<typeof TagsPut>;

/**
 * The answer of `PUT /statements/{id}`. pds needs nothing of it but the id; it shows the rest under
 * the names `statements get` uses (statements/update.ts renames currency_tx and currency), so the
 * agents' tool lists those.
 */
export const StatementUpdate = z.looseObject({
  id: z.union([z.string(), z.int()]),
  tags: z.optional(z.unknown()),
  payee: z.optional(z.unknown()),
  payor: z.optional(z.unknown()),
  accounting_period: z.optional(z.unknown()),
  target_period: z.optional(z.unknown()),
  currency_transaction: z.optional(z.unknown()),
  currency_royalty: z.optional(z.unknown()),
});
export type StatementUpdate = z.infer<typeof StatementUpdate>;

/**
 * A node of the knowledge graph. pds acts on its id (and filters by `kind`, which a node without one
 * never matches); every other field is shown as sent (docs/service.md lists them).
 */
export const KnowledgeNode = z.looseObject({ id: z.union([z.string(), z.number()]) });
export type KnowledgeNode = z.infer<typeof KnowledgeNode>;
export const KnowledgeResults = z.looseObject({ results: z.array(KnowledgeNode) });

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
 * spec: a signed URL on a storage host, which expires after `expiresIn` seconds. pds follows `url`;
 * `fileName` and `fileType` name and check the file where they are strings, and are ignored otherwise.
 */
export const DownloadLink = z.looseObject({ url: z.string() });
export type DownloadLink = z.infer<typeof DownloadLink>;

const compiledParser: $constructor<$ZodObject> = $ZodObjectJIT;
const miniMethods: $constructor<z.ZodMiniType> = z.ZodMiniType;
/** An object schema that parses with the compiled parser and has mini's methods: both inits run on it. */
const CompiledObject = $constructor<$ZodObject & z.ZodMiniType>('PdsCompiledObject', (inst, def) => {
  compiledParser.init(inst, def);
  miniMethods.init(inst, def);
});

/**
 * The same object schema, parsed by zod's compiled object parser (the one classic zod uses; zod/mini
 * leaves it out to stay small). It checks the same and returns the same value, key order included.
 * Lists use it for their records: mini's parser walks the shape with ~860 bytes of garbage per
 * record, which made half of all an `--all` allocated and, through the collections it caused, grew
 * V8's young generation with the record count; the compiled one makes ~170.
 */
export function compiledObject<O>(schema: z.ZodMiniType<O>): z.ZodMiniType<O> {
  const def = schema._zod.def;
  if (def.type !== 'object') throw new Error(`compiledObject: a ${def.type} schema, not an object`);
  // An object's definition (checked above), parsed as the schema given parses: to the same type.
  return new CompiledObject({ ...(def as $ZodObject['_zod']['def']) }) as z.ZodMiniType<O>;
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
  // What buildSchema makes of a shape checks what ShapeType says of it.
  return buildSchema(shape) as z.ZodMiniType<ShapeType<S>>;
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
  return z.looseObject(
    Object.fromEntries(Object.entries(shape.object).map(([field, inner]) => [field, buildSchema(inner)])),
  );
}

/** What the schema checks, as plain data (shape.ts), or null when it does more than check. */
export function shapeOf(schema: $ZodType): Shape | null {
  // Every schema here is one of zod's own kinds, its definition named by `type` (read by it below).
  const def = schema._zod.def as $ZodTypes['_zod']['def'];
  const inner = (of: $ZodType): Shape | null => shapeOf(of);
  switch (def.type) {
    case 'string':
      return def.checks?.length ? null : 'string';
    case 'boolean':
      return 'boolean';
    case 'unknown':
      return 'unknown';
    case 'literal': {
      const values = def.values;
      return values.length === 1 && typeof values[0] === 'string' ? { literal: values[0] } : null;
    }
    case 'number': {
      // z.int() is a number of the format `safeint` (a kind zod's list of kinds leaves out).
      const format = 'format' in def ? def.format : undefined;
      if (format === 'safeint') return 'int';
      return def.checks?.length || format !== undefined ? null : 'number';
    }
    case 'optional':
    case 'nullable': {
      const shape = inner(def.innerType);
      if (shape === null) return null;
      return def.type === 'optional' ? { optional: shape } : { nullable: shape };
    }
    case 'array': {
      const shape = inner(def.element);
      return shape && { array: shape };
    }
    case 'union': {
      const shapes = def.options.map(inner);
      return shapes.some((shape) => shape === null) ? null : { union: shapes as Shape[] };
    }
    case 'record': {
      const key = def.keyType;
      const shape = inner(def.valueType);
      if (!shape || key._zod.def.type !== 'string' || key._zod.def.checks?.length) return null;
      return { record: shape };
    }
    case 'object': {
      const catchall = def.catchall;
      if (catchall === undefined || catchall._zod.def.type !== 'unknown') return null;
      const fields: Record<string, Shape> = {};
      for (const [key, field] of Object.entries(def.shape)) {
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

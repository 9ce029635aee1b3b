// The service's forms as its documents describe them, written down here from those documents and
// nowhere else: ../shared/SPEC.md section by section, and, for what SPEC.md does not describe,
// ../shared/SERVICE-NOW.md and ../shared/CLI.md ("Tolerance"). The emulator's tests read its answers
// with these, never with the client's schemas (src/lib/schemas.ts): issue 30 §3, "client and emulator
// must never only check each other". test/emulator/independence.test.ts holds that line.
//
// Strict where the document is: the types it names, the fields it requires, and no field it does
// not list (strict objects), except where it leaves room for more (a contract's further base fields,
// an include's rows, a staging check's `info`). A field SPEC.md says is omitted when null is
// optional here, never nullable: the service leaves it out rather than sending null.
import * as z from 'zod/mini';

// ---- SPEC 2, "Conventions" ----

/** "Timestamps are ISO 8601 strings": a date and a time, with `Z` or an offset. */
const timestamp = z.iso.datetime({ offset: true });
/** "Dates are `YYYY-MM-DD` strings." */
const date = z.iso.date();
/** "`projectId` and `project_id` are UUID strings" (and every field SPEC 2 types as UUID). */
const uuid = z
  .string()
  .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID'));
/** SPEC 2, Statement: "string (currency code)", the three letters of ISO 4217. */
const currency = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a three-letter currency code'));
/** SPEC 2, Statement: "string (MIME type)". */
const mimeType = z.string().check(z.regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'must be a MIME type'));

/** SPEC 2: a duplicate merged under a root entity, artist or writer. */
const MergedRef = z.strictObject({ id: z.string(), name: z.string() });
/** SPEC 2, Relation: a merged duplicate carries when it was merged. */
const MergedRelationRef = z.strictObject({ id: z.string(), name: z.string(), merged_at: timestamp });

// ---- SPEC 2, "Project" ----
export const Project = z.strictObject({
  id: uuid,
  name: z.string(),
  created_at: timestamp,
  organization_id: uuid,
});

// ---- SPEC 2, "Entity" (entities omit fields whose value is null) ----
export const Entity = z.strictObject({
  id: z.string(),
  internal_uuid: uuid,
  name: z.string(),
  email: z.optional(z.string()),
  phone: z.optional(z.string()),
  address: z.optional(z.string()),
  shorthand: z.optional(z.string()),
  division_of: z.optional(z.string()),
  project_id: uuid,
  created_at: timestamp,
  updated_at: timestamp,
  /** Only with `includeMerged=true`. */
  merged: z.optional(z.array(MergedRef)),
});

// ---- SPEC 2, "Statement" ----
// "Null fields are stripped. An unprocessed statement lacks `processed_at`, `statement_name` and
// other derived fields": every field may be absent but those a statement has from its upload on
// (its id, its file and when it came; SPEC 4.9 takes the file, its name and type at upload).
const statementListFields = {
  id: z.int(),
  file_name: z.string(),
  file_type: mimeType,
  file_size: z.optional(z.int()),
  statement_name: z.optional(z.string()),
  statement_type: z.optional(z.string()),
  statement_category: z.optional(z.string()),
  statement_producer: z.optional(z.string()),
  processing_status: z.optional(z.string()),
  upload_status: z.optional(z.string()),
  approval_status: z.optional(z.string()),
  has_revenues: z.optional(z.boolean()),
  has_costs: z.optional(z.boolean()),
  has_summary: z.optional(z.boolean()),
  currency_transaction: z.optional(currency),
  currency_royalty: z.optional(currency),
  entity_id: z.optional(uuid),
  created_at: timestamp,
  processed_at: z.optional(timestamp),
};
/** A statement in a list: "Fields in both list items and the single-item response", no others. */
export const Statement = z.strictObject(statementListFields);
/** A statement fetched by id: the list's fields and the "Fields only in the single-item response". */
export const StatementDetail = z.strictObject({
  ...statementListFields,
  statement_desc: z.optional(z.string()),
  statement_subtype: z.optional(z.string()),
  statement_version: z.optional(z.string()),
  has_summary_lines: z.optional(z.boolean()),
  modified_at: z.optional(timestamp),
});

// ---- SPEC 2, "Contract" ----
/** The include names of SPEC 2's table ("The include names and their content"). */
export const CONTRACT_INCLUDES = [
  'entities',
  'artists',
  'writers',
  'royalties',
  'splits',
  'costs',
  'compensations',
  'dates',
  'accounting-periods',
  'types',
  'signatures',
  'control-areas',
  'creative-approvals',
  'balances',
  'recordings',
  'compositions',
] as const;

// "Fields of the embedded sub-resource records: not shown beyond an `id` and a `name` on entities,
// and an `id`, a `rate` and a `type` on royalties." SPEC.md names those without types: the id is
// read as a string (as every id of SPEC 2 but a statement's), the rate as a number, the rest as
// strings; other fields of those rows, and every row of the other includes, are not shown.
const IncludedEntity = z.looseObject({ id: z.string(), name: z.string() });
const IncludedRoyalty = z.looseObject({ id: z.string(), rate: z.number(), type: z.string() });
const includeRows = Object.fromEntries(
  CONTRACT_INCLUDES.map((name) => [name, z.optional(z.array(z.unknown()))]),
) as Record<(typeof CONTRACT_INCLUDES)[number], z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniUnknown>>>;

/**
 * A contract: its four base fields and one array per requested include. Loose: "Further base
 * fields of a contract: not shown", so a field beyond these is not against the document.
 */
export const Contract = z.looseObject({
  id: z.string(),
  name: z.string(),
  project_id: uuid,
  created_at: timestamp,
  ...includeRows,
  entities: z.optional(z.array(IncludedEntity)),
  royalties: z.optional(z.array(IncludedRoyalty)),
});

// ---- SPEC 2, "Product", "Composition", "Recording" ----
export const Product = z.strictObject({
  name: z.string(),
  upc: z.string(),
  release_date: date,
  artists: z.array(z.string()),
  source: z.string(),
  store: z.string(),
});

export const Composition = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  writers: z.array(z.string()),
  artists: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  /** Only with `includeProducts=true`. */
  products: z.optional(z.array(Product)),
});

export const Recording = z.strictObject({
  id: z.string(),
  name: z.string(),
  duration_ms: z.int(),
  type: z.string(),
  artists: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  /** Only with `includeProducts=true`. */
  products: z.optional(z.array(Product)),
});

// ---- SPEC 2, "Relation" (not among the records that omit null fields: every field is a string) ----
export const Relation = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  department: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  /** Only with `includeMerged=true`. */
  merged: z.optional(z.array(MergedRelationRef)),
});

// ---- SPEC 2, "Writer (songwriter or composer) and Artist": "Both have the same shape" ----
export const Artist = z.strictObject({
  id: z.string(),
  name: z.string(),
  project_id: uuid,
  /** Only with `includeMerged=true`. */
  merged: z.optional(z.array(MergedRef)),
});
export const Writer = Artist;

// ---- SPEC 2, "Search result" (SPEC 4.1: `data` is an array of them) ----
export const SearchResult = z.strictObject({ type: z.string(), id: z.string(), name: z.string(), score: z.number() });

// ---- SPEC 2 "Upload (staging) record", 4.8 and 4.9; SPEC 3 for the stage values ----
/** SPEC 3: "`staging_stage` in an upload response (contract and statement)". */
const uploadStage = z.enum(['queued', 'processing', 'completed', 'failed']);

export const ContractUpload = z.strictObject({
  staging_id: z.int(),
  staging_stage: uploadStage,
  staging_done: z.boolean(),
  extractions_done: z.boolean(),
  created_at: timestamp,
});
export const StatementUpload = z.strictObject({
  staging_id: z.int(),
  staging_stage: uploadStage,
  staging_done: z.boolean(),
  processing_done: z.boolean(),
  created_at: timestamp,
});

// ---- SPEC 4.10 "Processing status"; SPEC 3 for the stage and status values ----
/** `info`: "object, staging check details"; SPEC.md does not show its fields. */
const stagingInfo = z.record(z.string(), z.unknown());

export const ContractProcesses = z.strictObject({
  staging_id: z.int(),
  contract_id: z.nullable(z.int()),
  staging_done: z.boolean(),
  extraction_done: z.boolean(),
  staging_processes: z.strictObject({
    stage: z.enum(['queued', 'processing', 'completed', 'failed']),
    info: stagingInfo,
  }),
  extraction_processes: z.nullable(
    z.strictObject({
      stage: z.enum(['pending', 'processing', 'completed', 'failed']),
      extractions: z.array(
        z.strictObject({ name: z.string(), status: z.string(), completed_at: z.nullable(z.string()) }),
      ),
    }),
  ),
});

export const StatementProcesses = z.strictObject({
  staging_id: z.int(),
  statement_id: z.nullable(z.int()),
  staging_done: z.boolean(),
  processing_done: z.boolean(),
  // SPEC 3: statements have no `processing` staging stage.
  staging_processes: z.strictObject({ stage: z.enum(['queued', 'completed', 'failed']), info: stagingInfo }),
  processing_processes: z.nullable(
    z.strictObject({
      status: z.enum(['processing', 'completed', 'failed']),
      stage: z.int(),
      remarks: z.record(z.string(), z.unknown()),
    }),
  ),
});

// ---- SPEC 2 "Sandbox session", 4.11 "Sandbox"; SPEC 3 for `status` ----
export const SandboxSession = z.strictObject({ sandboxId: z.string(), status: z.literal('connected') });
export const SandboxDisconnected = z.strictObject({ status: z.literal('disconnected') });
/** `files`: a directory's entries ("directory names end with `/`") or a file's content. */
export const SandboxFile = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('directory'), entries: z.array(z.string()) }),
  z.strictObject({ type: z.literal('file'), content: z.string() }),
]);
export type SandboxFile = z.infer<typeof SandboxFile>;
/** One element of exec's array, "one element per command in order". */
export const ExecResult = z.strictObject({
  command: z.string(),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.int(),
});
export type ExecResult = z.infer<typeof ExecResult>;
/** Exec's `data`: "The response is always an array, also for one command." */
export const ExecResults = z.array(ExecResult);

// ---- SPEC 6, "Upload progress stream" ----
/** The `progress` event's data; `percent` "reaches 100 when all bytes are uploaded". */
export const UploadProgressEvent = z.strictObject({
  bytesUploaded: z.int(),
  bytesTotal: z.int(),
  percent: z.int().check(z.gte(0), z.lte(100)),
});
/** The `complete` event's data: "`{data: <upload record as in 4.8 or 4.9>}`". */
export const uploadComplete = <T extends z.ZodMiniType>(record: T) => z.strictObject({ data: record });

// ---- SPEC 7, "Errors" ----
/**
 * `{"error": {"message": <string>}}`, or field-level details `{"error": {<field name>: [<string>,
 * ...]}}`: a message alone, or every key a field with a list of strings. Typed as either, so a test
 * can read `error.message` or `error[field]`.
 */
export const ErrorBody = z.strictObject({
  error: z.record(z.string(), z.union([z.string(), z.array(z.string())])).check(
    z.refine((error) => {
      const values = Object.values(error);
      if (values.length === 0) return false;
      const messageOnly = Object.keys(error).length === 1 && typeof error.message === 'string';
      return messageOnly || values.every(Array.isArray);
    }, 'must be {message: string} or {<field>: [string, ...]}'),
  ),
});

// ---- SPEC 4 "Common rules" and 1: "Every successful response body is `{"data": ...}`" ----
export const envelope = <T extends z.ZodMiniType>(data: T) => z.strictObject({ data });

// ---- SPEC 4.3, 4.5, 4.6, 8: the paged lists' `data` ----
export const paged = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({
    items: z.array(item),
    total_count: z.int(),
    page: z.int().check(z.gte(1)),
    per_page: z.int().check(z.gte(1), z.lte(100)),
  });

// ---- beyond SPEC.md: SERVICE-NOW.md and CLI.md ----

/**
 * SERVICE-NOW.md, "Records": `GET /{contracts|statements}/{id}/download` → `{url, fileName,
 * fileType, expiresIn}`: a signed link to the stored file, valid for `expiresIn` seconds.
 */
export const DownloadLink = z.strictObject({
  url: z.url(),
  fileName: z.string(),
  fileType: mimeType,
  expiresIn: z.int().check(z.gte(0)),
});

/**
 * SERVICE-NOW.md, "Records" (Statement): the deployed service's further fields of a statement, beside
 * SPEC.md's: `staging_id?`, `extraction_stage?` (its values listed there), `accounting_period?`, and
 * what `PUT /statements/{id}` sets (`tags`, `payee`, `payor`, `target_period`; `null` clears one, so
 * a cleared one is left out as SPEC.md's statements leave out nulls). For a test of a flavor that
 * adds them to SPEC.md's statement: `z.extend(StatementDetail, SERVICE_NOW_STATEMENT_FIELDS)`.
 */
export const SERVICE_NOW_STATEMENT_FIELDS = {
  staging_id: z.optional(z.int()),
  extraction_stage: z.optional(
    z.enum(['queued', 'processing', 'completed', 'failed', 'paused', 'timed_out', 'skipped']),
  ),
  accounting_period: z.optional(z.string()),
  target_period: z.optional(z.string()),
  payee: z.optional(z.string()),
  payor: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
};

/**
 * CLI.md, "Tolerance" (the drift known from a newer client), and SERVICE-NOW.md, "Processes": a
 * statement's processes as `extraction_done` and `extraction_processes: {stage, step, remarks}`,
 * with `staging_terminal`, `requires_action`, `available_actions` (and `pause_reason`); a failed
 * staging check's details under `staging_processes.info.staging_check = {status, info}`. Loose:
 * SERVICE-NOW.md's records may carry unknown fields, and the service still answers the seed's
 * forms beside these.
 */
export const DriftedStatementProcesses = z.looseObject({
  staging_id: z.int(),
  statement_id: z.nullable(z.int()),
  staging_done: z.boolean(),
  extraction_done: z.boolean(),
  staging_processes: z.looseObject({
    stage: z.string(),
    info: z.looseObject({ staging_check: z.optional(z.looseObject({ status: z.string(), info: z.unknown() })) }),
  }),
  extraction_processes: z.nullable(z.looseObject({ stage: z.string(), step: z.int(), remarks: z.unknown() })),
  staging_terminal: z.boolean(),
  requires_action: z.boolean(),
  available_actions: z.array(z.string()),
  pause_reason: z.optional(z.nullable(z.string())),
});

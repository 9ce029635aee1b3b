// The emulator's state: what the service holds, plus the bookkeeping it needs (tokens, uploads,
// sandbox sessions). Everything here is plain JSON so `--data <file>` can persist it as is.
import type { Extraction as ExtractionName, Include as ContractInclude } from './vocabulary.js';

/** A release a recording or composition appears on, as stored (docs/service.md, "Records"). */
export interface Product {
  name: string;
  upc: string;
  release_date: string;
  artists: string[];
  source: string;
  store: string;
}

export interface OrganizationRecord {
  id: string;
  name: string;
}

export interface ProjectRecord {
  id: string;
  name: string;
  created_at: string;
  organization_id: string;
  /** The entity a project created over the API is for (docs/service.md); seeded projects have none. */
  entity_name?: string;
}

/** A token reaches every project of an organization, or one project. */
export interface TokenScope {
  organization_id: string;
  project_id?: string;
}

/** Duplicates stay in the store, pointing at their root; lists show roots only. */
interface Mergeable {
  merged_into?: string;
  merged_at?: string;
}

export interface EntityRecord extends Mergeable {
  id: string;
  internal_uuid: string;
  name: string;
  email?: string;
  phone?: string;
  address?: string;
  shorthand?: string;
  division_of?: string;
  project_id: string;
  created_at: string;
  updated_at: string;
}

/** An entity's own fields, served as stored by both forms (its id, links and merges differ). */
export const ENTITY_OWN_FIELDS = ['internal_uuid', 'name', 'email', 'phone', 'address', 'shorthand'] as const;

export interface ContractParty {
  entity_id: string;
  role: 'assignee' | 'assignor';
}

export interface ContractRecord {
  id: string;
  name: string;
  project_id: string;
  created_at: string;
  /** Which entities sign the contract, and as what: drives `GET /v1/entities?roles=`. */
  parties: ContractParty[];
  /** The content of each include; an include without content is served as []. */
  includes: Partial<Record<ContractInclude, Record<string, unknown>[]>>;
  /** The staging id it came from, when it was uploaded through the emulator. */
  staging_id?: number;
  /** The uploaded file's name and MIME type (seeded contracts have none; their file is generated). */
  file_name?: string;
  file_type?: string;
  tags?: string[];
}

/** The full (single-item) statement shape; the list strips the single-only fields. */
export interface StatementRecord {
  id: number;
  file_name: string;
  file_type: string;
  file_size: number;
  statement_name?: string;
  statement_type?: string;
  statement_category?: string;
  statement_producer?: string;
  processing_status?: string;
  upload_status?: string;
  approval_status?: string;
  has_revenues?: boolean;
  has_costs?: boolean;
  has_summary?: boolean;
  currency_transaction?: string;
  currency_royalty?: string;
  entity_id?: string;
  created_at: string;
  processed_at?: string;
  statement_desc?: string;
  statement_subtype?: string;
  statement_version?: string;
  has_summary_lines?: boolean;
  modified_at?: string;
  staging_id?: number;
  // What the deployed service adds (docs/service.md): upload context and tags.
  tags?: string[];
  /** How many lines its export has (the emulator's --lines); else a number drawn from its id. */
  line_count?: number;
  payee?: string;
  payor?: string;
  accounting_period?: string;
  target_period?: string;
  folder_name?: string;
  /**
   * Fields of its financials answered as given, over those drawn from its lines (a test's amount in
   * a form pds must refuse: "1,234.56", "NaN", an object, a number past 2^53; a currency of " eur").
   */
  financials_given?: Record<string, unknown>;
}

export interface RelationRecord extends Mergeable {
  id: string;
  name: string;
  email: string;
  phone: string;
  department: string;
  created_at: string;
  updated_at: string;
}

/** A relation's own fields, served as stored by both forms. */
export const RELATION_OWN_FIELDS = ['name', 'email', 'phone', 'department', 'created_at', 'updated_at'] as const;

/** The named fields of a record, in that order (an undefined one too: the forms drop those). */
export function fieldsOf<T extends object, const K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = record[key];
  return out;
}

export interface PersonRecord extends Mergeable {
  id: string;
  name: string;
  project_id: string;
  /** Served by the deployed flavor only (the spec form's artist and writer have none). */
  created_at?: string;
}

export interface CompositionRecord {
  id: string;
  name: string;
  type: string;
  writers: string[];
  artists: string[];
  created_at: string;
  updated_at: string;
  products: Product[];
}

export interface RecordingRecord {
  id: string;
  name: string;
  duration_ms: number;
  type: string;
  artists: string[];
  created_at: string;
  updated_at: string;
  products: Product[];
  /** The composition it records (seeded ones): its writers are the recording's creators. */
  composition_id?: string;
}

export interface ProjectData {
  contracts: ContractRecord[];
  statements: StatementRecord[];
  entities: EntityRecord[];
  relations: RelationRecord[];
  artists: PersonRecord[];
  writers: PersonRecord[];
  recordings: RecordingRecord[];
  compositions: CompositionRecord[];
}

export type DocumentKind = 'contract' | 'statement';

/** One upload, from the POST until processing ends. Stages are derived from the clock. */
export interface UploadRecord {
  staging_id: number;
  kind: DocumentKind;
  project_id: string;
  file_name: string;
  file_type: string;
  file_size: number;
  created_at: string;
  /** Epoch milliseconds of the upload; the state machine advances from it. */
  created_ms: number;
  /** Why the staging check fails (e.g. no %%EOF trailer), or undefined when the file is sound. */
  staging_error?: string;
  extractions: ExtractionName[];
  /** Set once staging completes and the upload has become a contract or statement. */
  result_id?: string | number;
  /** Minted over the signed-URL flow and not completed yet: the clock has not started. */
  minted?: boolean;
  /** Why a completed upload waits for a retry (the --pause-uploads fault); the clock is stopped. */
  pause_reason?: string;
  /** The `context` sent with the mint (docs/service.md), as sent. */
  context?: UploadContext;
  folder_name?: string;
}

/**
 * A new upload's record, stamped `now`. Its staging id is taken at once, so concurrent uploads never
 * share one; a failed save leaves a gap, not a duplicate.
 */
export function newUpload(
  state: EmulatorState,
  now: number,
  file: Pick<UploadRecord, 'kind' | 'project_id' | 'file_name' | 'file_type' | 'file_size'>,
  rest: Omit<UploadRecord, keyof typeof file | 'staging_id' | 'created_at' | 'created_ms'>,
): UploadRecord {
  return {
    staging_id: state.next_staging_id++,
    ...file,
    created_at: new Date(now).toISOString(),
    created_ms: now,
    ...rest,
  };
}

/** The context of a signed-URL upload, as the service takes it. */
export interface UploadContext {
  accountingPeriod?: { value: string };
  targetPeriod?: { value: string };
  currencyRoyalty?: string;
  currencyTransaction?: string;
  payee?: string;
  payor?: string;
  classification?: { scenarioFamily: string; targetFamily: string };
  tags?: string[];
}

export interface EmulatorState {
  organizations: OrganizationRecord[];
  projects: ProjectRecord[];
  tokens: Record<string, TokenScope>;
  data: Record<string, ProjectData>;
  uploads: UploadRecord[];
  next_staging_id: number;
  next_statement_id: number;
  /** Connected sandboxes, keyed by `${token}\u0000${projectId}`, valued by sandboxId. */
  sandboxes: Record<string, string>;
}

export const emptyProjectData = (): ProjectData => ({
  contracts: [],
  statements: [],
  entities: [],
  relations: [],
  artists: [],
  writers: [],
  recordings: [],
  compositions: [],
});

/**
 * One change to the state, as the journal of `--data` records it. Each names the record it
 * replaces (or adds) whole, so applying a change twice is the same as once: a journal replayed
 * over a snapshot that already holds some of its changes comes out right.
 */
export type StateChange =
  | { upload: UploadRecord }
  | { contract: ContractRecord; project: string }
  | { statement: StatementRecord; project: string }
  | { sandbox: string; id: string | null }
  | { created_project: ProjectRecord }
  | { counters: { next_staging_id: number; next_statement_id: number } };

function upsert<T>(list: T[], record: T, same: (item: T) => boolean): void {
  // The newest records are the ones that change: search from the end.
  for (let i = list.length - 1; i >= 0; i--) {
    if (same(list[i] as T)) {
      list[i] = record;
      return;
    }
  }
  list.push(record);
}

/** Applies one change to the state (in memory, or replaying the journal). */
export function applyChange(state: EmulatorState, change: StateChange): void {
  if ('upload' in change) {
    upsert(state.uploads, change.upload, (u) => u.staging_id === change.upload.staging_id);
  } else if ('contract' in change) {
    const data = state.data[change.project];
    if (data) upsert(data.contracts, change.contract, (c) => c.id === change.contract.id);
  } else if ('statement' in change) {
    const data = state.data[change.project];
    if (data) upsert(data.statements, change.statement, (s) => s.id === change.statement.id);
  } else if ('created_project' in change) {
    upsert(state.projects, change.created_project, (p) => p.id === change.created_project.id);
    state.data[change.created_project.id] ??= emptyProjectData();
  } else if ('sandbox' in change) {
    if (change.id === null) delete state.sandboxes[change.sandbox];
    else state.sandboxes[change.sandbox] = change.id;
  } else {
    state.next_staging_id = Math.max(state.next_staging_id, change.counters.next_staging_id);
    state.next_statement_id = Math.max(state.next_statement_id, change.counters.next_statement_id);
  }
}

export const countersOf = (state: EmulatorState): StateChange => ({
  counters: { next_staging_id: state.next_staging_id, next_statement_id: state.next_statement_id },
});

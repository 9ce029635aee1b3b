// The records an upload becomes, made as the clock passes its timeline (processing.ts): a contract
// or a statement once staging completes, then what processing fills in (a contract's extracted
// includes, a statement's derived fields). `advance` applies what has happened; `track` puts an
// upload (back) under the clock.
import type { Extraction as ExtractionName, Include as ContractInclude } from './vocabulary.js';
import { iso, timeline, type Timeline } from './processing.js';
import {
  countersOf,
  type ContractRecord,
  type EmulatorState,
  type ProjectData,
  type StateChange,
  type StatementRecord,
  type UploadRecord,
} from './store.js';

/** The include each extraction fills; the other extractions have no include in the spec form. */
const EXTRACTION_INCLUDE: Partial<Record<ExtractionName, ContractInclude>> = {
  'extract-accounting-period': 'accounting-periods',
  'extract-balances': 'balances',
  'extract-compensations': 'compensations',
  'extract-control-areas': 'control-areas',
  'extract-costs': 'costs',
  'extract-creative-approvals': 'creative-approvals',
  'extract-dates': 'dates',
  'extract-language': 'languages',
  'extract-royalties': 'royalties',
  'extract-signatures': 'signatures',
  'extract-splits': 'splits',
};

/**
 * What an extraction "found" in the document: one plausible row, in the shapes the seeded
 * contracts use, stable for a given contract.
 */
function extractedRows(include: ContractInclude, contractId: string, date: string): Record<string, unknown>[] {
  const id = `${include}-${contractId}-1`;
  switch (include) {
    case 'royalties':
      return [{ id, rate: 0.18, type: 'streaming', territory: 'World', basis: 'net receipts' }];
    case 'splits':
      return [{ id, party: 'Artist', share: 50, basis: 'net receipts' }];
    case 'costs':
      return [{ id, type: 'recording costs', amount: 25000, currency: 'USD', recoupable: true }];
    case 'compensations':
      return [{ id, type: 'advance', amount: 10000, currency: 'USD', payable_on: 'signature' }];
    case 'dates':
      return [{ id, type: 'effective', date }];
    case 'accounting-periods':
      return [
        { id, name: 'H1', start: '01-01', end: '06-30', statement_due: '09-30' },
        { id: `${include}-${contractId}-2`, name: 'H2', start: '07-01', end: '12-31', statement_due: '03-31' },
      ];
    case 'signatures':
      return [{ id, party: 'Artist', signatory: 'Artist', title: 'Recording artist', signed_on: date }];
    case 'control-areas':
      return [{ id, territory: 'World', rights: 'masters' }];
    case 'creative-approvals':
      return [{ id, subject: 'artwork', approver: 'mutual', deemed_after_days: 10 }];
    case 'balances':
      return [{ id, type: 'unrecouped balance', amount: 35000, currency: 'USD', as_of: date }];
    case 'languages':
      return [{ id, language: 'en' }];
    default:
      return [];
  }
}

const baseName = (fileName: string): string => fileName.replace(/\.pdf$/i, '').trim();

/** Contract ids are numeric strings (the processes endpoint serves `contract_id` as an integer). */
function nextContractId(state: EmulatorState): string {
  let max = 0;
  for (const data of Object.values(state.data)) {
    for (const contract of data.contracts) {
      const n = Number(contract.id);
      if (Number.isSafeInteger(n) && n > max) max = n;
    }
  }
  return String(max + 1);
}

/** What a statement keeps of its upload's context and folder (docs/service.md). */
function contextFields(upload: UploadRecord): Partial<StatementRecord> {
  const c = upload.context;
  const fields: Partial<StatementRecord> = {
    tags: c?.tags,
    payee: c?.payee,
    payor: c?.payor,
    accounting_period: c?.accountingPeriod?.value,
    target_period: c?.targetPeriod?.value,
    currency_royalty: c?.currencyRoyalty,
    currency_transaction: c?.currencyTransaction,
    folder_name: upload.folder_name,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/**
 * The upload becomes a contract or a statement of its project: once staging completes, or (a
 * statement, with `listedFromUpload`) as soon as its bytes are in, still queued.
 */
function materialize(
  state: EmulatorState,
  data: ProjectData,
  upload: UploadRecord,
  t: Timeline,
  stage: 'queued' | 'processing' | 'paused',
): void {
  if (upload.kind === 'contract') {
    const contract: ContractRecord = {
      id: nextContractId(state),
      name: baseName(upload.file_name) || 'Untitled contract',
      project_id: upload.project_id,
      created_at: iso(t.stagingEnd),
      parties: [],
      includes: { entities: [] },
      staging_id: upload.staging_id,
      file_name: upload.file_name,
      file_type: upload.file_type,
      ...(upload.context?.tags && { tags: upload.context.tags }),
    };
    data.contracts.push(contract);
    upload.result_id = contract.id;
    return;
  }
  const statement: StatementRecord = {
    id: state.next_statement_id++,
    file_name: upload.file_name,
    file_type: upload.file_type,
    file_size: upload.file_size,
    upload_status: 'completed',
    processing_status: stage,
    created_at: upload.created_at,
    staging_id: upload.staging_id,
    ...contextFields(upload),
  };
  data.statements.push(statement);
  upload.result_id = statement.id;
}

/** A statement listed while queued goes on to processing once its staging completes. */
function startProcessing(data: ProjectData, upload: UploadRecord): boolean {
  if (upload.kind !== 'statement') return false;
  const statement = data.statements.find((s) => s.id === upload.result_id);
  if (statement?.processing_status !== 'queued') return false;
  statement.processing_status = 'processing';
  return true;
}

/**
 * A paused statement is listed as `paused` (the deployed service lists a statement from the moment
 * its upload completes), so a re-run can find it and retry it; a retried one is queued again.
 */
function listPaused(state: EmulatorState, data: ProjectData, upload: UploadRecord, t: Timeline): boolean {
  if (upload.result_id === undefined) {
    materialize(state, data, upload, t, 'paused');
    return true;
  }
  const statement = data.statements.find((s) => s.id === upload.result_id);
  if (upload.pause_reason !== undefined || statement?.processing_status !== 'paused') return false;
  statement.processing_status = 'queued';
  return true;
}

/**
 * Everything after staging is done: the extracted includes, or the statement's derived fields.
 * Returns whether anything changed (a state loaded from --data may have it done already).
 */
function finish(data: ProjectData, upload: UploadRecord, t: Timeline): boolean {
  if (upload.kind === 'contract') {
    const contract = data.contracts.find((c) => c.id === upload.result_id);
    const includes = upload.extractions.flatMap((extraction) => EXTRACTION_INCLUDE[extraction] ?? []);
    if (!contract || includes.every((include) => contract.includes[include] !== undefined)) return false;
    for (const include of includes) {
      contract.includes[include] = extractedRows(include, contract.id, contract.created_at.slice(0, 10));
    }
    return true;
  }
  const statement = data.statements.find((s) => s.id === upload.result_id);
  if (!statement || statement.processing_status === 'completed') return false;
  const processedAt = iso(t.end);
  Object.assign(statement, {
    statement_name: baseName(upload.file_name) || `Statement ${statement.id}`,
    statement_type: 'royalty',
    statement_category: 'recording',
    statement_producer: 'Unknown Issuer',
    processing_status: 'completed',
    approval_status: 'pending',
    has_revenues: true,
    has_costs: false,
    has_summary: true,
    currency_transaction: statement.currency_transaction ?? 'USD',
    currency_royalty: statement.currency_royalty ?? 'USD',
    processed_at: processedAt,
    statement_desc: `Processed from ${upload.file_name}`,
    statement_subtype: 'mixed',
    statement_version: 'v1',
    has_summary_lines: true,
    modified_at: processedAt,
  } satisfies Partial<StatementRecord>);
  return true;
}

/** Uploads that may still change something, per state object, so a request does not rescan. */
interface Tracker {
  uploads: UploadRecord[];
  seen: number;
  pending: Set<UploadRecord>;
}
const trackers = new WeakMap<EmulatorState, Tracker>();

function tracker(state: EmulatorState): Tracker {
  let entry = trackers.get(state);
  // A replaced uploads array (state restored from a file) is tracked from scratch.
  if (!entry || entry.uploads !== state.uploads) {
    entry = { uploads: state.uploads, seen: 0, pending: new Set() };
    trackers.set(state, entry);
  }
  for (; entry.seen < state.uploads.length; entry.seen++) {
    const upload = state.uploads[entry.seen] as UploadRecord;
    if (upload.staging_error === undefined) entry.pending.add(upload);
  }
  return entry;
}

/**
 * Applies what the clock says has happened to every unfinished upload: creates the contract or
 * statement when staging completes, fills its extracted data when processing ends. Idempotent.
 * Returns the projects whose data changed and the changes made, for the journal of `--data`.
 */
export function advance(
  state: EmulatorState,
  now: number,
  step: number,
  listedFromUpload = false,
): { changed: Set<ProjectData>; changes: StateChange[] } {
  const changed = new Set<ProjectData>();
  const changes: StateChange[] = [];
  const record = (upload: UploadRecord, data: ProjectData) => {
    changed.add(data);
    const result =
      upload.kind === 'contract'
        ? data.contracts.find((c) => c.id === upload.result_id)
        : data.statements.find((s) => s.id === upload.result_id);
    if (result) {
      changes.push(
        upload.kind === 'contract'
          ? { contract: result as ContractRecord, project: upload.project_id }
          : { statement: result as StatementRecord, project: upload.project_id },
      );
    }
    changes.push({ upload });
  };
  const { pending } = tracker(state);
  for (const upload of pending) {
    if (upload.minted) continue;
    const t = timeline(upload, step);
    const early = listedFromUpload && upload.kind === 'statement';
    const data = state.data[upload.project_id];
    if (upload.pause_reason !== undefined) {
      if (early && data && upload.result_id === undefined && listPaused(state, data, upload, t)) record(upload, data);
      continue;
    }
    if (now < t.stagingEnd && !early) continue;
    if (!data) {
      pending.delete(upload);
      continue;
    }
    let touched = false;
    if (upload.result_id === undefined) {
      materialize(state, data, upload, t, now < t.stagingEnd ? 'queued' : 'processing');
      touched = true;
    } else if (early && listPaused(state, data, upload, t)) touched = true;
    if (now >= t.stagingEnd && startProcessing(data, upload)) touched = true;
    if (now >= t.end) {
      if (finish(data, upload, t)) touched = true;
      pending.delete(upload);
    }
    if (touched) record(upload, data);
  }
  if (changes.length > 0) changes.push(countersOf(state));
  return { changed, changes };
}

/**
 * Puts an upload (back) under the clock: one that completed its signed-URL flow or was retried.
 * Changes replace records whole, so the record the tracker holds may be an older copy.
 */
export function track(state: EmulatorState, upload: UploadRecord): void {
  const { pending } = tracker(state);
  for (const held of pending) if (held.staging_id === upload.staging_id) pending.delete(held);
  // One whose staging check failed becomes nothing: no record, as when it was tracked on start.
  if (upload.staging_error === undefined) pending.add(upload);
}

// Contracts in the deployed service's form (docs/service.md, "Records"): named by their file, with
// their includes under `extractions`, each row of an include in the service's fields (mapped from
// what the seed stores), and on request `citations`, `custom_extractions` and `score`.
import { generatedFileName } from '../generated-files.js';
import type { ContractRecord, ProjectData } from '../store.js';
import { CURRENT_INCLUDES, type Include } from '../vocabulary.js';
import { deployedId, documentId, extractionRowId, uuidFor } from './ids.js';
import { byId } from './indexes.js';
import { artistRef, isrcIdentifiers, iswcOf, present, type Fields } from './records.js';

export interface DeployedContractOptions {
  includes: readonly Include[];
  citations: boolean;
  score: boolean;
  /** The `extractorIds` asked for (empty: no custom_extractions key). */
  extractorIds: readonly string[];
}

type Row = Record<string, unknown>;
/** Where a row is mapped: its contract's project data and its place among the include's rows. */
interface RowContext {
  data: ProjectData;
  index: number;
}

const text = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
/** An amount in a clause's prose, as a contract writes it: `76,000.00`. */
const grouped = (value: unknown): string =>
  typeof value === 'number' ? value.toLocaleString('en-US', { minimumFractionDigits: 2 }) : String(value);

/** Days from the end of a period (`MM-DD`) to the day its statement is due, across a year end. */
function daysBetween(end: unknown, due: unknown): number | null {
  const day = (md: unknown) =>
    typeof md === 'string' && /^\d\d-\d\d$/.test(md)
      ? Date.UTC(2001, Number(md.slice(0, 2)) - 1, Number(md.slice(3)))
      : NaN;
  const days = (day(due) - day(end)) / 86_400_000;
  return Number.isNaN(days) ? null : days < 0 ? days + 365 : days;
}

/** A recording or composition row of an include: the catalog record it names, as the service extracts it. */
function workRow(row: Row, { data }: RowContext, kind: 'recording' | 'composition'): Fields {
  const storeId = String(row.id);
  const recording = kind === 'recording' ? byId(data.recordings).get(storeId) : undefined;
  const composition = kind === 'composition' ? byId(data.compositions).get(storeId) : undefined;
  const id = deployedId(kind, storeId);
  return {
    name: text(row.name),
    work_type: recording ? (recording.type === 'studio' ? 'original' : 'derivative') : (composition?.type ?? null),
    artists: (recording?.artists ?? composition?.artists ?? []).map(artistRef),
    creators: composition ? composition.writers.map((name) => ({ name, role: 'writer' })) : null,
    identifiers: recording
      ? isrcIdentifiers(recording, id)
          .slice(0, 1)
          .map((i) => ({ ...i, source: 'contract' }))
      : [{ type: 'iswc', value: iswcOf(id), source: 'contract' }],
    confidence: 'high',
    notes: null,
  };
}

/** Each include's fields (docs/service.md), from the row the seed or an extraction stored. */
const ROW_FIELDS: Readonly<Record<Include, (row: Row, at: RowContext) => Fields>> = {
  entities: (row, { data }) => {
    const entity = byId(data.entities).get(String(row.id));
    return {
      name: text(row.name),
      email: entity?.email ?? null,
      phone: entity?.phone ?? null,
      address: entity?.address ?? null,
      shorthand: entity?.shorthand ?? null,
      is_entity: true,
      identifiers: [],
      division_of: entity?.division_of === undefined ? null : deployedId('entity', entity.division_of),
      role: text(row.role),
      behalf_of: null,
    };
  },
  artists: (row) => ({ name: text(row.name), role: 'artist', entity_id: null }),
  writers: (row) => ({ name: text(row.name), role: 'writer', entity_id: null }),
  relations: (row) => ({
    name: text(row.name),
    email: null,
    phone: null,
    department: null,
    role: text(row.role),
    entity_id: null,
  }),
  royalties: (row, { index }) => ({
    rule_id: `RY-${index + 1}`,
    // The seed stores a fraction (0.18); the service gives the percentage.
    rate: typeof row.rate === 'number' ? Math.round(row.rate * 1000) / 10 : text(row.rate),
    rate_type: 'percentage',
    title: text(row.type),
    description: row.territory === undefined ? null : `${String(row.type)} income, ${String(row.territory)}`,
    selection: null,
    applies_to: row.type === undefined ? [] : [String(row.type)],
    calculation_base:
      row.basis === undefined ? null : { type: String(row.basis).replace(/\s+/g, '_'), definition: String(row.basis) },
  }),
  splits: (row, { index }) => ({
    split_type: 'revenue',
    rights_type: null,
    revenue_type: text(row.basis),
    asset_identifier: null,
    parties: [{ id: index + 1, name: text(row.party), percentage: num(row.share) }],
    assets: [],
  }),
  costs: (row, { index }) => ({
    rule_id: `CO-${index + 1}`,
    title: text(row.type),
    description: row.amount === undefined ? null : `${grouped(row.amount)} ${String(row.currency ?? '')}`.trim(),
    recoupment_rate: row.recoupable === true ? 100 : 0,
    requires_approval: false,
    cost_base: null,
  }),
  compensations: (row) => ({
    currency: text(row.currency),
    currency_estimated: false,
    advances: String(row.type ?? '').includes('advance')
      ? [{ amount: num(row.amount), payable_on: text(row.payable_on), type: text(row.type) }]
      : [],
    fixed_fees: [],
    recurring_payment_type: null,
  }),
  dates: (row) => ({
    extracted_dates: [{ type: text(row.type), date: text(row.date) }],
    extracted_terms: [],
    missing_dates: [],
    calculated_end_dates: row.type === 'term end' ? [text(row.date)] : [],
  }),
  'accounting-periods': (row) => ({
    accounting_period: text(row.name),
    reporting_delay_value: daysBetween(row.end, row.statement_due),
    reporting_delay_unit: 'days',
    payment_period_value: null,
    payment_period_unit: null,
    payout_threshold_value: null,
    payout_threshold_currency: null,
    cross_collateralizes: null,
    audit_rights: null,
  }),
  types: (row) => ({ type: text(row.name), note: text(row.category) }),
  languages: (row) => ({ language: text(row.language) }),
  signatures: (row) => ({
    name: text(row.signatory),
    entity: text(row.party),
    signed: row.signed_on !== undefined,
    signing_date: text(row.signed_on),
    effective_date: null,
  }),
  'control-areas': (row, { index }) => ({
    rule_id: `CA-${index + 1}`,
    description: `${String(row.rights ?? '')} in ${String(row.territory ?? '')}`,
    control_type: text(row.rights),
    exclusivity: 'exclusive',
    rights_type: text(row.rights),
    territories: row.territory === undefined ? [] : [String(row.territory)],
  }),
  'creative-approvals': (row, { index }) => ({
    approval_id: `AP-${index + 1}`,
    title: text(row.subject),
    approval_party: text(row.approver),
    description:
      row.deemed_after_days === undefined
        ? null
        : `deemed approved after ${String(row.deemed_after_days)} days of silence`,
  }),
  commitments: (row) => ({
    title: text(row.title),
    type: text(row.type),
    description: null,
    recurring_unit: null,
    recurring_quantity: null,
    linked_deliverables: [],
    linked_assets: [],
  }),
  balances: (row) => ({
    title: text(row.type),
    description:
      row.amount === undefined
        ? null
        : `${grouped(row.amount)} ${String(row.currency ?? '')} as of ${String(row.as_of ?? '')}`,
    reasoning: null,
  }),
  recordings: (row, at) => workRow(row, at, 'recording'),
  compositions: (row, at) => workRow(row, at, 'composition'),
  targets: () => ({
    composition_id: null,
    recording_id: null,
    album_id: null,
    number_of_tracks: null,
    sales_targets: null,
    price_targets: null,
  }),
};

/** The one citation of a row (citations=true): exactly the six keys the service sends. */
function citation(include: Include, fields: Fields, index: number): Fields {
  // The first field with a value that reads as the clause's text, not one of its ids.
  const [field, value] = Object.entries(fields).find(
    ([key, v]) => !/_id$/.test(key) && (typeof v === 'string' || typeof v === 'number'),
  ) ?? ['name', null];
  return {
    field,
    page: (index % 9) + 2,
    section_number: `${CURRENT_INCLUDES.indexOf(include) + 1}.${index + 1}`,
    section_title: include.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()),
    section_structure: 'paragraph',
    citation: value === null ? null : String(value),
  };
}

function extractionRows(contract: ContractRecord, data: ProjectData, include: Include, citations: boolean): Fields[] {
  const contractId = documentId(contract.id);
  const includeIndex = CURRENT_INCLUDES.indexOf(include);
  return (contract.includes[include] ?? []).map((row, index) => {
    const id = extractionRowId(contractId, includeIndex, index);
    const fields = ROW_FIELDS[include](row, { data, index });
    return {
      id,
      internal_uuid: uuidFor('extraction', id),
      created_at: contract.created_at,
      updated_at: null,
      ...fields,
      ...(citations && { citations: [citation(include, fields, index)] }),
    };
  });
}

/** A stable number in [0, 1) for a record, from its id. */
const fraction = (id: number, salt: number): number => (((id * 2654435761 + salt * 40503) >>> 0) % 1000) / 1000;

/** `score: {summary, triggered_rules}`: a rule warns for a contract without royalties or balances. */
export function deployedScore(id: number, missing: readonly string[]): Fields {
  const rules = missing.map((section) => ({
    rule_id: `${section}.missing`,
    status: 'warn',
    severity: 'low',
    message: `No ${section.replace(/-/g, ' ')} were extracted`,
    level: 'document',
    section,
    item_kind: null,
    item_id: null,
    meta: {},
  }));
  const score = Math.round((0.7 + 0.3 * fraction(id, 1)) * 100) / 100;
  return {
    summary: {
      score,
      meanScore: Math.round((score - 0.05 * fraction(id, 2)) * 100) / 100,
      failed: 0,
      warned: rules.length,
    },
    triggered_rules: rules,
  };
}

/** `custom_extractions` of the extractors asked for: one result each. */
function customExtractions(contract: ContractRecord, extractorIds: readonly string[]): Fields[] {
  const contractId = documentId(contract.id);
  return extractorIds.map((raw, i) => {
    const extractorId = /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
    const id = 200_000_000 + contractId * 100 + i;
    return {
      id,
      internal_uuid: uuidFor('custom-extraction', id),
      created_at: contract.created_at,
      updated_at: null,
      extractor_id: extractorId,
      extractor_name: null,
      data: { present: fraction(contractId, i + 3) < 0.5, contract: contract.name },
    };
  });
}

export function deployedContract(
  contract: ContractRecord,
  data: ProjectData,
  options: DeployedContractOptions,
): Fields {
  const id = documentId(contract.id);
  const out: Fields = {
    id,
    internal_uuid: uuidFor('contract', id),
    // Every deployed record has its file; seeded contracts are named after their generated PDF.
    file_name: contract.file_name ?? generatedFileName(contract.name),
    file_type: contract.file_type ?? 'application/pdf',
    created_at: contract.created_at,
  };
  if (options.includes.length > 0) {
    out.extractions = Object.fromEntries(
      options.includes.map((include) => [include, extractionRows(contract, data, include, options.citations)]),
    );
  }
  if (options.extractorIds.length > 0) out.custom_extractions = customExtractions(contract, options.extractorIds);
  if (options.score) {
    const missing = (['royalties', 'balances'] as const).filter(
      (section) => (contract.includes[section] ?? []).length === 0,
    );
    out.score = deployedScore(id, missing);
  }
  return present(out);
}

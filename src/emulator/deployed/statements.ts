// Statements in the deployed service's form (docs/service.md, "Records"): the stored fields,
// their financial totals and summary, and the statement's lines, which `detailed=true` links to as
// a CSV file on the storage host. The lines are generated from the statement's id and the
// project's recordings, so the totals, the summary and the CSV always agree.
import { Rng } from '../seed.js';
import type { ProjectData, StatementRecord } from '../store.js';
import { deployedId } from './ids.js';
import { entityByUuid } from './indexes.js';
import { isrcIdentifiers, present, type Fields } from './records.js';

export interface StatementLine {
  territory: string;
  isrc: string;
  title: string;
  units: number;
  /** In cents of the statement's royalty currency. */
  licenseeCents: number;
  licensorCents: number;
}

const TERRITORIES = ['GB', 'US', 'DE', 'FR', 'SE', 'NL', 'JP', 'BR', 'AU', 'CA'];

/** Whether the service has extracted the statement (its lines, totals and summary exist). */
export const isProcessed = (s: StatementRecord): boolean => s.processing_status === 'completed';

/** The period a statement accounts for: as set, or as the seed named its file (`…_2024-H1_statement.pdf`). */
function periodOf(s: StatementRecord): string | undefined {
  if (s.accounting_period !== undefined) return s.accounting_period;
  const match = /_(\d{4})-(H[12])_/.exec(s.file_name);
  return match ? `${match[1]}${match[2]}` : undefined;
}

/**
 * What `pds statements check` finds in the demo data: a statement whose financials say a few cents
 * more licensor revenue than its lines add up to, and one that repeats another (its payor, period,
 * currency and lines are the other's, as when a statement is uploaded twice under two names).
 */
export const DISAGREEING = { id: 40005, cents: 5 } as const;
export const DUPLICATE_OF: Readonly<Record<number, number>> = { 40023: 40022 };

/** The statement whose lines and payor a statement repeats: the other one, or itself. */
const twinOf = (data: ProjectData, s: StatementRecord): StatementRecord => {
  const original = DUPLICATE_OF[s.id];
  return (original === undefined ? undefined : data.statements.find((other) => other.id === original)) ?? s;
};

/** The statement's lines: 20 to 80, one per recording and territory, stable for its id. */
export function statementLines(data: ProjectData, statement: StatementRecord): StatementLine[] {
  const s = twinOf(data, statement);
  const rng = new Rng(s.id * 7919);
  const recordings = data.recordings;
  const count = s.line_count ?? 20 + (s.id % 61);
  const lines: StatementLine[] = [];
  for (let i = 0; i < count; i++) {
    const recording = recordings.length === 0 ? undefined : recordings[(s.id * 31 + i * 7) % recordings.length];
    const units = rng.int(50, 50_000);
    const licenseeCents = units * rng.int(2, 6);
    // Every fourth statement's last line is a track no recording of the catalog carries (its title
    // starts as a spreadsheet formula would), as statements name tracks a catalog has not caught up with.
    const unlisted = i === count - 1 && s.id % 4 === 3;
    lines.push({
      territory: TERRITORIES[rng.int(0, TERRITORIES.length - 1)] as string,
      isrc: unlisted
        ? `ZZUNL${String(s.id).slice(-7).padStart(7, '0')}`
        : recording
          ? String(isrcIdentifiers(recording, deployedId('recording', recording.id))[0]?.value)
          : '',
      title: unlisted ? '+44 (demo)' : (recording?.name ?? `Track ${i + 1}`),
      units,
      licenseeCents,
      licensorCents: Math.round(licenseeCents * (0.18 + rng.int(0, 7) / 100)),
    });
  }
  return lines;
}

const money = (cents: number): number => Math.round(cents) / 100;

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
const csvField = (value: string | number): string => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** A cell always quoted: the service's exports quote their titles whatever they hold. */
const quotedField = (value: string): string => `"${value.replace(/"/g, '""')}"`;

/** The statement's lines as the CSV file `detailed.csv_url` serves. */
export function statementCsv(data: ProjectData, s: StatementRecord): string {
  const currency = s.currency_royalty ?? '';
  const header = 'line,territory,isrc,title,units,currency,licensee_revenue,licensor_revenue';
  const rows = statementLines(data, s).map((line, i) =>
    [
      i + 1,
      line.territory,
      line.isrc,
      quotedField(line.title),
      line.units,
      currency,
      money(line.licenseeCents).toFixed(2),
      money(line.licensorCents).toFixed(2),
    ]
      .map((cell, at) => (at === 3 ? cell : csvField(cell)))
      .join(','),
  );
  return `${[header, ...rows].join('\n')}\n`;
}

/** `financials` and `statement_summary` of a processed statement, from its lines. */
function totals(data: ProjectData, s: StatementRecord): Fields {
  const lines = statementLines(data, s);
  const byTerritory = new Map<string, number>();
  let units = 0;
  let licensee = 0;
  let licensor = 0;
  for (const line of lines) {
    units += line.units;
    licensee += line.licenseeCents;
    licensor += line.licensorCents;
    byTerritory.set(line.territory, (byTerritory.get(line.territory) ?? 0) + line.units);
  }
  const [top, topUnits] = [...byTerritory].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return {
    // What the record says of its lines is what its lines export holds: the seed's description
    // carries counts of its own, and its flags were drawn before there were lines.
    statement_desc:
      s.statement_desc?.replace(
        /[\d,]+ lines across \d+ territories/,
        `${lines.length.toLocaleString('en-US')} lines across ${byTerritory.size} territories`,
      ) ?? null,
    has_revenues: licensee + licensor > 0,
    has_summary: true,
    has_summary_lines: lines.length > 0,
    statement_summary: {
      meta: { generated_at: s.processed_at ?? s.created_at, schema_version: '2' },
      summary: [
        `${units.toLocaleString('en-US')} units across ${byTerritory.size} territories`,
        `Largest territory: ${top} (${Math.round((topUnits * 100) / Math.max(units, 1))}%)`,
      ],
    },
    financials: {
      currency: s.currency_royalty ?? null,
      period: periodOf(s) ?? null,
      licensee_revenue: money(licensee),
      licensor_revenue: money(licensor + (s.id === DISAGREEING.id ? DISAGREEING.cents : 0)),
      ...s.financials_given,
    },
  };
}

/**
 * The staging a statement came from: a seeded one was staged before the emulator's uploads, under
 * its own id (its processes answer so too, see processing.ts).
 */
export const stagingIdOf = (s: StatementRecord): number => s.staging_id ?? s.id;

/** The extraction stage the service reports, from the stored processing status. */
export const extractionStage = (s: StatementRecord): string =>
  s.processing_status === 'completed' ||
  s.processing_status === 'failed' ||
  s.processing_status === 'queued' ||
  s.processing_status === 'paused'
    ? s.processing_status
    : 'processing';

/** The fields of a statement in the service's order; what the store lacks is left out. */
export function deployedStatement(data: ProjectData, s: StatementRecord): Fields {
  const issuer = s.entity_id === undefined ? undefined : entityByUuid(data.entities, s.entity_id);
  const processed = isProcessed(s);
  return present({
    id: s.id,
    staging_id: stagingIdOf(s),
    file_name: s.file_name,
    file_type: s.file_type,
    file_size: s.file_size,
    statement_name: s.statement_name,
    // A processed statement names every field, null where it has no value.
    statement_desc: s.statement_desc ?? (processed ? null : undefined),
    statement_type: s.statement_type,
    statement_category: s.statement_category,
    statement_subtype: s.statement_subtype,
    statement_producer: twinOf(data, s).statement_producer,
    statement_version: s.statement_version,
    extraction_stage: extractionStage(s),
    upload_status: s.upload_status,
    approval_status: s.approval_status,
    has_revenues: s.has_revenues,
    has_costs: s.has_costs,
    has_summary: s.has_summary,
    has_summary_lines: s.has_summary_lines,
    currency_transaction: s.currency_transaction,
    currency_royalty: s.currency_royalty,
    entity_id: issuer === undefined ? undefined : deployedId('entity', issuer.id),
    created_at: s.created_at,
    processed_at: s.processed_at,
    modified_at: s.modified_at,
    accounting_period: processed ? periodOf(s) : s.accounting_period,
    // What a statement edit sets (docs/service.md, "Projects, tags, knowledge"), when set.
    target_period: s.target_period,
    payee: s.payee,
    payor: s.payor,
    tags: s.tags && s.tags.length > 0 ? s.tags : undefined,
    ...(processed ? totals(data, s) : {}),
  });
}

/** What the service says of a statement's lines that cannot be exported yet. */
const NOT_PROCESSED = 'Statement extraction is not completed yet';

/** `detailed` (detailed=true): the signed link to the lines, or why there is none. */
export function detailedExport(data: ProjectData, s: StatementRecord, sign: () => string): Fields {
  if (!isProcessed(s)) return { detailed: null, detailed_error: NOT_PROCESSED };
  return {
    detailed: { csv_url: sign(), file_name: `${s.id}-lines.csv`, row_count: statementLines(data, s).length },
    detailed_error: null,
  };
}

// What each catalog resource looks like in a list and fetched by id, in both forms the service
// answers in (SPEC.md's and the deployed service's, SERVICE-NOW.md "Records"). A column reads any
// form of its field and never fails: the renderer draws a list of objects by their names
// (output.ts, textCell), and a field in a form no column expects is drawn as it came.
import type { Column } from '../../lib/output.js';
import type { ResourceName } from '../../lib/api/catalog.js';
import { ITEM_SHAPES, shapeFields } from '../../lib/api/shapes.js';
import { isPlainObject } from '../../lib/shape.js';

type Record_ = Record<string, unknown>;

const count = (value: unknown): number | undefined => (Array.isArray(value) ? value.length : undefined);
/** A field of a nested object (`financials.period`), when the object is there. */
const inner = (value: unknown, key: string): unknown => (isPlainObject(value) ? value[key] : undefined);
/** A field processing has not filled (yet): `processing` while it runs, nothing when it will not. */
const untilProcessed = (stage: unknown) =>
  stage === undefined || stage === null || ['completed', 'failed', 'skipped'].includes(String(stage))
    ? undefined
    : 'processing';
/** Where a statement is in processing: the deployed service's stage, or SPEC.md's status. */
const stageOf = (s: Record_): unknown => s.extraction_stage ?? s.processing_status;

/**
 * An ISRC or ISWC cell: the first identifier's value, and `+N` when the record has more (all of
 * them are in `get` and the data formats).
 */
function firstIdentifier(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const first = value[0] as unknown;
  const shown = isPlainObject(first) ? (first.value ?? '') : first;
  return value.length > 1 ? `${String(shown)} +${value.length - 1}` : String(shown);
}

function duration(ms: unknown): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return undefined;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A contract's include: a top-level key (SPEC.md) or one under `extractions` (deployed). */
export function includeOf(contract: Record_, name: string): unknown {
  return contract[name] ?? inner(contract.extractions, name);
}

const merged: Column<Record_> = { header: 'merged', value: (r) => count(r.merged) };

// Identifiers (ids, ISRCs, ISWCs) and file names are copied into commands: never cut (`copy`).
// `optional` columns leave a table when no row fills them: a contract of the deployed service has
// no name, one of SPEC.md's no file, and only a processed statement of the deployed service has
// financials. TSV keeps every column, so a script reads the same header from either service.
export const COLUMNS: { [R in ResourceName]: Column<Record_>[] } = {
  contracts: [
    { header: 'id', value: (c) => c.id },
    { header: 'name', value: (c) => c.name, optional: true },
    { header: 'file', value: (c) => c.file_name, optional: true, fit: 'copy' },
    { header: 'created', value: (c) => c.created_at, date: true },
  ],
  statements: [
    { header: 'id', value: (s) => s.id },
    { header: 'file', value: (s) => s.file_name, optional: true, fit: 'copy' },
    { header: 'name', value: (s) => s.statement_name ?? untilProcessed(stageOf(s)), optional: true },
    // What processing fills in is said to be coming, not left blank (the data formats keep null).
    { header: 'type', value: (s) => s.statement_type ?? untilProcessed(stageOf(s)) },
    { header: 'stage', value: stageOf },
    { header: 'period', value: (s) => inner(s.financials, 'period') ?? s.accounting_period, optional: true },
    { header: 'currency', value: (s) => inner(s.financials, 'currency') ?? s.currency_royalty, optional: true },
    { header: 'licensor', value: (s) => inner(s.financials, 'licensor_revenue'), optional: true },
    { header: 'licensee', value: (s) => inner(s.financials, 'licensee_revenue'), optional: true },
    { header: 'created', value: (s) => s.created_at, date: true },
  ],
  entities: [
    { header: 'id', value: (e) => e.id },
    { header: 'name', value: (e) => e.name },
    { header: 'shorthand', value: (e) => e.shorthand },
    { header: 'email', value: (e) => e.email },
    merged,
  ],
  relations: [
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
    { header: 'department', value: (r) => r.department },
    { header: 'email', value: (r) => r.email },
    merged,
  ],
  artists: [{ header: 'id', value: (a) => a.id }, { header: 'name', value: (a) => a.name }, merged],
  writers: [{ header: 'id', value: (w) => w.id }, { header: 'name', value: (w) => w.name }, merged],
  recordings: [
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
    { header: 'isrc', value: (r) => firstIdentifier(r.identifiers), optional: true, fit: 'copy' },
    { header: 'artists', value: (r) => r.artists },
    { header: 'duration', value: (r) => duration(r.duration_ms) },
    { header: 'products', value: (r) => count(r.products), optional: true },
  ],
  compositions: [
    { header: 'id', value: (c) => c.id },
    { header: 'name', value: (c) => c.name },
    { header: 'iswc', value: (c) => firstIdentifier(c.identifiers), optional: true, fit: 'copy' },
    { header: 'writers', value: (c) => c.writers ?? c.creators },
    { header: 'type', value: (c) => c.type },
    { header: 'products', value: (c) => count(c.products), optional: true },
  ],
};

/**
 * The columns of a list: MERGED only with --merged (without it the service sends no duplicates, so
 * the column would be blank), and for contracts one count per --include, wherever it came.
 */
export function listColumns(
  resource: ResourceName,
  flags: { merged?: boolean | undefined; includes: readonly string[] },
): Column<Record_>[] {
  let columns = COLUMNS[resource];
  if (!flags.merged) columns = columns.filter((column) => column !== merged);
  // A count asked for by name is never cut (its header neither); names and dates give way first.
  const included = flags.includes.map(
    (name): Column<Record_> => ({ header: name, value: (record) => count(includeOf(record, name)), fit: 'copy' }),
  );
  return [...columns, ...included];
}

/** The fields `--fields` may name: every documented field of the resource, in both forms. */
export function listFields(resource: ResourceName): string[] {
  return shapeFields(ITEM_SHAPES[resource]);
}

/**
 * A record fetched by id as a person reads it (the data formats print it as received): a deployed
 * contract's `extractions` drawn as top-level includes are, its score as lines and a table of the
 * rules it triggered; a statement's financials as fields and its summary as lines; any other object
 * field as `field.key` lines. Lists of records stay tables (output.ts draws them).
 */
export function detailView(record: Record_): Record_ {
  const shown: Record_ = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'extractions' && isPlainObject(value)) {
      for (const [name, rows] of Object.entries(value)) if (!(name in record)) shown[name] = rows;
    } else if (key === 'statement_summary' && isPlainObject(value) && Array.isArray(value.summary)) {
      shown.summary = value.summary.map((line) => ({ line }));
    } else if (isPlainObject(value)) {
      for (const [name, inside] of Object.entries(value)) {
        if (isPlainObject(inside)) for (const [leaf, v] of Object.entries(inside)) shown[`${key}.${name}.${leaf}`] = v;
        else shown[`${key}.${name}`] = inside;
      }
    } else shown[key] = value;
  }
  return shown;
}

// What each catalog resource looks like in a list and fetched by id, in both forms the service
// answers in (the spec form's and the deployed service's, docs/service.md, "Records"). A column reads any
// form of its field and never fails: the renderer draws a list of objects by their names
// (output.ts, textCell), and a field in a form no column expects is drawn as it came.
import type { Column } from '../../lib/output/view.js';
import type { ResourceName } from '../../lib/resources.js';
import type { ResourceItem, Statement } from '../../lib/api/catalog.js';
import { ITEM_SHAPES, shapeFields } from '../../lib/api/shapes.js';
import { isPlainObject, keyedByText } from '../../lib/shape.js';

type Record_ = Record<string, unknown>;

const count = (value: unknown): number | undefined => (Array.isArray(value) ? value.length : undefined);
/** A field of a nested object (`financials.period`), when the object is there. */
const inner = (value: unknown, key: string): unknown => (isPlainObject(value) ? value[key] : undefined);
/** A field processing has not filled (yet): `processing` while it runs, nothing when it will not. */
const untilProcessed = (stage: unknown) =>
  stage === undefined || stage === null || ['completed', 'failed', 'skipped'].includes(String(stage))
    ? undefined
    : 'processing';
/** Where a statement is in processing: the deployed service's stage, or the spec form's status. */
const stageOf = (s: Statement): unknown => s.extraction_stage ?? s.processing_status;

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

/** A contract's include: a top-level key (the spec form) or one under `extractions` (deployed). */
export function includeOf(contract: object, name: string): unknown {
  return inner(contract, name) ?? inner(inner(contract, 'extractions'), name);
}

// The columns several resources share, typed by the one field they read: each fits the record of
// every resource that has that field.
const merged: Column<{ merged?: unknown }> = { header: 'merged', value: (r) => count(r.merged), format: 'count' };
const idColumn: Column<{ id: unknown }> = { header: 'id', value: (r) => r.id, format: 'id' };
const nameColumn: Column<{ name?: unknown }> = { header: 'name', value: (r) => r.name, format: 'name' };
const emailColumn: Column<{ email?: unknown }> = { header: 'email', value: (r) => r.email, priority: 50 };
const currencyOf = (s: Statement): unknown => s.financials?.currency ?? s.currency_royalty;

// A column's format says how a terminal draws it and how it gives way (src/lib/output/view.ts): ids,
// ISRCs, ISWCs and amounts are never cut; a file name is cut in its middle. `optional` columns leave
// a table when no row fills them: a contract of the deployed service has no name, one of the spec form's
// no file, and only a processed statement of the deployed service has financials. TSV keeps every
// column with its `header` and raw value, so a script reads the same from either service. One entry
// per resource of lib/resources.ts (where a resource is defined), as the type holds it.
export const COLUMNS: { readonly [R in ResourceName]: readonly Column<ResourceItem<R>>[] } = {
  contracts: [
    idColumn,
    { header: 'name', value: (c) => c.name, optional: true, format: 'name' },
    { header: 'file', value: (c) => c.file_name, optional: true, format: 'file', priority: 80 },
    { header: 'created', value: (c) => c.created_at, format: 'date' },
  ],
  statements: [
    idColumn,
    { header: 'file', value: (s) => s.file_name, optional: true, format: 'file', priority: 35 },
    // What processing fills in is said to be coming in TSV (the data formats keep null); a terminal
    // shows a dash, and the stage says where it is (paused, queued, failed): the stage stays longer
    // than the file name, the period and the money as the width shrinks.
    {
      header: 'name',
      value: (s) => s.statement_name ?? untilProcessed(stageOf(s)),
      shown: (s) => s.statement_name ?? (untilProcessed(stageOf(s)) ? '—' : undefined),
      optional: true,
      format: 'name',
    },
    {
      header: 'type',
      value: (s) => s.statement_type ?? untilProcessed(stageOf(s)),
      shown: (s) => s.statement_type,
      priority: 45,
    },
    { header: 'stage', value: stageOf, priority: 70, overflow: 'never' },
    {
      header: 'period',
      value: (s) => s.financials?.period ?? s.accounting_period,
      optional: true,
      priority: 60,
      overflow: 'never',
    },
    // Said in the money columns' header when every row has the same; the column goes first.
    { header: 'currency', value: currencyOf, optional: true, priority: 15, overflow: 'never' },
    {
      header: 'licensor',
      label: 'licensor rev',
      value: (s) => s.financials?.licensor_revenue,
      currency: currencyOf,
      optional: true,
      format: 'money',
    },
    {
      header: 'licensee',
      label: 'licensee rev',
      value: (s) => s.financials?.licensee_revenue,
      currency: currencyOf,
      optional: true,
      format: 'money',
      priority: 65,
    },
    { header: 'created', value: (s) => s.created_at, format: 'date' },
  ],
  entities: [
    idColumn,
    nameColumn,
    { header: 'shorthand', value: (e) => e.shorthand, priority: 30 },
    emailColumn,
    merged,
  ],
  relations: [
    idColumn,
    nameColumn,
    { header: 'department', value: (r) => r.department, priority: 30 },
    emailColumn,
    merged,
  ],
  artists: [idColumn, nameColumn, merged],
  writers: [idColumn, nameColumn, merged],
  recordings: [
    idColumn,
    nameColumn,
    { header: 'isrc', value: (r) => firstIdentifier(r.identifiers), optional: true, format: 'code' },
    { header: 'artists', value: (r) => r.artists, priority: 50 },
    { header: 'duration', value: (r) => duration(r.duration_ms), format: 'duration' },
    { header: 'products', value: (r) => count(r.products), optional: true, format: 'count' },
  ],
  compositions: [
    idColumn,
    nameColumn,
    { header: 'iswc', value: (c) => firstIdentifier(c.identifiers), optional: true, format: 'code' },
    { header: 'writers', value: (c) => c.writers ?? c.creators, priority: 50 },
    { header: 'type', value: (c) => c.type, priority: 30 },
    { header: 'products', value: (c) => count(c.products), optional: true, format: 'count' },
  ],
};

/**
 * The columns of a list: MERGED only with --merged (without it the service sends no duplicates, so
 * the column would be blank), for contracts one count per --include, wherever it came, and SCORE
 * with --score.
 */
export function listColumns<R extends ResourceName>(
  resource: R,
  flags: { merged?: boolean | undefined; includes: readonly string[]; score?: boolean | undefined },
): Column<ResourceItem<R>>[] {
  let columns: readonly Column<ResourceItem<R>>[] = COLUMNS[resource];
  if (!flags.merged) columns = columns.filter((column) => column !== merged);
  // A count asked for by name is never cut (its header neither); names and dates give way first.
  const included = flags.includes.map(
    (name): Column<object> => ({
      header: name,
      value: (record) => count(includeOf(record, name)),
      format: 'count',
      priority: 85,
    }),
  );
  return [...columns, ...included, ...(flags.score ? [scoreColumn] : [])];
}

/**
 * With --score: each record's confidence score (`score.summary.score` in the deployed form), aligned.
 * Only contracts and statements take --score, but any record may hold one: read by name.
 */
const scoreColumn: Column<object> = {
  header: 'score',
  value: (r) => {
    const score = inner(r, 'score');
    return typeof score === 'number' ? score : inner(inner(score, 'summary'), 'score');
  },
  format: 'score',
  priority: 75,
};

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
  // Keyed by the service's field names: one named `__proto__` is shown like any other.
  const shown: Record_ = keyedByText();
  for (const [key, value] of Object.entries(record)) {
    if (key === 'extractions' && isPlainObject(value)) {
      for (const [name, rows] of Object.entries(value)) if (!Object.hasOwn(record, name)) shown[name] = rows;
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

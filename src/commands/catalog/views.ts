// What each catalog resource looks like in a list, and which extra flags it takes.
import type { Column } from '../../lib/output.js';
import type { ResourceItem, ResourceName } from '../../lib/api/catalog.js';
import { ITEM_SHAPES, shapeFields } from '../../lib/api/shapes.js';
import { CONTRACT_INCLUDES } from '../../lib/vocabulary.js';

type Columns<R extends ResourceName> = Column<ResourceItem<R>>[];

const count = (value: unknown[] | undefined) => (value === undefined ? undefined : value.length);
const list = (values: string[]) => values.join(', ');
/** A field processing has not filled (yet): `processing` while it runs, `—` when it will not. */
const untilProcessed = (status: string | undefined) => (status === undefined || status === 'completed' || status === 'failed' ? '—' : 'processing');

export const COLUMNS: { [R in ResourceName]: Columns<R> } = {
  contracts: [
    { header: 'id', value: (c) => c.id },
    { header: 'name', value: (c) => c.name },
    { header: 'created', value: (c) => c.created_at, date: true },
  ],
  statements: [
    { header: 'id', value: (s) => s.id },
    { header: 'name', value: (s) => s.statement_name ?? s.file_name },
    // What processing fills in is said to be coming, not left blank (the data formats keep null).
    { header: 'type', value: (s) => s.statement_type ?? untilProcessed(s.processing_status) },
    { header: 'producer', value: (s) => s.statement_producer ?? untilProcessed(s.processing_status) },
    { header: 'processing', value: (s) => s.processing_status ?? '—' },
    { header: 'created', value: (s) => s.created_at, date: true },
  ],
  entities: [
    { header: 'id', value: (e) => e.id },
    { header: 'name', value: (e) => e.name },
    { header: 'shorthand', value: (e) => e.shorthand },
    { header: 'email', value: (e) => e.email },
    { header: 'merged', value: (e) => count(e.merged) },
  ],
  relations: [
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
    { header: 'department', value: (r) => r.department },
    { header: 'email', value: (r) => r.email },
    { header: 'merged', value: (r) => count(r.merged) },
  ],
  artists: [
    { header: 'id', value: (a) => a.id },
    { header: 'name', value: (a) => a.name },
    { header: 'merged', value: (a) => count(a.merged) },
  ],
  writers: [
    { header: 'id', value: (w) => w.id },
    { header: 'name', value: (w) => w.name },
    { header: 'merged', value: (w) => count(w.merged) },
  ],
  recordings: [
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
    { header: 'artists', value: (r) => list(r.artists) },
    { header: 'duration', value: (r) => duration(r.duration_ms) },
    { header: 'products', value: (r) => count(r.products) },
  ],
  compositions: [
    { header: 'id', value: (c) => c.id },
    { header: 'name', value: (c) => c.name },
    { header: 'writers', value: (c) => list(c.writers) },
    { header: 'type', value: (c) => c.type },
    { header: 'products', value: (c) => count(c.products) },
  ],
};

/**
 * The columns of a list: MERGED only with --merged (without it the service sends no duplicates, so
 * the column would be blank), and for contracts one count per --include.
 */
export function listColumns(resource: ResourceName, flags: { merged?: boolean | undefined; includes: readonly string[] }): Column<Record<string, unknown>>[] {
  let columns = COLUMNS[resource] as unknown as Column<Record<string, unknown>>[];
  if (!flags.merged) columns = columns.filter((column) => column.header !== 'merged');
  const included = flags.includes.map((name) => ({ header: name, value: (record: Record<string, unknown>) => count(asArray(record[name])) }));
  return [...columns, ...included];
}

function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** The fields `--fields` may name in a list: the record's, and for contracts one per include. */
export function listFields(resource: ResourceName): string[] {
  return withIncludes(resource, shapeFields(ITEM_SHAPES[resource]));
}

/** Those fields (of a list record, or of a record by id), and for contracts one per include. */
export function withIncludes(resource: ResourceName, fields: readonly string[]): string[] {
  return [...new Set([...fields, ...(resource === 'contracts' ? CONTRACT_INCLUDES : [])])];
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

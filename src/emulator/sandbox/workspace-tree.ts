// The workspace's file tree built from a project's records: one directory per record kind, merged
// duplicates beside their roots, contracts with their extracted rows.
import { posix } from 'node:path';
import type { Include as ContractInclude } from '../vocabulary.js';
import type { EntityRecord, PersonRecord, ProjectData, ProjectRecord, RelationRecord } from '../store.js';
import type { RecordKind, WorkspaceIds } from './ids.js';
import { addStats } from './workspace-guide.js';
import type { WorkspaceFile, Workspace } from './workspace.js';

const TOP_DIRS = [
  'contracts',
  'entities',
  'artists',
  'writers',
  'relations',
  'recordings',
  'compositions',
  'statements',
];

/** Ids become file names; anything but a conservative set of characters is replaced. */
const safe = (id: string | number): string => String(id).replace(/[^A-Za-z0-9._-]/g, '_');

export class TreeBuilder implements Workspace {
  files = new Map<string, WorkspaceFile>();
  dirs = new Map<string, Set<string>>([['/', new Set()]]);

  dir(path: string): void {
    if (this.dirs.has(path)) return;
    const parent = posix.dirname(path);
    this.dir(parent);
    this.dirs.get(parent)?.add(`${posix.basename(path)}/`);
    this.dirs.set(path, new Set());
  }

  file(path: string, file: WorkspaceFile): void {
    const parent = posix.dirname(path);
    this.dir(parent);
    this.dirs.get(parent)?.add(posix.basename(path));
    this.files.set(path, file);
  }
}

/**
 * Cuts a long loop into slices of a few milliseconds, so that building the workspace of a large
 * catalog (seconds at --scale 100) never holds the server: other requests are served between.
 */
export class Slicer {
  private count = 0;
  private started = performance.now();

  constructor(private readonly budgetMs = 10) {}

  /** Whether the current slice is used up (checked cheaply: the clock only every 256 calls). */
  due(): boolean {
    return (++this.count & 255) === 0 && performance.now() - this.started > this.budgetMs;
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

/** Root records, each with the duplicates merged into it (in store order). */
function mergeGroups<T extends { id: string; merged_into?: string }>(records: T[]): Map<T, T[]> {
  const roots = new Map<string, T>();
  const groups = new Map<T, T[]>();
  for (const record of records) {
    if (record.merged_into !== undefined) continue;
    roots.set(record.id, record);
    groups.set(record, []);
  }
  for (const record of records) {
    const root = record.merged_into === undefined ? undefined : roots.get(record.merged_into);
    if (root) groups.get(root)?.push(record);
  }
  return groups;
}

/** A root record as the API shows it with includeMerged=true; the store's merge links dropped. */
function withMerged<T extends { merged_into?: string; merged_at?: string }>(
  record: T,
  merged: Record<string, unknown>[],
): Record<string, unknown> {
  const { merged_into: _into, merged_at: _at, ...fields } = record;
  return merged.length > 0 ? { ...fields, merged } : fields;
}

/** A record's fields with its own id, and a reference it may hold, in the workspace's ids. */
function withIds<T extends { id: string }>(
  record: T,
  own: RecordKind,
  ids: WorkspaceIds,
  reference?: { field: keyof T & string; kind: RecordKind },
): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...record, id: ids.of(own, record.id) };
  const target = reference && record[reference.field];
  if (reference && typeof target === 'string') fields[reference.field] = ids.of(reference.kind, target);
  return fields;
}

const personFile = (
  kind: 'artist' | 'writer',
  record: PersonRecord,
  merged: PersonRecord[],
  ids: WorkspaceIds,
): WorkspaceFile => ({
  yaml: withMerged(
    withIds(record, kind, ids),
    merged.map((m) => ({ id: ids.of(kind, m.id), name: m.name })),
  ),
});

const relationFile = (record: RelationRecord, merged: RelationRecord[], ids: WorkspaceIds): WorkspaceFile => ({
  yaml: withMerged(
    withIds(record, 'relation', ids),
    merged.map((m) => ({ id: ids.of('relation', m.id), name: m.name, merged_at: m.merged_at })),
  ),
});

/** An entity's directory: metadata.yaml with its contracts, and merged.yaml with its duplicates' records. */
function addEntity(
  tree: TreeBuilder,
  entity: EntityRecord,
  merged: EntityRecord[],
  contracts: EntityContract[] | undefined,
  ids: WorkspaceIds,
): void {
  const dir = `/entities/entity_${safe(ids.of('entity', entity.id))}`;
  const entityFields = (e: EntityRecord) => withIds(e, 'entity', ids, { field: 'division_of', kind: 'entity' });
  const metadata = withMerged(
    entityFields(entity),
    merged.map((m) => ({ id: ids.of('entity', m.id), name: m.name })),
  );
  tree.file(`${dir}/metadata.yaml`, { yaml: contracts ? { ...metadata, contracts } : metadata });
  const mergedRecords = merged.map((m) => ({
    ...entityFields(m),
    ...(m.merged_into !== undefined && { merged_into: ids.of('entity', m.merged_into) }),
  }));
  if (merged.length > 0) tree.file(`${dir}/merged.yaml`, { yaml: mergedRecords });
}

export async function build(project: ProjectRecord, data: ProjectData, ids: WorkspaceIds): Promise<Workspace> {
  const tree = new TreeBuilder();
  const slice = new Slicer();
  for (const dir of TOP_DIRS) tree.dir(`/${dir}`);

  const { contractsOfEntity, extractedCounts } = await addContracts(tree, slice, data, ids);

  const entities = mergeGroups<EntityRecord>(data.entities);
  for (const [entity, merged] of entities) {
    if (slice.due()) await slice.pause();
    addEntity(tree, entity, merged, contractsOfEntity.get(entity.id), ids);
  }
  const artists = mergeGroups(data.artists);
  for (const [artist, merged] of artists) {
    if (slice.due()) await slice.pause();
    tree.file(`/artists/artist_${safe(ids.of('artist', artist.id))}.yaml`, personFile('artist', artist, merged, ids));
  }
  const writers = mergeGroups(data.writers);
  for (const [writer, merged] of writers) {
    if (slice.due()) await slice.pause();
    tree.file(`/writers/writer_${safe(ids.of('writer', writer.id))}.yaml`, personFile('writer', writer, merged, ids));
  }
  const relations = mergeGroups(data.relations);
  for (const [relation, merged] of relations) {
    if (slice.due()) await slice.pause();
    tree.file(`/relations/relation_${safe(ids.of('relation', relation.id))}.yaml`, relationFile(relation, merged, ids));
  }
  for (const recording of data.recordings) {
    if (slice.due()) await slice.pause();
    const yaml = withIds(recording, 'recording', ids, { field: 'composition_id', kind: 'composition' });
    tree.file(`/recordings/recording_${safe(ids.of('recording', recording.id))}.yaml`, { yaml });
  }
  for (const composition of data.compositions) {
    if (slice.due()) await slice.pause();
    tree.file(`/compositions/composition_${safe(ids.of('composition', composition.id))}.yaml`, {
      yaml: withIds(composition, 'composition', ids),
    });
  }
  const byStatus = new Map<string, number>();
  for (const statement of data.statements) {
    if (slice.due()) await slice.pause();
    const { entity_id: issuer, ...fields } = statement;
    const entityId = issuer === undefined ? undefined : ids.issuer(data.entities, issuer);
    const yaml = entityId === undefined ? fields : { ...statement, entity_id: entityId };
    tree.file(`/statements/statement_${safe(statement.id)}/metadata.yaml`, { yaml });
    const status = statement.processing_status ?? 'unprocessed';
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  const roots = { entities: entities.size, relations: relations.size, artists: artists.size, writers: writers.size };
  addStats(tree, project, data, roots, byStatus, extractedCounts);
  return tree;
}

interface EntityContract {
  contract_id: string | number;
  contract_name: string;
  role: string;
}

/**
 * Each contract's uploaded.yaml and extracted/ files. Returns the contracts of each entity (for its
 * metadata.yaml) and how many contracts have each include (for stats.yaml).
 */
async function addContracts(
  tree: TreeBuilder,
  slice: Slicer,
  data: ProjectData,
  ids: WorkspaceIds,
): Promise<{ contractsOfEntity: Map<string, EntityContract[]>; extractedCounts: Map<ContractInclude, number> }> {
  const entityNames = new Map(data.entities.map((e) => [e.id, e.name]));
  const contractsOfEntity = new Map<string, EntityContract[]>();
  const extractedCounts = new Map<ContractInclude, number>();
  for (const contract of data.contracts) {
    if (slice.due()) await slice.pause();
    const contractId = ids.of('contract', contract.id);
    const dir = `/contracts/contract_${safe(contractId)}`;
    const extracted = (Object.entries(contract.includes) as [ContractInclude, Record<string, unknown>[]][])
      .filter(([, rows]) => rows.length > 0)
      .sort(([a], [b]) => a.localeCompare(b));
    const { includes: _includes, parties, ...fields } = contract;
    tree.file(`${dir}/uploaded.yaml`, {
      yaml: {
        ...fields,
        id: contractId,
        parties: parties.map((p) => ({
          entity_id: ids.of('entity', p.entity_id),
          entity_name: entityNames.get(p.entity_id),
          role: p.role,
        })),
        extracted: extracted.map(([include]) => include),
      },
    });
    tree.dir(`${dir}/extracted`);
    for (const [include, rows] of extracted) {
      tree.file(`${dir}/extracted/${include}.yaml`, { yaml: extractedRows(include, rows, ids) });
      extractedCounts.set(include, (extractedCounts.get(include) ?? 0) + 1);
    }
    for (const party of parties) {
      const list = contractsOfEntity.get(party.entity_id) ?? [];
      list.push({ contract_id: contractId, contract_name: contract.name, role: party.role });
      contractsOfEntity.set(party.entity_id, list);
    }
  }
  return { contractsOfEntity, extractedCounts };
}

/** The includes whose rows name a catalog record by its id (the other rows' ids are the rows' own). */
const RECORD_INCLUDES: Partial<Record<ContractInclude, RecordKind>> = {
  entities: 'entity',
  artists: 'artist',
  writers: 'writer',
  relations: 'relation',
  recordings: 'recording',
  compositions: 'composition',
};

/** An include's rows, those naming a record with its id in the workspace's ids. */
function extractedRows(
  include: ContractInclude,
  rows: Record<string, unknown>[],
  ids: WorkspaceIds,
): Record<string, unknown>[] {
  const kind = RECORD_INCLUDES[include];
  if (kind === undefined) return rows;
  return rows.map((row) => (typeof row.id === 'string' ? { ...row, id: ids.of(kind, row.id) } : row));
}

// The sandbox workspace of docs/service.md, "Sandbox": a file tree generated from a project's data. Files hold the
// value to write, not the text: YAML is written only when a file is read (here for the files
// endpoint, in the worker for exec), because serializing a --scale 100 catalog (100,000+ files)
// up front takes far longer than building this index.
import { posix } from 'node:path';
import { stringify } from 'yaml';
import type { Include as ContractInclude } from '../vocabulary.js';
import type { EntityRecord, PersonRecord, ProjectData, ProjectRecord, RelationRecord } from '../store.js';
import type { RecordKind, WorkspaceIds } from './ids.js';

/** A workspace file: text as is, or a value written out as YAML when read. */
export type WorkspaceFile = { text: string } | { yaml: unknown };

export interface Workspace {
  /** Absolute path (`/stats.yaml`) to file. */
  files: Map<string, WorkspaceFile>;
  /** Absolute directory path (`/`, `/contracts`) to its entries; sub-directories end with `/`. */
  dirs: Map<string, Set<string>>;
}

export type WorkspaceEntry = { type: 'directory'; entries: string[] } | { type: 'file'; content: string };

/** How YAML is written here and in the exec worker: no line folding, so grep sees whole values. */
export const YAML_OPTIONS = { lineWidth: 0 } as const;

const renderFile = (file: WorkspaceFile): string => ('text' in file ? file.text : stringify(file.yaml, YAML_OPTIONS));

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

class TreeBuilder implements Workspace {
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
class Slicer {
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

async function build(project: ProjectRecord, data: ProjectData, ids: WorkspaceIds): Promise<Workspace> {
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

/** stats.yaml and AGENTS.md: the counts of each kind, merged duplicates left out. */
function addStats(
  tree: TreeBuilder,
  project: ProjectRecord,
  data: ProjectData,
  /** How many records of each mergeable kind are not merged into another. */
  roots: { entities: number; relations: number; artists: number; writers: number },
  byStatus: Map<string, number>,
  extractedCounts: Map<ContractInclude, number>,
): void {
  const counts = {
    contracts: data.contracts.length,
    statements: data.statements.length,
    entities: roots.entities,
    relations: roots.relations,
    artists: roots.artists,
    writers: roots.writers,
    recordings: data.recordings.length,
    compositions: data.compositions.length,
  };
  const mergedCounts = {
    entities: data.entities.length - roots.entities,
    relations: data.relations.length - roots.relations,
    artists: data.artists.length - roots.artists,
    writers: data.writers.length - roots.writers,
  };
  tree.file('/stats.yaml', {
    yaml: {
      project: { id: project.id, name: project.name },
      counts,
      merged_duplicates: mergedCounts,
      statements_by_processing_status: Object.fromEntries([...byStatus].sort(([a], [b]) => a.localeCompare(b))),
      contracts_with_extracted: Object.fromEntries([...extractedCounts].sort(([a], [b]) => a.localeCompare(b))),
    },
  });
  tree.file('/AGENTS.md', { text: agentsGuide(project, counts, mergedCounts) });
}

function agentsGuide(project: ProjectRecord, counts: Record<string, number>, merged: Record<string, number>): string {
  const countLines = Object.entries(counts)
    .map(([name, n]) => `| ${name} | ${n} | ${merged[name] ?? 0} |`)
    .join('\n');
  return `# Project workspace: ${project.name}

The structured data of project \`${project.id}\`, as files. Commands run with bash (a sandboxed
interpreter: no network, no host files) and start in \`/\`, the workspace root; \`/bin\`, \`/usr\`,
\`/dev\`, \`/proc\` and \`/tmp\` belong to the shell. Changes you make, in \`/tmp\` or anywhere, last for
the commands of one exec request only. Each request has a time limit: on a large catalog, search
one directory (\`grep -l x artists/*.yaml\`) rather than the whole tree.

## Counts

Root records (as the API lists them) and the duplicates merged into them. Details: \`stats.yaml\`.

| resource | records | merged duplicates |
|---|---|---|
${countLines}

## Layout

| path | content |
|---|---|
| \`stats.yaml\` | counts per resource, statements per processing status, contracts per extracted kind |
| \`contracts/contract_<id>/uploaded.yaml\` | the contract: id, name, dates, parties (entity and role), which data was extracted |
| \`contracts/contract_<id>/extracted/<kind>.yaml\` | extracted rows, one file per kind present: royalties, splits, costs, dates, … |
| \`entities/entity_<id>/metadata.yaml\` | a company or label: contact fields, the contracts it is party to and its role, merged ids |
| \`entities/entity_<id>/merged.yaml\` | the full records of the duplicates merged into it (only when there are some) |
| \`artists/artist_<id>.yaml\`, \`writers/writer_<id>.yaml\` | name, and the ids and names merged into it |
| \`relations/relation_<id>.yaml\` | a contact person: email, phone, department, merged duplicates |
| \`recordings/recording_<id>.yaml\` | a sound recording: duration, artists, products (UPC, release date, store) |
| \`compositions/composition_<id>.yaml\` | a musical work: writers, artists, products |
| \`statements/statement_<id>/metadata.yaml\` | a royalty statement: file, type, producer, currencies, processing status |

Only root records have files; a merged duplicate appears inside its root's file. Every \`<id>\` is the
record's id in the API, as are the ids inside the files (\`entity_id\`, \`contract_id\`, \`merged\`, …):
\`artists/artist_<id>.yaml\` is the artist \`GET /v1/artists/<id>\` answers with.

## Exploring

\`\`\`bash
cat stats.yaml
ls contracts | head
grep -h 'type:' contracts/*/extracted/royalties.yaml | sort | uniq -c | sort -rn
grep -l 'role: assignee' entities/*/metadata.yaml | wc -l
yq -N '.name' artists/*.yaml | sort | head
yq ea '[.] | length' artists/*.yaml
yq -o json '.' contracts/contract_*/uploaded.yaml | jq -s 'map({id, name, parties: (.parties | length)})'
find entities -name merged.yaml
\`\`\`

\`grep\`, \`find\`, \`jq\`, \`yq\`, \`awk\`, \`sed\`, \`sort\`, \`uniq\`, \`wc\` and most coreutils are available; there is no \`sqlite3\`, \`python\` or \`curl\`.
\`yq\` reads several files as mikefarah's yq does: each file on its own, a \`---\` line between their
YAML (\`-N\` leaves it out); \`yq ea\` (eval-all) evaluates the expression once over every document.
`;
}

// Per data, one workspace for each kind of ids: the flavors never share one.
const cache = new WeakMap<ProjectData, Map<string, { signature: string; workspace: Promise<Workspace> }>>();

// Lengths catch records added by any code path; in-place edits call invalidateWorkspace.
const signature = (project: ProjectRecord, data: ProjectData): string =>
  [
    project.name,
    data.contracts.length,
    data.statements.length,
    data.entities.length,
    data.relations.length,
    data.artists.length,
    data.writers.length,
    data.recordings.length,
    data.compositions.length,
  ].join('\0');

/**
 * The workspace of a project, built once per version of its data and kind of ids (requests arriving
 * meanwhile share the build). `ids`: those the emulator's API answers to (see ids.ts).
 */
export function workspaceFor(project: ProjectRecord, data: ProjectData, ids: WorkspaceIds): Promise<Workspace> {
  const key = signature(project, data);
  let builds = cache.get(data);
  if (!builds) {
    builds = new Map();
    cache.set(data, builds);
  }
  const cached = builds.get(ids.name);
  if (cached?.signature === key) return cached.workspace;
  const workspace = build(project, data, ids);
  const entry = { signature: key, workspace };
  builds.set(ids.name, entry);
  const current = builds;
  workspace.catch(() => {
    if (current.get(ids.name) === entry) current.delete(ids.name);
  });
  return workspace;
}

/** Drops the cached workspace of data changed in place. */
export function invalidateWorkspace(data: ProjectData): void {
  cache.delete(data);
}

/**
 * The workspace as the exec worker takes it. Copying a few long strings to a thread is a memcpy,
 * where 100,000 small objects take seconds at --scale 100, so every request's copy stays cheap.
 * The file contents are not copied at all: every thread reads the one shared buffer (at --scale
 * 100, 37 MB each thread would otherwise hold a copy of).
 */
export interface PackedWorkspace {
  /** File paths, one per line. */
  paths: string;
  /** The contents of all files back to back, as UTF-8: text as is, YAML files as the JSON of their value. */
  contents: SharedArrayBuffer;
  /** Where each file's content ends in `contents`, in bytes. */
  ends: Uint32Array;
  /** 1 for a file written out as YAML when read. */
  yaml: Uint8Array;
}

const packs = new WeakMap<Workspace, Promise<PackedWorkspace>>();

export function packWorkspace(workspace: Workspace): Promise<PackedWorkspace> {
  let packed = packs.get(workspace);
  if (!packed) {
    packed = pack(workspace);
    packs.set(workspace, packed);
  }
  return packed;
}

async function pack(workspace: Workspace): Promise<PackedWorkspace> {
  const slice = new Slicer();
  const ends = new Uint32Array(workspace.files.size);
  const yaml = new Uint8Array(workspace.files.size);
  const paths: string[] = [];
  const contents: string[] = [];
  let end = 0;
  let i = 0;
  for (const [path, file] of workspace.files) {
    if (slice.due()) await slice.pause();
    const content = 'text' in file ? file.text : JSON.stringify(file.yaml);
    paths.push(path);
    contents.push(content);
    end += Buffer.byteLength(content);
    ends[i] = end;
    yaml[i] = 'text' in file ? 0 : 1;
    i++;
  }
  const shared = new SharedArrayBuffer(end);
  const bytes = Buffer.from(shared);
  let at = 0;
  for (const content of contents) {
    if (slice.due()) await slice.pause();
    at += bytes.write(content, at);
  }
  // Joined slice by slice: one join of 100,000 small strings would hold the server for half a second.
  const parts: string[] = [];
  for (let from = 0; from < paths.length; from += 4096) {
    parts.push(paths.slice(from, from + 4096).join('\n'));
    await slice.pause();
  }
  return { paths: parts.join('\n'), contents: shared, ends, yaml };
}

/**
 * What a sandbox path names. Paths are relative to the workspace root or absolute from it, and
 * `..` stops at the root, as it does in a chroot.
 */
export function readWorkspacePath(workspace: Workspace, path: string): WorkspaceEntry | undefined {
  const resolved = posix.resolve('/', path);
  const dir = workspace.dirs.get(resolved);
  if (dir) return { type: 'directory', entries: [...dir].sort() };
  const file = workspace.files.get(resolved);
  return file && { type: 'file', content: renderFile(file) };
}

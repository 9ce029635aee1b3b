// The sandbox workspace of SPEC 4.11: a file tree generated from a project's data. Files hold the
// value to write, not the text: YAML is written only when a file is read (here for the files
// endpoint, in the worker for exec), because serializing a --scale 100 catalog (100,000+ files)
// up front takes far longer than building this index.
import { posix } from 'node:path';
import { stringify } from 'yaml';
import type { Include as ContractInclude } from '../vocabulary.js';
import type { EntityRecord, PersonRecord, ProjectData, ProjectRecord, RelationRecord } from '../store.js';

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

const renderFile = (file: WorkspaceFile): string =>
  'text' in file ? file.text : stringify(file.yaml, YAML_OPTIONS);

const TOP_DIRS = ['contracts', 'entities', 'artists', 'writers', 'relations', 'recordings', 'compositions', 'statements'];

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

const personFile = (record: PersonRecord, merged: PersonRecord[]): WorkspaceFile => ({
  yaml: withMerged(record, merged.map((m) => ({ id: m.id, name: m.name }))),
});

const relationFile = (record: RelationRecord, merged: RelationRecord[]): WorkspaceFile => ({
  yaml: withMerged(record, merged.map((m) => ({ id: m.id, name: m.name, merged_at: m.merged_at }))),
});

async function build(project: ProjectRecord, data: ProjectData): Promise<Workspace> {
  const tree = new TreeBuilder();
  const slice = new Slicer();
  for (const dir of TOP_DIRS) tree.dir(`/${dir}`);

  const { contractsOfEntity, extractedCounts } = await addContracts(tree, slice, data);

  const entities = mergeGroups<EntityRecord>(data.entities);
  for (const [entity, merged] of entities) {
    if (slice.due()) await slice.pause();
    const dir = `/entities/entity_${safe(entity.id)}`;
    const contracts = contractsOfEntity.get(entity.id);
    const metadata = withMerged(entity, merged.map((m) => ({ id: m.id, name: m.name })));
    tree.file(`${dir}/metadata.yaml`, { yaml: contracts ? { ...metadata, contracts } : metadata });
    if (merged.length > 0) tree.file(`${dir}/merged.yaml`, { yaml: merged });
  }
  const artists = mergeGroups(data.artists);
  for (const [artist, merged] of artists) {
    if (slice.due()) await slice.pause();
    tree.file(`/artists/artist_${safe(artist.id)}.yaml`, personFile(artist, merged));
  }
  const writers = mergeGroups(data.writers);
  for (const [writer, merged] of writers) {
    if (slice.due()) await slice.pause();
    tree.file(`/writers/writer_${safe(writer.id)}.yaml`, personFile(writer, merged));
  }
  const relations = mergeGroups(data.relations);
  for (const [relation, merged] of relations) {
    if (slice.due()) await slice.pause();
    tree.file(`/relations/relation_${safe(relation.id)}.yaml`, relationFile(relation, merged));
  }
  for (const recording of data.recordings) {
    if (slice.due()) await slice.pause();
    tree.file(`/recordings/recording_${safe(recording.id)}.yaml`, { yaml: recording });
  }
  for (const composition of data.compositions) {
    if (slice.due()) await slice.pause();
    tree.file(`/compositions/composition_${safe(composition.id)}.yaml`, { yaml: composition });
  }
  const byStatus = new Map<string, number>();
  for (const statement of data.statements) {
    if (slice.due()) await slice.pause();
    tree.file(`/statements/statement_${safe(statement.id)}/metadata.yaml`, { yaml: statement });
    const status = statement.processing_status ?? 'unprocessed';
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  const roots = { entities: entities.size, relations: relations.size, artists: artists.size, writers: writers.size };
  addStats(tree, project, data, roots, byStatus, extractedCounts);
  return tree;
}

interface EntityContract {
  contract_id: string;
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
): Promise<{ contractsOfEntity: Map<string, EntityContract[]>; extractedCounts: Map<ContractInclude, number> }> {
  const entityNames = new Map(data.entities.map((e) => [e.id, e.name]));
  const contractsOfEntity = new Map<string, EntityContract[]>();
  const extractedCounts = new Map<ContractInclude, number>();
  for (const contract of data.contracts) {
    if (slice.due()) await slice.pause();
    const dir = `/contracts/contract_${safe(contract.id)}`;
    const extracted = (Object.entries(contract.includes) as [ContractInclude, Record<string, unknown>[]][])
      .filter(([, rows]) => rows.length > 0)
      .sort(([a], [b]) => a.localeCompare(b));
    const { includes: _includes, parties, ...fields } = contract;
    tree.file(`${dir}/uploaded.yaml`, {
      yaml: {
        ...fields,
        parties: parties.map((p) => ({ entity_id: p.entity_id, entity_name: entityNames.get(p.entity_id), role: p.role })),
        extracted: extracted.map(([include]) => include),
      },
    });
    tree.dir(`${dir}/extracted`);
    for (const [include, rows] of extracted) {
      tree.file(`${dir}/extracted/${include}.yaml`, { yaml: rows });
      extractedCounts.set(include, (extractedCounts.get(include) ?? 0) + 1);
    }
    for (const party of parties) {
      const list = contractsOfEntity.get(party.entity_id) ?? [];
      list.push({ contract_id: contract.id, contract_name: contract.name, role: party.role });
      contractsOfEntity.set(party.entity_id, list);
    }
  }
  return { contractsOfEntity, extractedCounts };
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

Only root records have files; a merged duplicate appears inside its root's file.

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

const cache = new WeakMap<ProjectData, { signature: string; workspace: Promise<Workspace> }>();

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

/** The workspace of a project, built once per version of its data (requests arriving meanwhile share the build). */
export function workspaceFor(project: ProjectRecord, data: ProjectData): Promise<Workspace> {
  const key = signature(project, data);
  const cached = cache.get(data);
  if (cached?.signature === key) return cached.workspace;
  const workspace = build(project, data);
  cache.set(data, { signature: key, workspace });
  workspace.catch(() => cache.delete(data));
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

// The sandbox workspace of docs/service.md, "Sandbox": a file tree generated from a project's data. Files hold the
// value to write, not the text: YAML is written only when a file is read (here for the files
// endpoint, in the worker for exec), because serializing a --scale 100 catalog (100,000+ files)
// up front takes far longer than building this index.
import { posix } from 'node:path';
import { stringify } from 'yaml';
import type { ProjectData, ProjectRecord } from '../store.js';
import type { WorkspaceIds } from './ids.js';
import { Slicer, build } from './workspace-tree.js';

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

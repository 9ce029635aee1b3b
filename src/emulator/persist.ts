// `--data <file>`: the emulator's state on disk, as a snapshot (`<file>`, one JSON object) and a
// journal beside it (`<file>.journal`, one JSON change per line, appended since the snapshot).
//
// A change costs what it writes: its own line, then an fsync, and only then is it applied in
// memory and answered, so an answer never reports what a crash could lose, and a failed write
// leaves nothing behind to answer 500 about. Writes that come together share one fsync. Now and
// then (and at a clean stop) the journal is folded into a new snapshot: written to a temporary
// file, fsynced, renamed over the old one. A crash during that leaves the old snapshot and the
// journal, whose changes are idempotent (each replaces its record whole), and the temporary
// file, which the next start removes. A crash mid-append leaves at most a partial last line: it
// was never answered, and the next start drops it.
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { EmulatorOptions } from './http.js';
import { seedState } from './seed.js';
import { applyChange, type EmulatorState, type StateChange } from './store.js';

export interface OpenedState {
  state: EmulatorState;
  /**
   * Makes the changes durable, then applies them to the state; rejects (applying nothing) when
   * they cannot be written. In memory only, applies them at once.
   */
  commit(changes: StateChange[]): Promise<void>;
  /** Writes a snapshot of the whole state now (for changes made outside commit). */
  save(): void;
  /** Waits for pending writes and folds the journal into the snapshot. */
  close(): Promise<void>;
  /** Where the state came from, for the start-up banner. */
  origin: 'memory' | 'seeded' | 'loaded';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PROJECT_KEYS = [
  'contracts',
  'statements',
  'entities',
  'relations',
  'artists',
  'writers',
  'recordings',
  'compositions',
];

/** The journal is folded into the snapshot once it is this large (or half the snapshot, if more). */
const COMPACT_BYTES = 4 * 1024 * 1024;

/**
 * Checks the frame of a state file (the collections and counters the emulator indexes into). The
 * records themselves are trusted: the file is the emulator's own output, not user input.
 */
function assertState(value: unknown, file: string): asserts value is EmulatorState {
  const problem = frameProblem(value);
  if (problem) throw new Error(`${file} is not an emulator data file: ${problem}`);
}

function frameProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a JSON object';
  for (const key of ['organizations', 'projects', 'uploads'])
    if (!Array.isArray(value[key])) return `"${key}" is not an array`;
  for (const key of ['tokens', 'sandboxes']) if (!isObject(value[key])) return `"${key}" is not an object`;
  for (const key of ['next_staging_id', 'next_statement_id']) {
    if (!Number.isSafeInteger(value[key])) return `"${key}" is not an integer`;
  }
  const data = value.data;
  if (!isObject(data)) return '"data" is not an object';
  for (const [projectId, project] of Object.entries(data)) {
    if (!isObject(project)) return `data of project ${projectId} is not an object`;
    const missing = PROJECT_KEYS.find((key) => !Array.isArray(project[key]));
    if (missing) return `"${missing}" of project ${projectId} is not an array`;
  }
  return undefined;
}

export function loadState(file: string): EmulatorState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  assertState(parsed, file);
  return parsed;
}

/** The directory entry of a renamed file is durable only once the directory is synced. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the whole state to `file` atomically and durably; returns its size in bytes. */
export function saveState(file: string, state: EmulatorState): number {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const text = JSON.stringify(state);
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(dirname(file));
  return Buffer.byteLength(text);
}

/** Temporary snapshots of a process that died while writing one. */
function removeStaleTemporaries(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length)))
      rmSync(join(dir, name), { force: true });
  }
}

/**
 * Applies the journal's changes to the state. A last line that does not parse was being written
 * when the process died (never answered): it is cut off, so later appends start on a fresh line.
 */
function replayJournal(journal: string, state: EmulatorState): number {
  if (!existsSync(journal)) return 0;
  const text = readFileSync(journal, 'utf8');
  let offset = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    const line = end < 0 ? text.slice(offset) : text.slice(offset, end);
    let change: StateChange;
    try {
      change = JSON.parse(line) as StateChange;
    } catch (error) {
      if (end < 0 || text.slice(end + 1).trim() === '') break;
      throw new Error(`cannot read ${journal}: a damaged line at byte ${offset}: ${(error as Error).message}`);
    }
    applyChange(state, change);
    offset = end < 0 ? text.length : end + 1;
  }
  const kept = Buffer.byteLength(text.slice(0, offset));
  if (kept < Buffer.byteLength(text)) truncateSync(journal, kept);
  return kept;
}

class Journal {
  private readonly queue: {
    text: string;
    changes: StateChange[];
    resolve: () => void;
    reject: (error: Error) => void;
  }[] = [];
  private writing: Promise<void> | undefined;
  private appending = false;
  /** A write failed after changes were applied (advance): the next snapshot must catch up. */
  private behind = false;

  constructor(
    private readonly file: string,
    private readonly journal: string,
    private readonly state: EmulatorState,
    private bytes: number,
    private snapshotBytes: number,
    private readonly compactBytes: number | undefined,
  ) {}

  commit(changes: StateChange[]): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    const text = changes.map((change) => `${JSON.stringify(change)}\n`).join('');
    return new Promise((resolve, reject) => {
      this.queue.push({ text, changes, resolve, reject });
      if (!this.writing) {
        const run: Promise<void> = this.drain().finally(() => {
          if (this.writing === run) this.writing = undefined;
        });
        this.writing = run;
      }
    });
  }

  /** Folds the journal into a new snapshot. Nothing is in flight: callers wait for drain first. */
  compact(): void {
    if (this.appending) {
      // An append in flight would be cut from the journal before its change is applied.
      this.behind = true;
      return;
    }
    this.snapshotBytes = saveState(this.file, this.state);
    writeFileSync(this.journal, '');
    this.bytes = 0;
    this.behind = false;
  }

  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Whether the snapshot lacks something: journaled changes, or ones that could not be written. */
  get dirty(): boolean {
    return this.bytes > 0 || this.behind;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const text = batch.map((entry) => entry.text).join('');
      this.appending = true;
      try {
        await this.append(text);
      } catch (error) {
        for (const entry of batch) entry.reject(error as Error);
        continue;
      } finally {
        this.appending = false;
      }
      // Durable: now the changes may show, before any answer reports them.
      for (const entry of batch) {
        for (const change of entry.changes) applyChange(this.state, change);
        entry.resolve();
      }
    }
    if (this.behind || this.bytes > (this.compactBytes ?? Math.max(COMPACT_BYTES, this.snapshotBytes / 2))) {
      try {
        this.compact();
      } catch {
        // The journal still holds every change: a later compaction will try again.
      }
    }
  }

  private async append(text: string): Promise<void> {
    // Opened per batch: a journal replaced or unreachable fails this write, not every later one.
    const handle = await open(this.journal, 'a');
    try {
      await handle.write(text);
      await handle.datasync();
      this.bytes += Buffer.byteLength(text);
    } catch (error) {
      // A partial line would join the next one: cut the journal back to its last whole change.
      await handle.truncate(this.bytes).catch(() => undefined);
      throw error;
    } finally {
      await handle.close();
    }
  }

  /** Changes already applied (derived ones, like processing results) that could not be written. */
  markBehind(): void {
    this.behind = true;
  }
}

/** The state to serve: from `options.dataFile` when set (seeding it on first use), else in memory. */
export function openState(
  options: Pick<EmulatorOptions, 'dataFile' | 'scale' | 'journalCompactBytes'>,
): OpenedState & { markBehind(): void } {
  const file = options.dataFile;
  if (file === undefined) {
    const state = seedState(options);
    return {
      state,
      origin: 'memory',
      commit: (changes) => {
        for (const change of changes) applyChange(state, change);
        return Promise.resolve();
      },
      save: () => undefined,
      close: () => Promise.resolve(),
      markBehind: () => undefined,
    };
  }
  removeStaleTemporaries(file);
  const journalFile = `${file}.journal`;
  const exists = existsSync(file);
  const state = exists ? loadState(file) : seedState(options);
  let snapshotBytes: number;
  let journalBytes = 0;
  if (exists) {
    snapshotBytes = statSync(file).size;
    journalBytes = replayJournal(journalFile, state);
  } else {
    snapshotBytes = saveState(file, state);
    // A journal without its snapshot belongs to another state.
    rmSync(journalFile, { force: true });
  }
  const journal = new Journal(file, journalFile, state, journalBytes, snapshotBytes, options.journalCompactBytes);
  return {
    state,
    origin: exists ? 'loaded' : 'seeded',
    commit: (changes) => journal.commit(changes),
    save: () => journal.compact(),
    close: async () => {
      await journal.idle();
      if (journal.dirty) journal.compact();
    },
    markBehind: () => journal.markBehind(),
  };
}

// `--data <file>`: the emulator's state as one JSON file, loaded at start (or seeded and written when
// the file does not exist yet) and rewritten after every change. Writes go to a temporary file that
// is then renamed over the old one, so a crash or a reader never sees half a file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EmulatorOptions } from './http.js';
import { seedState } from './seed.js';
import type { EmulatorState } from './store.js';

export interface OpenedState {
  state: EmulatorState;
  /** Writes the state to the data file; does nothing when the state lives in memory only. */
  save(): void;
  /** Where the state came from, for the start-up banner. */
  origin: 'memory' | 'seeded' | 'loaded';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PROJECT_KEYS = ['contracts', 'statements', 'entities', 'relations', 'artists', 'writers', 'recordings', 'compositions'];

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
  for (const key of ['organizations', 'projects', 'uploads']) if (!Array.isArray(value[key])) return `"${key}" is not an array`;
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

export function saveState(file: string, state: EmulatorState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/** The state to serve: from `options.dataFile` when set (seeding it on first use), else in memory. */
export function openState(options: Pick<EmulatorOptions, 'dataFile' | 'scale'>): OpenedState {
  const file = options.dataFile;
  if (file === undefined) return { state: seedState(options), save: () => undefined, origin: 'memory' };
  const exists = existsSync(file);
  const state = exists ? loadState(file) : seedState(options);
  const save = () => saveState(file, state);
  if (!exists) save();
  return { state, save, origin: exists ? 'loaded' : 'seeded' };
}

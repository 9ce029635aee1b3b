// What the phases of one project's seeding share (seed/project.ts runs them): the project's seed
// and PRNG streams, and what one phase hands the next (people, companies, works).
import type { CompositionRecord, EntityRecord, PersonRecord, RecordingRecord } from '../store.js';
import type { IdStarts, NameSpace, ProjectSeed, Rng } from './basics.js';
import type { ContractSources } from './contracts.js';
import type { PersonNames } from './names.js';

/** What every phase of one project's seeding draws on. */
export interface ProjectSeeding {
  seed: ProjectSeed;
  ids: IdStarts;
  size: ProjectSeed['size'];
  /** When the project's records start. */
  from: number;
  names: PersonNames;
  titles: NameSpace;
  /** The PRNG stream of one kind of record. */
  stream(kind: string): Rng;
}

export interface People {
  all: PersonRecord[];
  roots: PersonRecord[];
}

export interface Companies {
  entities: EntityRecord[];
  pools: ContractSources['pools'];
}

export interface Works {
  compositions: CompositionRecord[];
  recordings: RecordingRecord[];
  compositionsByArtist: Map<number, CompositionRecord[]>;
  compositionsByWriter: Map<number, CompositionRecord[]>;
  recordingsByArtist: Map<number, RecordingRecord[]>;
}

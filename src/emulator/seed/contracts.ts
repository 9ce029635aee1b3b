import type {
  CompositionRecord,
  ContractParty,
  ContractRecord,
  EntityRecord,
  PersonRecord,
  RecordingRecord,
} from '../store.js';
import { CONTRACT_CYCLE, CONTRACT_TITLES, type ContractKind } from '../seed-words.js';
import { SEED_NOW, DAY, YEAR, FIRST_EFFECTIVE, type Rng, at, type NameSpace, iso, timeline } from './basics.js';
import { contractIncludes } from './contract-terms.js';
import type { ProjectSeed } from './basics.js';

export interface ContractSources {
  artists: PersonRecord[];
  writers: PersonRecord[];
  pools: {
    label: EntityRecord[];
    publisher: EntityRecord[];
    distributor: EntityRecord[];
    artistCompanies: { entity: EntityRecord; artist: number }[];
    writerCompanies: { entity: EntityRecord; writer: number }[];
  };
  compositionsByArtist: Map<number, CompositionRecord[]>;
  compositionsByWriter: Map<number, CompositionRecord[]>;
  recordingsByArtist: Map<number, RecordingRecord[]>;
  staff: NameSpace;
}

/**
 * The `k`-th member of a pool, drawn from its first four fifths only: the rest never sign a
 * contract, so the `roles` filter of GET /v1/entities has something to leave out.
 */
export function signer<T>(pool: readonly T[], k: number): T | undefined {
  if (pool.length === 0) return undefined;
  return at(pool, k % Math.max(1, Math.floor(pool.length * 0.8)));
}

interface Signers {
  assignors: EntityRecord[];
  assignees: EntityRecord[];
  /** Indexes into the project's artists and writers. */
  artistIndexes: number[];
  writerIndexes: number[];
  /** "Assignor / Assignee", the end of the contract's name. */
  title: string;
}

/** Who signs the `round`-th contract of a kind, and whose works it covers. */
function contractSigners(kind: ContractKind, round: number, rng: Rng, src: ContractSources): Signers {
  const { pools } = src;
  // Pools can be empty in a small project: any entity stands in.
  const fallback = () => rng.pick([...pools.label, ...pools.publisher, ...pools.distributor]);
  let assignors: EntityRecord[] = [];
  let assignees: EntityRecord[] = [];
  let artistIndexes: number[] = [];
  let writerIndexes: number[] = [];
  let title: string;
  if (kind === 'recording') {
    const company = signer(pools.artistCompanies, round);
    const label = signer(pools.label, round) ?? fallback();
    const artistIndex = company?.artist ?? round % src.artists.length;
    const artist = at(src.artists, artistIndex);
    artistIndexes = [artistIndex];
    assignors = company ? [company.entity] : [];
    assignees = [label];
    title = `${artist.name} / ${label.name}`;
  } else if (kind === 'songwriter' || kind === 'co-publishing') {
    const company = signer(pools.writerCompanies, round * 2 + (kind === 'songwriter' ? 0 : 1));
    const publisher = signer(pools.publisher, round * 2 + (kind === 'songwriter' ? 1 : 0)) ?? fallback();
    const writerIndex = company?.writer ?? round % src.writers.length;
    const writer = at(src.writers, writerIndex);
    writerIndexes = [writerIndex];
    assignors = company ? [company.entity] : [];
    assignees = [publisher];
    title = `${writer.name} / ${publisher.name}`;
  } else if (kind === 'distribution') {
    const label = signer(pools.label, round + 1) ?? fallback();
    const distributor = signer(pools.distributor, round) ?? fallback();
    assignors = [label];
    assignees = [distributor];
    artistIndexes = rng.indexes(src.artists.length, rng.int(2, 4));
    title = `${label.name} / ${distributor.name}`;
  } else if (kind === 'administration') {
    const original = signer(pools.publisher, round + 2) ?? fallback();
    const admin = signer(pools.publisher, round + 3) ?? fallback();
    assignors = [original];
    assignees = admin === original ? [] : [admin];
    writerIndexes = rng.indexes(src.writers.length, rng.int(2, 4));
    title = `${original.name} / ${admin.name}`;
  } else {
    const licensor = signer(pools.label, round + 2) ?? fallback();
    const licensee = signer(pools.label, round + 5) ?? fallback();
    assignors = [licensor];
    assignees = licensee === licensor ? [] : [licensee];
    artistIndexes = rng.indexes(src.artists.length, rng.int(1, 3));
    title = `${licensor.name} / ${licensee.name}`;
  }
  return { assignors, assignees, artistIndexes, writerIndexes, title };
}

export function buildContracts(seed: ProjectSeed, firstId: number, rng: Rng, src: ContractSources): ContractRecord[] {
  const contracts: ContractRecord[] = [];
  const when = timeline(seed.size.contracts, seed.created + 7 * DAY, SEED_NOW, rng);
  for (let j = 0; j < seed.size.contracts; j++) {
    const kind = at(CONTRACT_CYCLE, j % CONTRACT_CYCLE.length);
    const round = Math.floor(j / CONTRACT_CYCLE.length);
    const id = String(firstId + j);
    const { assignors, assignees, artistIndexes, writerIndexes, title } = contractSigners(kind, round, rng, src);
    const parties: ContractParty[] = [
      ...assignors.map((e) => ({ entity_id: e.id, role: 'assignor' as const })),
      ...assignees.map((e) => ({ entity_id: e.id, role: 'assignee' as const })),
    ];
    const artists = artistIndexes.map((a) => at(src.artists, a));
    const writers = writerIndexes.map((w) => at(src.writers, w));
    const recordings = artistIndexes.flatMap((a) => src.recordingsByArtist.get(a) ?? []).slice(0, 8);
    const compositions = [
      ...artistIndexes.flatMap((a) => src.compositionsByArtist.get(a) ?? []),
      ...writerIndexes.flatMap((w) => src.compositionsByWriter.get(w) ?? []),
    ].slice(0, 8);
    const effective = FIRST_EFFECTIVE + rng.next() * 10.5 * YEAR;
    const created = when(j);
    const includes = contractIncludes(id, kind, rng, {
      parties: [...assignors.map((e) => ({ e, role: 'assignor' })), ...assignees.map((e) => ({ e, role: 'assignee' }))],
      artists,
      writers,
      recordings,
      compositions,
      effective,
      signatory: (k) => src.staff.name(j * 2 + k),
    });
    contracts.push({
      id,
      name: `${CONTRACT_TITLES[kind]} — ${title}`,
      project_id: seed.id,
      created_at: iso(created),
      parties,
      includes,
    });
  }
  return contracts;
}

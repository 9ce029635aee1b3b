// The catalog's records in the deployed service's forms (docs/service.md, "Records"): projects, entities, relations, artists, writers, recordings and
// compositions. The same stored records as the seed's forms (routes/catalog.ts), drawn otherwise.
import { DEMO_PROJECT_ID, OTHER_PROJECT_ID, SECOND_PROJECT_ID } from '../seed.js';
import {
  ENTITY_OWN_FIELDS,
  fieldsOf,
  RELATION_OWN_FIELDS,
  type CompositionRecord,
  type EntityRecord,
  type PersonRecord,
  type ProjectData,
  type ProjectRecord,
  type RecordingRecord,
  type RelationRecord,
} from '../store.js';
import { deployedId, hashOf, uuidFor, type NumberedKind } from './ids.js';
import { byId, entityLinks } from './indexes.js';

export type Fields = Record<string, unknown>;

/** The object without its undefined values: an optional field (`?`) is left out. */
export function present(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out;
}

// ---- projects ----

/** What the deployed service says of the seeded projects beyond the spec form: some of it null, as there. */
const PROJECT_PROFILES: Readonly<Record<string, Fields>> = {
  [DEMO_PROJECT_ID]: {
    entity_name: 'Northern Lights Music Ltd',
    billing_type: 'enterprise',
    live: true,
    updated_at: '2025-12-01T10:00:00.000Z',
  },
  // No organization_id and no user: the service leaves them out of some projects.
  [SECOND_PROJECT_ID]: {
    entity_name: null,
    billing_type: null,
    live: null,
    updated_at: null,
    organization_id: undefined,
    user_id: undefined,
  },
  [OTHER_PROJECT_ID]: { entity_name: 'Other Records Ltd', billing_type: 'standard', live: false, updated_at: null },
};

export function deployedProject(p: ProjectRecord): Fields {
  const base: Fields = {
    id: p.id,
    name: p.name,
    entity_name: p.entity_name ?? null,
    billing_type: null,
    user_id: `usr_${p.organization_id.slice(0, 4)}`,
    organization_id: p.organization_id,
    live: null,
    archived: false,
    created_at: p.created_at,
    updated_at: null,
  };
  return present({ ...base, ...PROJECT_PROFILES[p.id] });
}

// ---- merged variants (entities, relations, artists, writers) ----

interface Mergeable {
  id: string;
  name: string;
  merged_at?: string;
  updated_at?: string;
  created_at?: string;
}

/** `merged: [{id, name, merged_at}]`, when includeMerged=true (the index is undefined otherwise). */
const mergedOf = <T extends Mergeable>(
  kind: NumberedKind,
  index: Map<string, T[]> | undefined,
  id: string,
): Fields[] | undefined =>
  index &&
  (index.get(id) ?? []).map((m) => ({
    id: deployedId(kind, m.id),
    name: m.name,
    merged_at: m.merged_at ?? m.updated_at ?? m.created_at ?? null,
  }));

// ---- entities, relations, artists, writers ----

export const deployedEntity = (
  data: ProjectData,
  merged: Map<string, EntityRecord[]> | undefined,
): ((e: EntityRecord) => Fields) => {
  // Looked up once per page, not once per record.
  const linksOf = entityLinks(data);
  return (e) => {
    const links = linksOf.get(e.id);
    const some = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);
    return present({
      id: deployedId('entity', e.id),
      ...fieldsOf(e, ENTITY_OWN_FIELDS),
      division_of: e.division_of === undefined ? undefined : deployedId('entity', e.division_of),
      created_at: e.created_at,
      updated_at: e.updated_at,
      artists: some(links?.artists),
      writers: some(links?.writers),
      relations: some(links?.relations),
      merged: mergedOf('entity', merged, e.id),
    });
  };
};

export const deployedRelation =
  (merged: Map<string, RelationRecord[]> | undefined) =>
  (r: RelationRecord): Fields => {
    const id = deployedId('relation', r.id);
    return present({
      id,
      internal_uuid: uuidFor('relation', id),
      ...fieldsOf(r, RELATION_OWN_FIELDS),
      merged: mergedOf('relation', merged, r.id),
    });
  };

/** Artists carry an internal_uuid, writers do not (docs/service.md, "Records"). */
export const deployedPerson =
  (kind: 'artist' | 'writer', projectCreated: string, merged: Map<string, PersonRecord[]> | undefined) =>
  (p: PersonRecord): Fields => {
    const id = deployedId(kind, p.id);
    return present({
      id,
      name: p.name,
      internal_uuid: kind === 'artist' ? uuidFor('artist', id) : undefined,
      // A state saved before the seed dated its people: the project's creation is the earliest date.
      created_at: p.created_at ?? projectCreated,
      merged: mergedOf(kind, merged, p.id),
    });
  };

// ---- recordings and compositions ----

/** `{name, spotify_id?}`: two names in three have a Spotify id (from the name's hash: the seed stores none). */
export function artistRef(name: string): Fields {
  const hash = hashOf(name);
  return hash % 3 === 0 ? { name } : { name, spotify_id: hash.toString(36).padStart(7, '0').slice(0, 7) };
}

/** ISRCs (CC-XXX-YY-NNNNN): every recording one, every fourth a second one found in a contract. */
export function isrcIdentifiers(r: RecordingRecord, id: number): Fields[] {
  const year = (r.products[0]?.release_date ?? r.created_at).slice(2, 4);
  const serial = String(id % 100_000).padStart(5, '0');
  const first = { type: 'isrc', value: `QMNLC${year}${serial}`, source: 'spotify' };
  return id % 4 === 0 ? [first, { type: 'isrc', value: `QMNLX${year}${serial}`, source: 'contract' }] : [first];
}

/** An ISWC (T-DDD.DDD.DDD-C) with its check digit. */
export function iswcOf(id: number): string {
  const digits = String(300_000_000 + (id % 100_000_000));
  let sum = 1;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(digits.charAt(i));
  return `T-${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${(10 - (sum % 10)) % 10}`;
}

type Product = RecordingRecord['products'][number];

const product = (p: Product): Fields =>
  present({
    name: p.name,
    upc: p.upc,
    release_date: p.release_date,
    artists: p.artists.map(artistRef),
    store: p.store,
  });

/**
 * The writers of a composition as its creators: the first is the composer. A recording names every
 * creator's role; a composition leaves its co-writers' out (docs/service.md: `role?` there).
 */
const creatorsOf = (writers: readonly string[], everyRole: boolean): Fields[] =>
  writers.map((name, i) => (i === 0 ? { name, role: 'composer' } : everyRole ? { name, role: 'co-writer' } : { name }));

/** A recording; fetched by id it also has its dates, which the service's list leaves out. */
export const deployedRecording = (
  data: ProjectData,
  withProducts: boolean,
  byIdDates = false,
): ((r: RecordingRecord) => Fields) => {
  const compositions = byId(data.compositions);
  return (r) => {
    const id = deployedId('recording', r.id);
    const composition = r.composition_id === undefined ? undefined : compositions.get(r.composition_id);
    return present({
      id,
      internal_uuid: uuidFor('recording', id),
      name: r.name,
      // The seed's studio recording is the original; live, remix, acoustic and edits derive from it.
      type: r.type === 'studio' ? 'original' : 'derivative',
      identifiers: isrcIdentifiers(r, id),
      duration_ms: r.duration_ms,
      release_date: r.products[0]?.release_date,
      artists: r.artists.map(artistRef),
      creators: composition ? creatorsOf(composition.writers, true) : [],
      products: withProducts ? r.products.map(product) : undefined,
      created_at: byIdDates ? r.created_at : undefined,
      updated_at: byIdDates ? (r.updated_at ?? null) : undefined,
    });
  };
};

export const deployedComposition =
  (withProducts: boolean) =>
  (c: CompositionRecord): Fields => {
    const id = deployedId('composition', c.id);
    return present({
      id,
      name: c.name,
      type: c.type,
      identifiers: [{ type: 'iswc', value: iswcOf(id), source: 'mlc' }],
      creators: creatorsOf(c.writers, false),
      // The service names a work's writers through its creators, and leaves `writers` null.
      writers: null,
      artists: c.artists.map(artistRef),
      created_at: c.created_at,
      updated_at: c.updated_at,
      products: withProducts ? c.products.map(product) : undefined,
    });
  };

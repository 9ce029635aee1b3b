// Deterministic demo data: a music-industry catalog generated from word lists and a seeded PRNG, so
// every start (and every test) sees the same ids, names and timestamps. `scale` multiplies the
// first project's catalog for pagination and performance work; each kind of record is generated on
// first access, so even --scale 100 starts at once.
import type { Include as ContractInclude } from './vocabulary.js';
import { generatedPdf } from './generated-files.js';
import { manyStatements } from './deployed/many-statements.js';
import type { EmulatorOptions } from './http.js';
import type {
  CompositionRecord,
  ContractParty,
  ContractRecord,
  EmulatorState,
  EntityRecord,
  PersonRecord,
  Product,
  ProjectData,
  RecordingRecord,
  RelationRecord,
  StatementRecord,
} from './store.js';
import {
  FIRST_NAMES,
  LAST_NAMES,
  BAND_WORDS_A,
  BAND_WORDS_B,
  TITLE_ADJ,
  TITLE_NOUN,
  TITLE_VERB,
  ENTITY_WORDS,
  ENTITY_CYCLE,
  ENTITY_SUFFIXES,
  DIVISIONS,
  LEGAL_SUFFIXES,
  ADDRESSES,
  DEPARTMENTS,
  JOB_TITLES,
  STORES,
  PRODUCT_SOURCES,
  CURRENCIES,
  TERRITORIES,
  CONTRACT_CYCLE,
  CONTRACT_TITLES,
  STATEMENT_TYPES,
  SUBTYPES,
  type ContractKind,
} from './seed-words.js';

export const DEMO_ORG_ID = '0b7e9a52-3c1d-4f5e-9a8b-1c2d3e4f5a6b';
export const OTHER_ORG_ID = '7d4c2b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
export const DEMO_PROJECT_ID = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
export const SECOND_PROJECT_ID = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
export const OTHER_PROJECT_ID = 'c3e5a7b9-4d6f-4e8a-9b1c-2d3e4f5a6b7c';
export const DEMO_ORG_TOKEN = 'demo-org-token';
export const DEMO_PROJECT_TOKEN = 'demo-project-token';

/** How many root records of each kind one project gets (merged duplicates come on top). */
interface CatalogSize {
  contracts: number;
  statements: number;
  entities: number;
  artists: number;
  writers: number;
  relations: number;
  recordings: number;
  compositions: number;
}

/** The first demo project at scale 1; `scale` multiplies every count. */
const DEMO_CATALOG: CatalogSize = {
  contracts: 36,
  statements: 120,
  entities: 64,
  artists: 100,
  writers: 72,
  relations: 64,
  recordings: 128,
  compositions: 96,
};

const SECOND_CATALOG: CatalogSize = {
  contracts: 8,
  statements: 16,
  entities: 16,
  artists: 18,
  writers: 12,
  relations: 10,
  recordings: 22,
  compositions: 16,
};

const OTHER_CATALOG: CatalogSize = {
  contracts: 3,
  statements: 4,
  entities: 8,
  artists: 6,
  writers: 4,
  relations: 4,
  recordings: 8,
  compositions: 5,
};

/** First id of the integer-numbered records; far from the staging ids (1001…) so the two never meet. */
const FIRST_CONTRACT_ID = 20001;
const FIRST_STATEMENT_ID = 40001;

/** The seed's notion of "now": the newest timestamp it writes. */
const SEED_NOW = Date.parse('2026-01-12T17:00:00.000Z');
const DAY = 86_400_000;
const YEAR = 365 * DAY;
/** Releases and contract terms start in these years, long before the records were entered. */
const FIRST_RELEASE = Date.parse('2016-01-01T00:00:00.000Z');
const FIRST_EFFECTIVE = Date.parse('2015-01-01T00:00:00.000Z');

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** mulberry32: tiny, fast and well distributed; used for the demo data and for fault injection. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.next() * items.length));
  }

  /** `count` distinct indexes below `size` (all of them when there are fewer), ascending. */
  indexes(size: number, count: number): number[] {
    if (count >= size) return Array.from({ length: size }, (_, i) => i);
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(Math.floor(this.next() * size));
    return [...chosen].sort((a, b) => a - b);
  }

  /** `count` distinct items (fewer when the list is shorter), in list order. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.indexes(items.length, count).map((i) => at(items, i));
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    let hex = '';
    for (let i = 0; i < 4; i++)
      hex += Math.floor(this.next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside a list of ${items.length}`);
  return item;
}

/** A stable 32-bit seed from a label (FNV-1a), so each project and record kind has its own stream. */
function seedOf(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Distinct names from the product of word lists, visited in a scattered but fixed order (a stride
 * coprime with the size is a permutation). Past the end of the space names repeat with a number.
 */
class NameSpace {
  private readonly stride: number;

  constructor(
    private readonly size: number,
    private readonly build: (k: number) => string,
    private readonly offset = 0,
  ) {
    this.stride = [7919, 7907, 7901, 7883, 7877].find((p) => gcd(p, size) === 1) ?? 1;
  }

  name(i: number): string {
    const cycle = Math.floor(i / this.size);
    const k = ((i % this.size) * this.stride + this.offset) % this.size;
    return cycle === 0 ? this.build(k) : `${this.build(k)} ${cycle + 1}`;
  }
}

const product2 = (a: readonly string[], b: readonly string[], join: (x: string, y: string) => string) => (k: number) =>
  join(at(a, k % a.length), at(b, Math.floor(k / a.length) % b.length));

// Formatting timestamps dominated the cost of seeding at --scale 100, so the date part is cached
// per day and the time part assembled from precomputed digit strings.
const isoDays = new Map<number, string>();
const DIGITS2 = Array.from({ length: 100 }, (_, i) => pad(i, 2));
const DIGITS3 = Array.from({ length: 1000 }, (_, i) => pad(i, 3));
function iso(ms: number): string {
  const whole = Math.round(ms);
  const day = Math.floor(whole / DAY);
  let datePart = isoDays.get(day);
  if (datePart === undefined) {
    datePart = new Date(day * DAY).toISOString().slice(0, 11);
    isoDays.set(day, datePart);
  }
  const t = whole - day * DAY;
  return (
    datePart +
    at(DIGITS2, Math.floor(t / 3_600_000)) +
    ':' +
    at(DIGITS2, Math.floor(t / 60_000) % 60) +
    ':' +
    at(DIGITS2, Math.floor(t / 1000) % 60) +
    '.' +
    at(DIGITS3, t % 1000) +
    'Z'
  );
}
/** Timestamps after a record's creation never pass the seed's "now". */
const isoCapped = (ms: number): string => iso(Math.min(ms, SEED_NOW));
const pushTo = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};
const date = (ms: number): string => iso(ms).slice(0, 10);
const slug = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
const initials = (text: string): string =>
  text
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');

/** A UPC-A: 11 digits and the standard check digit. */
function upc(rng: Rng): string {
  let digits = String(rng.pick([0, 1, 6, 8]));
  for (let i = 0; i < 10; i++) digits += String(rng.int(0, 9));
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(digits.charAt(i)) * (i % 2 === 0 ? 3 : 1);
  return digits + String((10 - (sum % 10)) % 10);
}

function phone(rng: Rng): string {
  switch (rng.int(0, 2)) {
    case 0:
      return `+1 ${rng.pick(['615', '212', '310', '404'])} 555 01${pad(rng.int(0, 99), 2)}`;
    case 1:
      return `+44 20 7946 0${pad(rng.int(0, 999), 3)}`;
    default:
      return `+61 2 5550 ${pad(rng.int(0, 9999), 4)}`;
  }
}

/**
 * The first number of each kind of id in one project. Projects get disjoint blocks, computed up
 * front, so ids are unique across the emulator whichever project is built first.
 */
interface IdStarts {
  contract: number;
  statement: number;
  entity: number;
  artist: number;
  writer: number;
  relation: number;
  recording: number;
  composition: number;
}

/** Evenly spread, strictly increasing timestamps over a window, with a little jitter. */
function timeline(count: number, from: number, to: number, rng: Rng): (i: number) => number {
  const step = (to - from) / Math.max(count, 1);
  return (i) => from + (i + 0.05 + rng.next() * 0.9) * step;
}

interface PersonNames {
  solo: NameSpace;
  bands: NameSpace;
  people: NameSpace;
  staff: NameSpace;
}

function personNames(offset: number): PersonNames {
  const fullName = product2(FIRST_NAMES, LAST_NAMES, (f, l) => `${f} ${l}`);
  const people = (extra: number) => new NameSpace(FIRST_NAMES.length * LAST_NAMES.length, fullName, offset + extra);
  return {
    solo: people(0),
    bands: new NameSpace(
      BAND_WORDS_A.length * BAND_WORDS_B.length,
      product2(BAND_WORDS_A, BAND_WORDS_B, (a, b) => `The ${a} ${b}`),
      offset,
    ),
    people: people(1153),
    staff: people(577),
  };
}

/** Song titles from three patterns ("Golden Hour", "Chasing the Tide", "Harbor Lights"). */
function titleSpace(offset: number): NameSpace {
  const adjNoun = TITLE_ADJ.length * TITLE_NOUN.length;
  const verbNoun = TITLE_VERB.length * TITLE_NOUN.length;
  const nounNoun = TITLE_NOUN.length * TITLE_NOUN.length;
  const first = product2(TITLE_ADJ, TITLE_NOUN, (a, n) => `${a} ${n}`);
  const second = product2(TITLE_VERB, TITLE_NOUN, (v, n) => `${v} the ${n}`);
  const third = product2(TITLE_NOUN, TITLE_NOUN, (a, b) => `${a} ${b}`);
  return new NameSpace(
    adjNoun + verbNoun + nounNoun,
    (k) => (k < adjNoun ? first(k) : k < adjNoun + verbNoun ? second(k - adjNoun) : third(k - adjNoun - verbNoun)),
    offset,
  );
}

/** Variants under which a duplicate of a name was extracted before being merged into its root. */
function personVariant(name: string, variant: number): string {
  const parts = name.split(' ');
  const first = parts[0] ?? name;
  const rest = parts.slice(1).join(' ');
  if (name.startsWith('The '))
    return [name.slice(4), name.toUpperCase(), `${name.slice(4)} (Band)`][variant % 3] ?? name;
  return [`${rest}, ${first}`, `${first.charAt(0)}. ${rest}`, name.toUpperCase()][variant % 3] ?? name;
}

function entityVariant(name: string, variant: number, rng: Rng): string {
  return (
    [`${name} ${rng.pick(LEGAL_SUFFIXES)}`, name.toUpperCase(), `${name} (${initials(name)})`][variant % 3] ?? name
  );
}

interface ProjectSeed {
  id: string;
  index: number;
  created: number;
  size: CatalogSize;
}

/** A value computed on first use. */
function once<T>(build: () => T): () => T {
  let cached: { value: T } | undefined;
  return () => {
    cached ??= { value: build() };
    return cached.value;
  };
}

/**
 * Project data whose arrays are generated on first access and then stored as plain properties
 * (assignment also works), so the emulator starts at once even at --scale 100 and a request pays
 * only for the kinds it reads. JSON.stringify sees ordinary enumerable properties.
 */
function lazyProjectData(builders: { [K in keyof ProjectData]: () => ProjectData[K] }): ProjectData {
  const data = {} as ProjectData;
  const settle = (key: keyof ProjectData, value: unknown) =>
    Object.defineProperty(data, key, { value, writable: true, enumerable: true, configurable: true });
  for (const key of Object.keys(builders) as (keyof ProjectData)[]) {
    Object.defineProperty(data, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        const value = builders[key]();
        settle(key, value);
        return value;
      },
      set: (value: unknown) => settle(key, value),
    });
  }
  return data;
}

/** What every phase of one project's seeding draws on. */
interface ProjectSeeding {
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

interface People {
  all: PersonRecord[];
  roots: PersonRecord[];
}

interface Companies {
  entities: EntityRecord[];
  pools: ContractSources['pools'];
}

interface Works {
  compositions: CompositionRecord[];
  recordings: RecordingRecord[];
  compositionsByArtist: Map<number, CompositionRecord[]>;
  compositionsByWriter: Map<number, CompositionRecord[]>;
  recordingsByArtist: Map<number, RecordingRecord[]>;
}

/**
 * One project's records. Each kind has its own PRNG stream and id block, so the phases (people,
 * companies, relations, works, contracts, statements) give the same records in any order.
 */
function buildProject(seed: ProjectSeed, ids: IdStarts): ProjectData {
  const p: ProjectSeeding = {
    seed,
    ids,
    size: seed.size,
    from: seed.created + 7 * DAY,
    names: personNames(seed.index * 211),
    titles: titleSpace(seed.index * 389),
    stream: (kind) => new Rng(seedOf(`${seed.index}:${kind}`)),
  };
  const { size, names, stream } = p;
  const artistsOnce = once(() => buildPersons(p, 'artist', size.artists, 7));
  const writersOnce = once(() => buildPersons(p, 'writer', size.writers, 8));
  const companiesOnce = once(() => buildCompanies(p, artistsOnce(), writersOnce()));
  const relationsOnce = once(() => buildRelations(p, companiesOnce().entities));
  const worksOnce = once(() => buildWorks(p, artistsOnce(), writersOnce()));

  return lazyProjectData({
    contracts: () => {
      const works = worksOnce();
      return buildContracts(seed, ids.contract, stream('contract'), {
        artists: artistsOnce().roots,
        writers: writersOnce().roots,
        pools: companiesOnce().pools,
        compositionsByArtist: works.compositionsByArtist,
        compositionsByWriter: works.compositionsByWriter,
        recordingsByArtist: works.recordingsByArtist,
        staff: names.staff,
      });
    },
    statements: () => {
      const { pools } = companiesOnce();
      return buildStatements(seed, ids.statement, stream('statement'), [
        ...pools.label.map((entity) => ({ entity, category: 'recording' as const })),
        ...pools.publisher.map((entity) => ({ entity, category: 'publishing' as const })),
        ...pools.distributor.map((entity) => ({ entity, category: 'recording' as const })),
      ]);
    },
    entities: () => companiesOnce().entities,
    relations: relationsOnce,
    artists: () => artistsOnce().all,
    writers: () => writersOnce().all,
    recordings: () => worksOnce().recordings,
    compositions: () => worksOnce().compositions,
  });
}

/** Artists or writers: roots, each sometimes followed by the duplicates merged into it. */
function buildPersons(p: ProjectSeeding, kind: 'artist' | 'writer', count: number, dupEvery: number): People {
  const { seed, ids, from, names } = p;
  const stream = p.stream;
  const rng = stream(kind);
  let next = ids[kind];
  const all: PersonRecord[] = [];
  const roots: PersonRecord[] = [];
  let solo = 0;
  let band = 0;
  const when = timeline(count, from, SEED_NOW, rng);
  for (let i = 0; i < count; i++) {
    const name =
      kind === 'writer' ? names.people.name(i) : i % 3 === 2 ? names.bands.name(band++) : names.solo.name(solo++);
    // Spread evenly, without a draw of the PRNG: the records seeded before this field stay as they were.
    const created_at = iso(from + (i * (SEED_NOW - from)) / count);
    const root: PersonRecord = {
      id: `${kind === 'artist' ? 'art' : 'wri'}_${pad(next++, 5)}`,
      name,
      project_id: seed.id,
      created_at,
    };
    all.push(root);
    roots.push(root);
    if (i % dupEvery === dupEvery - 1) {
      const dups = i % (dupEvery * 3) === dupEvery - 1 ? 2 : 1;
      for (let d = 0; d < dups; d++) {
        all.push({
          id: `${kind === 'artist' ? 'art' : 'wri'}_${pad(next++, 5)}`,
          name: personVariant(name, i + d),
          project_id: seed.id,
          created_at,
          merged_into: root.id,
          merged_at: isoCapped(when(i) + rng.int(2, 90) * DAY),
        });
      }
    }
  }
  return { all, roots };
}

/**
 * Entities: labels, publishers, distributors, divisions of labels, and the artists' and writers'
 * loan-out companies (which sign contracts as assignors).
 */
function buildCompanies(p: ProjectSeeding, artists: People, writers: People): Companies {
  const { seed, ids, from, size } = p;
  const stream = p.stream;
  const entityRng = stream('entity');
  let nextEntity = ids.entity;
  const entities: EntityRecord[] = [];
  const pools = {
    label: [] as EntityRecord[],
    publisher: [] as EntityRecord[],
    distributor: [] as EntityRecord[],
    artistCompanies: [] as { entity: EntityRecord; artist: number }[],
    writerCompanies: [] as { entity: EntityRecord; writer: number }[],
  };
  const companyNames = (kind: keyof typeof ENTITY_SUFFIXES, offset: number) => {
    const suffixes = ENTITY_SUFFIXES[kind];
    const build = product2(ENTITY_WORDS, suffixes, (w, x) => `${w} ${x}`);
    return new NameSpace(ENTITY_WORDS.length * suffixes.length, build, offset + seed.index * 97);
  };
  const kindNames = {
    label: companyNames('label', 0),
    publisher: companyNames('publisher', 13),
    distributor: companyNames('distributor', 29),
  };
  const kindCount = { label: 0, publisher: 0, distributor: 0, company: 0, division: 0 };
  const parentLabels: EntityRecord[] = [];
  const entityWhen = timeline(size.entities, from, SEED_NOW, entityRng);
  for (let i = 0; i < size.entities; i++) {
    const rng = entityRng;
    let kind = at(ENTITY_CYCLE, i % ENTITY_CYCLE.length);
    if (kind === 'division' && parentLabels.length === 0) kind = 'label';
    let name: string;
    let divisionOf: string | undefined;
    // Loan-out companies alternate between an artist's and a writer's.
    let owner: { artist: number } | { writer: number } | undefined;
    if (kind === 'company') {
      ({ name, owner } = loanOutCompany(kindCount.company++, artists, writers));
    } else if (kind === 'division') {
      const parent = rng.pick(parentLabels);
      divisionOf = parent.id;
      name = `${parent.name} ${at(DIVISIONS, kindCount.division++ % DIVISIONS.length)}`;
    } else {
      name = kindNames[kind].name(kindCount[kind]++);
    }
    const created = entityWhen(i);
    const domain = `${slug(name.replace(/ (Music LLC|Songs Ltd|Productions Ltd)$/, ''))}.com`;
    const entity: EntityRecord = {
      id: `ent_${pad(nextEntity++, 5)}`,
      internal_uuid: rng.uuid(),
      name,
      project_id: seed.id,
      created_at: iso(created),
      updated_at: isoCapped(created + rng.int(0, 200) * DAY),
    };
    // Contact details are patchy, as extracted data is: absent fields stay absent.
    if (rng.chance(0.7))
      entity.email = `${rng.pick(['royalties', 'contracts', 'info', 'licensing', 'legal'])}@${domain}`;
    if (rng.chance(0.55)) entity.phone = phone(rng);
    if (rng.chance(0.6)) entity.address = rng.pick(ADDRESSES)(rng.int(1, 2400));
    if (kind !== 'company' && rng.chance(0.4)) entity.shorthand = initials(name);
    if (divisionOf) entity.division_of = divisionOf;
    entities.push(entity);
    if (owner && 'artist' in owner) pools.artistCompanies.push({ entity, artist: owner.artist });
    else if (owner) pools.writerCompanies.push({ entity, writer: owner.writer });
    else if (kind !== 'company') pools[kind === 'division' ? 'label' : kind].push(entity);
    if (kind === 'label') parentLabels.push(entity);
    if (i % 6 === 1) entities.push(entityDuplicate(entity, created, `ent_${pad(nextEntity++, 5)}`, i, rng));
  }
  return { entities, pools };
}

/** The `c`th loan-out company: an artist's and a writer's in turn. */
function loanOutCompany(
  c: number,
  artists: People,
  writers: People,
): { name: string; owner: { artist: number } | { writer: number } } {
  if (c % 2 === 0) {
    const artist = ((c / 2) * 7) % artists.roots.length;
    const artistName = at(artists.roots, artist).name;
    return {
      name: artistName.startsWith('The ') ? `${artistName.slice(4)} Productions Ltd` : `${artistName} Music LLC`,
      owner: { artist },
    };
  }
  const writer = (((c - 1) / 2) * 5) % writers.roots.length;
  return { name: `${at(writers.roots, writer).name} Songs Ltd`, owner: { writer } };
}

/** A duplicate of the `i`th entity (made at `created`, in ms), made after it and merged into it. */
function entityDuplicate(entity: EntityRecord, created: number, id: string, i: number, rng: Rng): EntityRecord {
  const dupCreated = created + rng.int(5, 120) * DAY;
  const duplicate: EntityRecord = {
    id,
    internal_uuid: rng.uuid(),
    name: entityVariant(entity.name, i, rng),
    project_id: entity.project_id,
    created_at: isoCapped(dupCreated),
    updated_at: isoCapped(dupCreated),
    merged_into: entity.id,
    merged_at: isoCapped(dupCreated + rng.int(1, 30) * DAY),
  };
  if (entity.email) duplicate.email = entity.email;
  return duplicate;
}

/** Relations: contacts at the companies, de-duplicated like the other records. */
function buildRelations(p: ProjectSeeding, entities: EntityRecord[]): RelationRecord[] {
  const { ids, from, names, size } = p;
  const stream = p.stream;
  const relationRng = stream('relation');
  let nextRelation = ids.relation;
  const relations: RelationRecord[] = [];
  const companies = entities.filter((e) => !e.merged_into);
  const relationWhen = timeline(size.relations, from, SEED_NOW, relationRng);
  for (let i = 0; i < size.relations; i++) {
    const rng = relationRng;
    const name = names.staff.name(i);
    const company = rng.pick(companies);
    const [first = name, ...rest] = name.split(' ');
    const domain = `${slug(company.name.replace(/ (Music LLC|Songs Ltd|Productions Ltd)$/, ''))}.com`;
    const created = relationWhen(i);
    const relation: RelationRecord = {
      id: `rel_${pad(nextRelation++, 5)}`,
      name,
      email: `${slug(first)}.${slug(rest.join(''))}@${domain}`,
      phone: phone(rng),
      department: rng.pick(DEPARTMENTS),
      created_at: iso(created),
      updated_at: isoCapped(created + rng.int(0, 150) * DAY),
    };
    relations.push(relation);
    if (i % 6 === 2) {
      const dupCreated = created + rng.int(3, 100) * DAY;
      relations.push({
        id: `rel_${pad(nextRelation++, 5)}`,
        name: personVariant(name, i),
        email: relation.email,
        phone: phone(rng),
        department: relation.department,
        created_at: isoCapped(dupCreated),
        updated_at: isoCapped(dupCreated),
        merged_into: relation.id,
        merged_at: isoCapped(dupCreated + rng.int(1, 20) * DAY),
      });
    }
  }
  return relations;
}

/**
 * Compositions and their recordings (built together: a composition's products are those of its
 * studio recording). Composition c is performed by artist c and written by writer c (plus
 * co-writers); recordings past the first round are live, remix, acoustic… versions.
 */
function buildWorks(p: ProjectSeeding, artists: People, writers: People): Works {
  const compositions = buildCompositions(p, artists, writers);
  return { ...compositions, ...buildRecordings(p, artists, compositions.compositions) };
}

function buildCompositions(
  p: ProjectSeeding,
  artists: People,
  writers: People,
): Pick<Works, 'compositions' | 'compositionsByArtist' | 'compositionsByWriter'> {
  const { ids, from, size, titles } = p;
  const compositionRng = p.stream('composition');
  let nextComposition = ids.composition;
  const compositions: CompositionRecord[] = [];
  const compositionsByArtist = new Map<number, CompositionRecord[]>();
  const compositionsByWriter = new Map<number, CompositionRecord[]>();
  const compositionWhen = timeline(size.compositions, from, SEED_NOW, compositionRng);
  for (let c = 0; c < size.compositions; c++) {
    const rng = compositionRng;
    const artist = c % artists.roots.length;
    const writer = c % writers.roots.length;
    const coWriters = rng.sample(writers.roots, rng.int(0, 2)).filter((w) => w !== at(writers.roots, writer));
    const created = compositionWhen(c);
    const composition: CompositionRecord = {
      id: `com_${pad(nextComposition++, 5)}`,
      name: titles.name(c),
      type: rng.chance(0.8) ? 'original' : rng.pick(['arrangement', 'adaptation', 'instrumental']),
      writers: [at(writers.roots, writer).name, ...coWriters.map((w) => w.name)],
      artists: [at(artists.roots, artist).name],
      created_at: iso(created),
      updated_at: isoCapped(created + rng.int(0, 90) * DAY),
      products: [],
    };
    compositions.push(composition);
    pushTo(compositionsByArtist, artist, composition);
    pushTo(compositionsByWriter, writer, composition);
  }
  return { compositions, compositionsByArtist, compositionsByWriter };
}

/** Each composition's recordings: the studio one first, then the other versions round by round. */
function buildRecordings(
  p: ProjectSeeding,
  artists: People,
  compositions: CompositionRecord[],
): Pick<Works, 'recordings' | 'recordingsByArtist'> {
  const { seed, ids, from, size } = p;
  const recordingRng = p.stream('recording');
  let nextRecording = ids.recording;
  const recordings: RecordingRecord[] = [];
  const recordingsByArtist = new Map<number, RecordingRecord[]>();
  const albums = titleSpace(seed.index * 389 + 1777);
  const recordingWhen = timeline(size.recordings, from, SEED_NOW, recordingRng);
  const versions = ['live', 'remix', 'acoustic', 'radio edit'] as const;
  for (let r = 0; r < size.recordings; r++) {
    const rng = recordingRng;
    const c = r % compositions.length;
    const composition = at(compositions, c);
    const title = composition.name;
    const artist = c % artists.roots.length;
    const performers = [...composition.artists];
    if (rng.chance(0.15)) performers.push(rng.pick(artists.roots).name);
    const studio = r < compositions.length;
    const type = studio ? 'studio' : at(versions, (Math.floor(r / compositions.length) - 1) % versions.length);
    // Drawn for every recording, remix or not: the draws that follow stay where they were, so the
    // seeded records (which tests pin) do not shift.
    const remixer = rng.pick(artists.roots).name.replace(/^The /, '');
    const version =
      type === 'studio'
        ? ''
        : type === 'remix'
          ? ` (${remixer} Remix)`
          : type === 'radio edit'
            ? ' (Radio Edit)'
            : ` (${type.charAt(0).toUpperCase()}${type.slice(1)})`;
    const seconds = type === 'radio edit' ? rng.int(150, 210) : type === 'live' ? rng.int(220, 390) : rng.int(160, 300);
    const released = FIRST_RELEASE + rng.next() * 9.5 * YEAR;
    const products: Product[] = [];
    const productCount = rng.int(1, 3);
    for (let p = 0; p < productCount; p++) {
      const single = p === 0 && rng.chance(0.6);
      products.push({
        name: single ? `${title}${version} - Single` : `${albums.name(r * 3 + p)}${rng.chance(0.25) ? ' - EP' : ''}`,
        upc: upc(rng),
        release_date: date(released + p * rng.int(30, 400) * DAY),
        artists: performers.slice(0, 1),
        source: rng.pick(PRODUCT_SOURCES),
        store: rng.pick(STORES),
      });
    }
    const created = recordingWhen(r);
    const recording: RecordingRecord = {
      id: `rec_${pad(nextRecording++, 5)}`,
      name: `${title}${version}`,
      duration_ms: seconds * 1000 + rng.int(0, 999),
      type,
      artists: performers,
      created_at: iso(created),
      updated_at: isoCapped(created + rng.int(0, 60) * DAY),
      products,
      composition_id: composition.id,
    };
    recordings.push(recording);
    pushTo(recordingsByArtist, artist, recording);
    if (studio) composition.products = products.slice(0, 2).map((p) => ({ ...p }));
  }

  return { recordings, recordingsByArtist };
}

interface ContractSources {
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
function signer<T>(pool: readonly T[], k: number): T | undefined {
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

function buildContracts(seed: ProjectSeed, firstId: number, rng: Rng, src: ContractSources): ContractRecord[] {
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

interface IncludeSources {
  parties: { e: EntityRecord; role: string }[];
  artists: PersonRecord[];
  writers: PersonRecord[];
  recordings: RecordingRecord[];
  compositions: CompositionRecord[];
  effective: number;
  signatory: (k: number) => string;
}

/** What every part of a contract's terms draws on. */
interface Terms {
  kind: ContractKind;
  /** Songwriter, co-publishing and administration deals cover compositions; the rest, masters. */
  publishing: boolean;
  rng: Rng;
  /** The id of the next sub-record of an include: numbered per include ("20001-roy-2"). */
  next: (tag: string) => string;
  currency: string;
  money: (min: number, max: number) => number;
}

/** The extracted terms of one contract, one small array per include name. */
function contractIncludes(
  contractId: string,
  kind: ContractKind,
  rng: Rng,
  src: IncludeSources,
): Partial<Record<ContractInclude, Record<string, unknown>[]>> {
  // The order of the draws below is the seed's: moving one changes every project's data.
  const counters = new Map<string, number>();
  const next = (tag: string): string => {
    const n = (counters.get(tag) ?? 0) + 1;
    counters.set(tag, n);
    return `${contractId}-${tag}-${n}`;
  };
  const publishing = kind === 'songwriter' || kind === 'co-publishing' || kind === 'administration';
  const terms: Terms = {
    kind,
    publishing,
    rng,
    next,
    currency: rng.pick(['USD', 'USD', 'EUR', 'GBP']),
    money: (min, max) => rng.int(min / 500, max / 500) * 500,
  };
  const { currency, money } = terms;
  const termYears = rng.int(3, 7);
  const signed = date(src.effective - rng.int(3, 40) * DAY);
  const assignee = src.parties.find((p) => p.role === 'assignee')?.e.name ?? src.parties[0]?.e.name ?? '';
  const assignor = src.parties.find((p) => p.role === 'assignor')?.e.name ?? '';

  const royalties = royaltyTerms(terms);
  const firstShare = rng.pick(publishing ? [50, 60, 70, 75] : kind === 'distribution' ? [80, 85, 90] : [50, 80]);
  const firstParty = publishing ? (src.writers[0]?.name ?? assignor) : assignor || (src.artists[0]?.name ?? assignee);
  const periods = accountingPeriods(rng);
  const advance = money(publishing ? 5000 : 10000, publishing ? 60000 : 250000);
  const costs = costTerms(terms);
  const unrecouped = Math.max(0, advance + costs.reduce((sum, c) => sum + c.amount, 0) - money(0, 200000));
  const compensations = compensationTerms(terms, advance);
  const dates = keyDates(terms, signed, src.effective, termYears);
  const signatures = src.parties.map(({ e }, k) => ({
    id: next('sig'),
    party: e.name,
    signatory: src.signatory(k),
    title: rng.pick(JOB_TITLES),
    signed_on: signed,
  }));
  const controlAreas = [
    {
      id: next('ca'),
      territory: rng.pick(TERRITORIES),
      rights: publishing ? 'compositions' : kind === 'distribution' ? 'distribution' : 'masters',
    },
  ];
  const creativeApprovals = creativeApprovalTerms(terms);

  return {
    entities: src.parties.map(({ e, role }) => ({ id: e.id, name: e.name, role })),
    artists: src.artists.map((a) => ({ id: a.id, name: a.name })),
    writers: src.writers.map((w) => ({ id: w.id, name: w.name })),
    royalties,
    splits: [
      { id: next('spl'), party: firstParty, share: firstShare, basis: 'net receipts' },
      { id: next('spl'), party: assignee, share: 100 - firstShare, basis: 'net receipts' },
    ],
    costs,
    compensations,
    dates,
    'accounting-periods': periods.map(([name, start, end, due]) => ({
      id: next('ap'),
      name,
      start,
      end,
      statement_due: due,
    })),
    types: contractTypes(terms),
    signatures,
    'control-areas': controlAreas,
    'creative-approvals': creativeApprovals,
    balances:
      unrecouped > 0
        ? [
            {
              id: next('bal'),
              type: 'unrecouped balance',
              amount: unrecouped,
              currency,
              as_of: date(src.effective + YEAR),
            },
          ]
        : [],
    recordings: src.recordings.map((r) => ({ id: r.id, name: r.name })),
    compositions: src.compositions.map((c) => ({ id: c.id, name: c.name })),
  };
}

/** Two to four royalty rates, of the types the kind of deal pays. */
function royaltyTerms({ kind, publishing, rng, next }: Terms): Record<string, unknown>[] {
  const royaltyTypes = publishing
    ? ['mechanical', 'performance', 'sync', 'print']
    : kind === 'distribution'
      ? ['distribution fee']
      : ['physical', 'digital download', 'streaming', 'sync', 'neighbouring rights'];
  return rng.sample(royaltyTypes, rng.int(2, 4)).map((type) => ({
    id: next('roy'),
    rate:
      type === 'distribution fee'
        ? rng.int(10, 25) / 100
        : publishing
          ? rng.int(50, 80) / 100
          : type === 'sync' || type === 'neighbouring rights'
            ? 0.5
            : rng.int(150, 250) / 1000,
    type,
    territory: rng.pick(TERRITORIES),
    basis: !publishing && (type === 'streaming' || type === 'physical') ? 'PPD' : 'net receipts',
  }));
}

/** Half-yearly or quarterly accounting: name, first and last day, and when the statement is due. */
function accountingPeriods(rng: Rng): [string, string, string, string][] {
  return rng.chance(0.6)
    ? [
        ['H1', '01-01', '06-30', '09-30'],
        ['H2', '07-01', '12-31', '03-31'],
      ]
    : [
        ['Q1', '01-01', '03-31', '05-15'],
        ['Q2', '04-01', '06-30', '08-14'],
        ['Q3', '07-01', '09-30', '11-14'],
        ['Q4', '10-01', '12-31', '02-14'],
      ];
}

/** The costs the deal lets the assignee recoup (an administration deal has none). */
function costTerms({
  kind,
  rng,
  next,
  currency,
  money,
}: Terms): { id: string; amount: number; [key: string]: unknown }[] {
  if (kind === 'administration') return [];
  return rng
    .sample(
      ['recording costs', 'video production', 'tour support', 'marketing', 'independent promotion'],
      rng.int(1, 3),
    )
    .map((type) => ({
      id: next('cost'),
      type,
      amount: money(2000, 80000),
      currency,
      recoupable: type !== 'marketing',
    }));
}

/** The advance on signature, and sometimes one on exercising the option. */
function compensationTerms({ rng, next, currency, money }: Terms, advance: number): Record<string, unknown>[] {
  const compensations: Record<string, unknown>[] = [
    { id: next('comp'), type: 'advance', amount: advance, currency, payable_on: 'signature' },
  ];
  if (rng.chance(0.5)) {
    const amount = money(5000, 150000);
    compensations.push({ id: next('comp'), type: 'option advance', amount, currency, payable_on: 'option exercise' });
  }
  return compensations;
}

/** Signature, effective date, end of term, and sometimes an option deadline. */
function keyDates(
  { rng, next }: Terms,
  signed: string,
  effective: number,
  termYears: number,
): Record<string, unknown>[] {
  const dates: Record<string, unknown>[] = [
    { id: next('date'), type: 'signature', date: signed },
    { id: next('date'), type: 'effective', date: date(effective) },
    { id: next('date'), type: 'term end', date: date(effective + termYears * YEAR) },
  ];
  if (rng.chance(0.4)) {
    dates.push({ id: next('date'), type: 'option exercise deadline', date: date(effective + (termYears - 1) * YEAR) });
  }
  return dates;
}

/** What the parties must agree on before release, and after how many days silence is consent. */
function creativeApprovalTerms({ rng, next }: Terms): Record<string, unknown>[] {
  return rng
    .sample(['artwork', 'singles selection', 'music videos', 'remixes', 'sync placements'], rng.int(1, 3))
    .map((subject) => ({
      id: next('cap'),
      subject,
      approver: rng.pick(['mutual', 'artist', 'label']),
      deemed_after_days: rng.pick([5, 10, 14]),
    }));
}

function contractTypes({ kind, publishing, next }: Terms): Record<string, unknown>[] {
  const types: Record<string, unknown>[] = [
    {
      id: next('type'),
      name: CONTRACT_TITLES[kind],
      category: publishing ? 'publishing' : kind === 'distribution' ? 'distribution' : 'recording',
    },
  ];
  if (kind === 'recording' || kind === 'songwriter')
    types.push({ id: next('type'), name: 'Exclusive', category: 'term' });
  return types;
}

interface Issuer {
  entity: EntityRecord;
  category: keyof typeof STATEMENT_TYPES;
}

function buildStatements(seed: ProjectSeed, firstId: number, rng: Rng, issuers: Issuer[]): StatementRecord[] {
  const statements: StatementRecord[] = [];
  const when = timeline(seed.size.statements, seed.created + 7 * DAY, SEED_NOW, rng);
  for (let i = 0; i < seed.size.statements; i++) {
    const created = when(i);
    const issuer = signer(issuers, i);
    const createdAt = iso(created);
    const year = Number(createdAt.slice(0, 4));
    const half = Number(createdAt.slice(5, 7)) <= 6 ? 2 : 1;
    const periodYear = half === 2 ? year - 1 : year;
    const period = `${periodYear}-H${half}`;
    const issuerName = issuer?.entity.name ?? 'Unknown Issuer';
    const id = firstId + i;
    const fileName = `${issuerName.replace(/[^\p{L}\p{N}]+/gu, '')}_${period}_statement.pdf`;
    // Still drawn, so the draws after it stay where they were; the size is the served file's.
    rng.int(60_000, 4_500_000);
    // Every sixth statement is still waiting for processing: only the file facts are known.
    if (i % 6 === 5 || !issuer) {
      statements.push({
        id,
        file_name: fileName,
        file_type: 'application/pdf',
        file_size: generatedPdf(fileName).length,
        created_at: createdAt,
        upload_status: 'completed',
      });
      continue;
    }
    const category = issuer.category;
    const type = rng.pick(STATEMENT_TYPES[category]);
    const subtype = rng.pick(SUBTYPES);
    const currencyTransaction = rng.pick(CURRENCIES);
    const currencyRoyalty =
      currencyTransaction === 'EUR' || currencyTransaction === 'GBP' ? currencyTransaction : 'USD';
    const hasSummary = rng.chance(0.7);
    const processed = created + rng.int(2, 40) * 60_000;
    const approval = rng.next();
    // Spelled out rather than spread from the common fields: V8 builds large spread-then-extended
    // literals on a slow path, which cost most of a second at --scale 100.
    const statementName = `${issuerName} — ${type.charAt(0).toUpperCase()}${type.slice(1)} Statement ${period}`;
    statements.push({
      id,
      file_name: fileName,
      file_type: 'application/pdf',
      // The size of what its download serves (storage.ts: a PDF titled with its name).
      file_size: generatedPdf(statementName).length,
      created_at: createdAt,
      upload_status: 'completed',
      statement_name: statementName,
      statement_type: type,
      statement_category: category,
      statement_producer: issuerName,
      processing_status: 'completed',
      approval_status: approval < 0.75 ? 'approved' : approval < 0.95 ? 'pending' : 'rejected',
      has_revenues: rng.chance(0.95),
      has_costs: rng.chance(0.35),
      has_summary: hasSummary,
      currency_transaction: currencyTransaction,
      currency_royalty: currencyRoyalty,
      entity_id: issuer.entity.internal_uuid,
      processed_at: iso(processed),
      statement_desc:
        `${half === 1 ? 'January–June' : 'July–December'} ${periodYear} ${subtype} ${type} statement from ${issuerName}: ` +
        `${thousands(rng.int(40, 9000))} lines across ${rng.int(1, 60)} territories.`,
      statement_subtype: subtype,
      statement_version: rng.chance(0.8) ? 'v1' : rng.pick(['v2', 'v3']),
      has_summary_lines: hasSummary && rng.chance(0.8),
      modified_at: isoCapped(processed + rng.int(0, 20) * DAY),
    });
  }
  return statements;
}

const scaled = (size: CatalogSize, factor: number): CatalogSize => ({
  contracts: size.contracts * factor,
  statements: size.statements * factor,
  entities: size.entities * factor,
  artists: size.artists * factor,
  writers: size.writers * factor,
  relations: size.relations * factor,
  recordings: size.recordings * factor,
  compositions: size.compositions * factor,
});

/** The whole initial state; `options.scale` multiplies the first project's catalog. */
export function seedState(options: Pick<EmulatorOptions, 'scale' | 'manyStatements'>): EmulatorState {
  if (!Number.isSafeInteger(options.scale) || options.scale < 1) {
    throw new RangeError(`scale must be an integer ≥ 1, got ${options.scale}`);
  }
  const projects = [
    {
      id: DEMO_PROJECT_ID,
      name: 'Northern Lights Catalog',
      created_at: '2022-11-08T09:30:00.000Z',
      organization_id: DEMO_ORG_ID,
    },
    {
      id: SECOND_PROJECT_ID,
      name: 'Harbor Sessions',
      created_at: '2024-05-20T14:05:00.000Z',
      organization_id: DEMO_ORG_ID,
    },
    {
      id: OTHER_PROJECT_ID,
      name: 'Other Label Vault',
      created_at: '2023-06-02T11:00:00.000Z',
      organization_id: OTHER_ORG_ID,
    },
  ];
  const sizes = [scaled(DEMO_CATALOG, options.scale), SECOND_CATALOG, OTHER_CATALOG];
  const ids: IdStarts = {
    contract: FIRST_CONTRACT_ID,
    statement: FIRST_STATEMENT_ID,
    entity: 1,
    artist: 1,
    writer: 1,
    relation: 1,
    recording: 1,
    composition: 1,
  };
  const data: Record<string, ProjectData> = {};
  projects.forEach((project, index) => {
    const size = at(sizes, index);
    data[project.id] = buildProject(
      { id: project.id, index, created: Date.parse(project.created_at), size },
      { ...ids },
    );
    // Room for every root and its merged duplicates (at most one per entity and relation, two per
    // artist and writer).
    ids.contract += size.contracts;
    ids.statement += size.statements;
    ids.entity += size.entities * 2;
    ids.artist += size.artists * 3;
    ids.writer += size.writers * 3;
    ids.relation += size.relations * 2;
    ids.recording += size.recordings;
    ids.composition += size.compositions;
  });
  // Ids after every project's, so that they never meet another project's statements.
  const demo = data[DEMO_PROJECT_ID];
  if (options.manyStatements && demo) {
    demo.statements = manyStatements(options.manyStatements, ids.statement);
    ids.statement += options.manyStatements.count;
  }
  return {
    organizations: [
      { id: DEMO_ORG_ID, name: 'Demo Music Group' },
      { id: OTHER_ORG_ID, name: 'Other Records' },
    ],
    projects,
    tokens: {
      [DEMO_ORG_TOKEN]: { organization_id: DEMO_ORG_ID },
      [DEMO_PROJECT_TOKEN]: { organization_id: DEMO_ORG_ID, project_id: DEMO_PROJECT_ID },
    },
    data,
    uploads: [],
    next_staging_id: 1001,
    next_statement_id: ids.statement,
    sandboxes: {},
  };
}

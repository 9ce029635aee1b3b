import type { EntityRecord } from '../store.js';
import { ENTITY_WORDS, ENTITY_CYCLE, ENTITY_SUFFIXES, DIVISIONS, ADDRESSES } from '../seed-words.js';
import {
  SEED_NOW,
  DAY,
  pad,
  type Rng,
  at,
  NameSpace,
  product2,
  iso,
  isoCapped,
  slug,
  initials,
  phone,
  timeline,
} from './basics.js';
import { entityVariant } from './names.js';
import type { ProjectSeeding, People, Companies } from './phases.js';

export function buildCompanies(p: ProjectSeeding, artists: People, writers: People): Companies {
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

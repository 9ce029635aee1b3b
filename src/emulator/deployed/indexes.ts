// Lookups needed for every record of a list (a recording's composition, a statement's entity, a
// list's merged variants…), built once per list rather than scanned per record or request: the
// bench lists 100,000 artists. Both flavors' routes keep theirs here, through `derived`.
import type { ContractRecord, EntityRecord, ProjectData } from '../store.js';
import { deployedId } from './ids.js';

interface Derived {
  /** The source list's length when it was built; records are only ever appended to these lists. */
  length: number;
  value: unknown;
}
const derivedCache = new WeakMap<object, Map<string, Derived>>();

/**
 * A value computed from a list and kept while the list has the same length: only for what no edit
 * in place changes (contracts get new tags and includes in place, never new parties; the catalog's
 * records are never edited). The name tells apart values of one list (add what else they read).
 */
export function derived<T>(list: readonly object[], name: string, build: () => T): T {
  let entries = derivedCache.get(list);
  if (!entries) {
    entries = new Map();
    derivedCache.set(list, entries);
  }
  const hit = entries.get(name);
  if (hit?.length === list.length) return hit.value as T;
  const value = build();
  entries.set(name, { length: list.length, value });
  return value;
}

/** The records of a list by store id. */
export const byId = <T extends { id: string }>(list: readonly T[]): Map<string, T> =>
  derived(list, 'byId', () => new Map(list.map((record) => [record.id, record])));

/** The entity with this internal_uuid, in any case (a seeded statement names its issuer so). */
export const entityByUuid = (entities: readonly EntityRecord[], uuid: string): EntityRecord | undefined =>
  derived(entities, 'byUuid', () => new Map(entities.map((e) => [e.internal_uuid.toLowerCase(), e]))).get(
    uuid.toLowerCase(),
  );

export interface EntityLink {
  id: number;
  name: string;
  role: string;
}
export interface EntityLinks {
  artists: EntityLink[];
  writers: EntityLink[];
  relations: EntityLink[];
}

/** How many links of each kind an entity shows: a label signs hundreds of artists at --scale 100. */
const MAX_LINKS = 10;

/** A contract's artists and writers, as their party signs them. */
function linkContract(links: Map<string, EntityLinks>, contract: ContractRecord, rootOf: (id: string) => string): void {
  for (const party of contract.parties) {
    const entry = links.get(rootOf(party.entity_id));
    if (!entry) continue;
    const add = (
      list: EntityLink[],
      kind: 'artist' | 'writer',
      rows: Record<string, unknown>[] | undefined,
      role: string,
    ) => {
      for (const row of rows ?? []) {
        const id = deployedId(kind, String(row.id));
        if (list.length < MAX_LINKS && !list.some((link) => link.id === id))
          list.push({ id, name: String(row.name), role });
      }
    };
    const signs = party.role === 'assignee' ? 'signed' : 'represented';
    add(entry.artists, 'artist', contract.includes.artists, `${signs} artist`);
    add(entry.writers, 'writer', contract.includes.writers, `${signs} writer`);
  }
}

/** The domain of a company's e-mail addresses, as the seed makes them (its name, as one word). */
const companyDomain = (name: string): string =>
  `${name
    .replace(/ (Music LLC|Songs Ltd|Productions Ltd)$/, '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')}.com`;

/**
 * Each root entity's artists and writers (from the contracts it signs) and relations (its
 * contacts: the seed gives them an address at the company's domain).
 */
export function entityLinks(data: ProjectData): Map<string, EntityLinks> {
  return derived(data.contracts, `links:${data.entities.length}:${data.relations.length}`, () => {
    const links = new Map<string, EntityLinks>();
    const rootOf = new Map<string, string>();
    const byDomain = new Map<string, EntityLinks>();
    for (const e of data.entities) {
      if (e.merged_into !== undefined) rootOf.set(e.id, e.merged_into);
      else {
        const entry: EntityLinks = { artists: [], writers: [], relations: [] };
        links.set(e.id, entry);
        byDomain.set(companyDomain(e.name), entry);
      }
    }
    for (const contract of data.contracts) linkContract(links, contract, (id) => rootOf.get(id) ?? id);
    for (const r of data.relations) {
      const entry = r.merged_into === undefined ? byDomain.get(r.email.slice(r.email.indexOf('@') + 1)) : undefined;
      if (entry && entry.relations.length < MAX_LINKS)
        entry.relations.push({ id: deployedId('relation', r.id), name: r.name, role: r.department.toLowerCase() });
    }
    return links;
  });
}

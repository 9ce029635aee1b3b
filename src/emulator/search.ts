// Project search (docs/service.md, "Two forms"): scores the names of a project's root records against a query.
//
// Tiers, case- and accent-insensitive, so that a better kind of match always ranks higher:
//   1            the whole name equals the query
//   0.90 – 0.95  the name starts with the query (more of the name covered → higher)
//   up to 0.80   query words found in the name: a whole word counts 1, the start of a word 0.75,
//                inside a word 0.5; the sum is shared over the query's words, so a multi-word query
//                scores by the share of its words that match; shorter names rank a little higher.
import type { ProjectData } from './store.js';

export const SEARCH_TYPES = ['contract', 'entity', 'artist', 'writer', 'recording', 'composition'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface SearchHit {
  type: SearchType;
  id: string;
  name: string;
  score: number;
}

interface Named {
  id: string;
  name: string;
  merged_into?: string;
}

/** Lowercase, accents folded, anything but letters and digits a single space. */
function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// Normalizing every name on every search was most of a search's cost at --scale 100; records are
// never renamed, so each record's normal form is kept as long as the record lives.
const normalized = new WeakMap<Named, { text: string; words: string[] }>();

function normalForm(record: Named): { text: string; words: string[] } {
  let form = normalized.get(record);
  if (!form) {
    const text = normalize(record.name);
    form = { text, words: text === '' ? [] : text.split(' ') };
    normalized.set(record, form);
  }
  return form;
}

interface Query {
  text: string;
  words: string[];
}

function prepareQuery(q: string): Query {
  const text = normalize(q);
  return { text, words: text === '' ? [] : [...new Set(text.split(' '))] };
}

const round = (score: number): number => Math.round(score * 10_000) / 10_000;

/** The score of one name, 0 when it does not match at all. */
function scoreName(query: Query, name: { text: string; words: string[] }): number {
  if (query.text === '' || name.text === '') return 0;
  if (name.text === query.text) return 1;
  const coverage = Math.min(1, query.text.length / name.text.length);
  if (name.text.startsWith(query.text)) return round(0.9 + 0.05 * coverage);
  let matched = 0;
  for (const word of query.words) {
    let best = 0;
    for (const candidate of name.words) {
      if (candidate === word) {
        best = 1;
        break;
      }
      if (candidate.startsWith(word)) best = Math.max(best, 0.75);
      else if (best < 0.5 && candidate.includes(word)) best = 0.5;
    }
    matched += best;
  }
  return matched === 0 ? 0 : round(0.8 * (matched / query.words.length) * (0.9 + 0.1 * coverage));
}

/** The best `limit` matches among the root records of the given types, best first, then by name. */
export function searchProject(data: ProjectData, q: string, types: readonly SearchType[], limit: number): SearchHit[] {
  const query = prepareQuery(q);
  const sources: Record<SearchType, () => readonly Named[]> = {
    contract: () => data.contracts,
    entity: () => data.entities,
    artist: () => data.artists,
    writer: () => data.writers,
    recording: () => data.recordings,
    composition: () => data.compositions,
  };
  const hits: { hit: SearchHit; text: string }[] = [];
  for (const type of types) {
    for (const record of sources[type]()) {
      if (record.merged_into !== undefined) continue;
      const form = normalForm(record);
      const score = scoreName(query, form);
      if (score > 0) hits.push({ hit: { type, id: record.id, name: record.name, score }, text: form.text });
    }
  }
  // Ties are ordered by the normal form of the name (case and accents aside), a plain string
  // comparison: a short query can match tens of thousands of names at --scale 100.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  hits.sort(
    (a, b) =>
      b.hit.score - a.hit.score ||
      order(a.text, b.text) ||
      order(a.hit.name, b.hit.name) ||
      SEARCH_TYPES.indexOf(a.hit.type) - SEARCH_TYPES.indexOf(b.hit.type) ||
      order(a.hit.id, b.hit.id),
  );
  return hits.slice(0, limit).map(({ hit }) => hit);
}

// The deployed service's numeric ids (docs/service.md, "Records": ids are numbers for every record but
// projects), derived from the store's ids so both flavors serve the same records in the same order.
//
// Each routed resource has a range of its own, so the id of one kind of record is a 404 for every
// other kind, as on the service:
//   contracts      20001 …     the store's ids already (numeric strings)
//   statements     40001 …     the store's ids already (numbers)
//   entities       1,000,001 … 1,000,000 + the number in `ent_00001`
//   relations      2,000,001 … likewise from `rel_…`
//   artists        3,000,001 … from `art_…`
//   writers        4,000,001 … from `wri_…`
//   recordings     5,000,001 … from `rec_…`
//   compositions   6,000,001 … from `com_…`
// A range is a million wide: `--scale 1000` numbers artists (with their merged variants) up to
// about 300,000. Merged variants share their resource's range. Rows inside contract extractions
// are not routed; they are numbered from 100,000,000 (see extractionRowId).

export type NumberedKind = 'entity' | 'relation' | 'artist' | 'writer' | 'recording' | 'composition';

const RANGE_WIDTH = 1_000_000;
const RANGE_START: Readonly<Record<NumberedKind, number>> = {
  entity: 1 * RANGE_WIDTH,
  relation: 2 * RANGE_WIDTH,
  artist: 3 * RANGE_WIDTH,
  writer: 4 * RANGE_WIDTH,
  recording: 5 * RANGE_WIDTH,
  composition: 6 * RANGE_WIDTH,
};
/** The store's id prefix of each kind (src/emulator/seed.ts): `art_00001`. */
const PREFIX: Readonly<Record<NumberedKind, string>> = {
  entity: 'ent_',
  relation: 'rel_',
  artist: 'art_',
  writer: 'wri_',
  recording: 'rec_',
  composition: 'com_',
};
const SEED_DIGITS = 5;

/** The deployed id of a stored record; NaN for a store id of another form (never seeded so). */
export function deployedId(kind: NumberedKind, storeId: string): number {
  return RANGE_START[kind] + Number(storeId.slice(PREFIX[kind].length));
}

/** The store id a path's numeric id names; undefined when it is not a whole number of the kind's range. */
export function storeIdOf(kind: NumberedKind, raw: string): string | undefined {
  if (!/^\d{1,15}$/.test(raw)) return undefined;
  const n = Number(raw) - RANGE_START[kind];
  if (n < 1 || n >= RANGE_WIDTH) return undefined;
  return `${PREFIX[kind]}${String(n).padStart(SEED_DIGITS, '0')}`;
}

/** A contract's or statement's deployed id: its store id as a number. */
export const documentId = (storeId: string | number): number => Number(storeId);

const EXTRACTION_ROWS_START = 100_000_000;
/** Room for the rows of one include of one contract (the seed's largest has 8). */
const ROWS_PER_INCLUDE = 50;
const INCLUDES_PER_CONTRACT = 20;

/**
 * The id of the `row`th row of the include at `includeIndex` of a contract: stable whichever
 * includes a request names, and whenever an upload's extractions fill them.
 */
export function extractionRowId(contractId: number, includeIndex: number, row: number): number {
  return EXTRACTION_ROWS_START + (contractId * INCLUDES_PER_CONTRACT + includeIndex) * ROWS_PER_INCLUDE + row;
}

/** A stable 32-bit hash of a text (FNV-1a over its UTF-16 code units). */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A stable UUID for a record that has none in the store: one hex prefix per kind, the id at the end. */
export const uuidFor = (kind: string, id: number): string =>
  `${hashOf(kind).toString(16).padStart(8, '0')}-0000-4000-8000-${String(id).padStart(12, '0')}`;

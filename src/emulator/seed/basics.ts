// What every part of the seed draws on: its clock, the PRNG, name spaces, timestamps and small formats.
/** How many root records of each kind one project gets (merged duplicates come on top). */
export interface CatalogSize {
  contracts: number;
  statements: number;
  entities: number;
  artists: number;
  writers: number;
  relations: number;
  recordings: number;
  compositions: number;
}

/** The seed's notion of "now": the newest timestamp it writes. */
export const SEED_NOW = Date.parse('2026-01-12T17:00:00.000Z');
export const DAY = 86_400_000;
export const YEAR = 365 * DAY;
/** Releases and contract terms start in these years, long before the records were entered. */
export const FIRST_RELEASE = Date.parse('2016-01-01T00:00:00.000Z');
export const FIRST_EFFECTIVE = Date.parse('2015-01-01T00:00:00.000Z');

export const pad = (n: number, width: number): string => String(n).padStart(width, '0');
export const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

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

export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside a list of ${items.length}`);
  return item;
}

/** A stable 32-bit seed from a label (FNV-1a), so each project and record kind has its own stream. */
export function seedOf(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Distinct names from the product of word lists, visited in a scattered but fixed order (a stride
 * coprime with the size is a permutation). Past the end of the space names repeat with a number.
 */
export class NameSpace {
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

export const product2 =
  (a: readonly string[], b: readonly string[], join: (x: string, y: string) => string) => (k: number) =>
    join(at(a, k % a.length), at(b, Math.floor(k / a.length) % b.length));

// Formatting timestamps dominated the cost of seeding at --scale 100, so the date part is cached
// per day and the time part assembled from precomputed digit strings.
const isoDays = new Map<number, string>();
const DIGITS2 = Array.from({ length: 100 }, (_, i) => pad(i, 2));
const DIGITS3 = Array.from({ length: 1000 }, (_, i) => pad(i, 3));
export function iso(ms: number): string {
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
export const isoCapped = (ms: number): string => iso(Math.min(ms, SEED_NOW));
export const pushTo = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};
export const date = (ms: number): string => iso(ms).slice(0, 10);
export const slug = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
export const initials = (text: string): string =>
  text
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');

/** A UPC-A: 11 digits and the standard check digit. */
export function upc(rng: Rng): string {
  let digits = String(rng.pick([0, 1, 6, 8]));
  for (let i = 0; i < 10; i++) digits += String(rng.int(0, 9));
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(digits.charAt(i)) * (i % 2 === 0 ? 3 : 1);
  return digits + String((10 - (sum % 10)) % 10);
}

export function phone(rng: Rng): string {
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
export interface IdStarts {
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
export function timeline(count: number, from: number, to: number, rng: Rng): (i: number) => number {
  const step = (to - from) / Math.max(count, 1);
  return (i) => from + (i + 0.05 + rng.next() * 0.9) * step;
}

/** One project to seed: its id, its place among the projects, when it was made, how large it is. */
export interface ProjectSeed {
  id: string;
  index: number;
  created: number;
  size: CatalogSize;
}

import type { PersonRecord } from '../store.js';
import { SEED_NOW, DAY, pad, iso, isoCapped, timeline } from './basics.js';
import { personVariant } from './names.js';
import type { ProjectSeeding, People } from './phases.js';

export function buildPersons(p: ProjectSeeding, kind: 'artist' | 'writer', count: number, dupEvery: number): People {
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

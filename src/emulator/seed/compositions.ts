import type { CompositionRecord } from '../store.js';
import { SEED_NOW, DAY, pad, at, iso, isoCapped, pushTo, timeline } from './basics.js';
import type { ProjectSeeding, People, Works } from './phases.js';

export function buildCompositions(
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

import type { CompositionRecord, Product, RecordingRecord } from '../store.js';
import { STORES, PRODUCT_SOURCES } from '../seed-words.js';
import { SEED_NOW, DAY, YEAR, FIRST_RELEASE, pad, at, iso, isoCapped, pushTo, date, upc, timeline } from './basics.js';
import { titleSpace } from './names.js';
import type { ProjectSeeding, People, Works } from './phases.js';

/** Each composition's recordings: the studio one first, then the other versions round by round. */
export function buildRecordings(
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

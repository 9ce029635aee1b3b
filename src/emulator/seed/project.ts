// One project's records, each kind built on first access by its own file of seed/.
import type { ProjectData } from '../store.js';
import { DAY, Rng, seedOf, type IdStarts, type ProjectSeed } from './basics.js';
import { buildCompositions } from './compositions.js';
import { buildContracts } from './contracts.js';
import { buildCompanies } from './entities.js';
import { personNames, titleSpace } from './names.js';
import { buildPersons } from './people.js';
import type { People, ProjectSeeding, Works } from './phases.js';
import { buildRecordings } from './recordings.js';
import { buildRelations } from './relations.js';
import { buildStatements } from './statements.js';

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

/**
 * One project's records. Each kind has its own PRNG stream and id block, so the phases (people,
 * companies, relations, works, contracts, statements) give the same records in any order.
 */
export function buildProject(seed: ProjectSeed, ids: IdStarts): ProjectData {
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

function buildWorks(p: ProjectSeeding, artists: People, writers: People): Works {
  const compositions = buildCompositions(p, artists, writers);
  return { ...compositions, ...buildRecordings(p, artists, compositions.compositions) };
}

// Deterministic demo data: a music-industry catalog generated from word lists and a seeded PRNG, so
// every start (and every test) sees the same ids, names and timestamps. `scale` multiplies the
// first project's catalog for pagination and performance work; each kind of record is generated on
// first access, so even --scale 100 starts at once.
import { manyStatements } from './deployed/many-statements.js';
import type { EmulatorOptions } from './http.js';
import type { EmulatorState, ProjectData } from './store.js';
import { type CatalogSize, at, type IdStarts } from './seed/basics.js';
import { buildProject } from './seed/project.js';

export { Rng } from './seed/basics.js';

export const DEMO_ORG_ID = '0b7e9a52-3c1d-4f5e-9a8b-1c2d3e4f5a6b';
export const OTHER_ORG_ID = '7d4c2b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
export const DEMO_PROJECT_ID = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
export const SECOND_PROJECT_ID = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
export const OTHER_PROJECT_ID = 'c3e5a7b9-4d6f-4e8a-9b1c-2d3e4f5a6b7c';
export const DEMO_ORG_TOKEN = 'demo-org-token';
export const DEMO_PROJECT_TOKEN = 'demo-project-token';

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

// The eight catalog resources as the command line and the agents' tools know them: one table of
// plain data (names, words, the flags each takes, an id of the emulator's seed for examples). The
// API side of each (path, schemas) is RESOURCES in lib/api/catalog.ts; the columns are in views.ts.
import type { FlagSpec } from '../../lib/verb.js';
import { CONTRACT_INCLUDES } from '../../lib/vocabulary.js';

export const ROLES = ['assignee', 'assignor'] as const;
export const EXTRACTION_STAGES = [
  'queued',
  'processing',
  'completed',
  'failed',
  'paused',
  'timed_out',
  'skipped',
] as const;

/** The flags beyond paging that resources take (docs/guide.md, "Reading and output"), each on the verbs named. */
export const RESOURCE_FLAGS = {
  include: {
    type: 'list',
    value: 'names',
    help: 'sub-resources to embed, comma-separated or repeated (e.g. royalties,splits)',
    completion: CONTRACT_INCLUDES,
  },
  roles: {
    type: 'list',
    value: 'roles',
    help: `only entities with these contract roles: ${ROLES.join(', ')}`,
    completion: ROLES,
  },
  merged: {
    type: 'boolean',
    help: "each record's merged duplicates: a MERGED count column in tables, the `merged` list in data formats (records stay the root ones)",
  },
  products: { type: 'boolean', help: 'include products (releases with UPCs)' },
  // The deployed service's options (docs/service.md).
  extractorIds: { type: 'list', value: 'ids', help: 'only what these extractors found, comma-separated' },
  score: { type: 'boolean', help: 'add the confidence score' },
  citations: { type: 'boolean', help: 'add the citations of what was extracted' },
  stagingIds: { type: 'list', value: 'ids', help: 'only the statements of these staging ids, comma-separated' },
  extractionStage: {
    type: 'choice',
    value: 'stage',
    choices: EXTRACTION_STAGES,
    help: 'only statements at this extraction stage',
  },
  detailed: { type: 'boolean', help: 'the detailed record (folder, file size…)' },
} as const satisfies Record<string, FlagSpec>;

export type ResourceFlag = keyof typeof RESOURCE_FLAGS;

export interface CatalogResource {
  singular: string;
  /** What the noun's help says it holds. */
  description: string;
  /** Its id, in words, for `get`'s argument. */
  idHelp?: string;
  /** An id in the emulator's seed, as its default (deployed) flavor numbers it (src/emulator/deployed/ids.ts). */
  seedId: string;
  flags: { ls: readonly ResourceFlag[]; get: readonly ResourceFlag[] };
}

export const CATALOG = {
  contracts: {
    singular: 'contract',
    description: 'contracts of the project',
    seedId: '20001',
    flags: {
      ls: ['include', 'extractorIds', 'score', 'citations'],
      get: ['include', 'extractorIds', 'score', 'citations'],
    },
  },
  statements: {
    singular: 'statement',
    description: 'royalty statements',
    idHelp: "the statement's id, a whole number, as `pds statements ls` shows it",
    seedId: '40001',
    flags: { ls: ['stagingIds', 'extractionStage', 'score'], get: ['detailed', 'score'] },
  },
  entities: {
    singular: 'entity',
    description: 'entities: labels, publishers, distributors and other organizations',
    idHelp: "the entity's id or its internal_uuid, as `pds entities ls --json` shows them",
    seedId: '1000001',
    flags: { ls: ['roles', 'merged'], get: ['merged'] },
  },
  relations: {
    singular: 'relation',
    description: 'relations: contacts extracted from contracts',
    seedId: '2000001',
    flags: { ls: ['merged'], get: ['merged'] },
  },
  artists: {
    singular: 'artist',
    description: 'artists',
    seedId: '3000001',
    flags: { ls: ['merged'], get: ['merged'] },
  },
  writers: {
    singular: 'writer',
    description: 'writers: songwriters and composers',
    seedId: '4000001',
    flags: { ls: ['merged'], get: ['merged'] },
  },
  recordings: {
    singular: 'recording',
    description: 'sound recordings',
    seedId: '5000001',
    flags: { ls: ['products'], get: ['products'] },
  },
  compositions: {
    singular: 'composition',
    description: 'compositions: musical works',
    seedId: '6000001',
    flags: { ls: ['products'], get: ['products'] },
  },
} as const satisfies Record<string, CatalogResource>;

export type CatalogNoun = keyof typeof CATALOG;
export const CATALOG_NOUNS = Object.keys(CATALOG) as CatalogNoun[];

/** `pds api`'s completion: each resource as the path of its list. */
export const RESOURCE_PATHS = CATALOG_NOUNS.map((name) => `${name}?projectId={project}`);

/** The resource flags a verb of a resource takes, as flag specs. */
export function resourceFlags(resource: CatalogNoun, verb: 'ls' | 'get'): Partial<typeof RESOURCE_FLAGS> {
  const flags: Partial<typeof RESOURCE_FLAGS> = {};
  for (const name of CATALOG[resource].flags[verb]) Object.assign(flags, { [name]: RESOURCE_FLAGS[name] });
  return flags;
}

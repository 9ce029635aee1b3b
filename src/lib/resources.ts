// The eight catalog resources, one definition each: the one list every table about a resource is
// keyed by. What is here is plain data that costs nothing to load (every run reads it); what is
// heavy or belongs to one side is kept where it loads, keyed by ResourceName and checked complete
// by its type: the documented shape of a record (api/shapes.ts ITEM_SHAPES), its zod schema
// (api/catalog-schemas.ts RESOURCE_SCHEMAS, loaded only when a record is checked), its terminal
// columns (commands/catalog/views.ts COLUMNS) and the flags' help (commands/catalog/resources.ts).

/** The flags beyond paging a resource's verbs may take; their help is the command line's (RESOURCE_FLAGS). */
export type ResourceFlag =
  | 'include'
  | 'roles'
  | 'merged'
  | 'products'
  | 'extractorIds'
  | 'score'
  | 'citations'
  | 'stagingIds'
  | 'extractionStage'
  | 'detailed';

export interface ResourceDefinition {
  /** Where the service lists it; a record is `<path>/<id>`. */
  path: string;
  singular: string;
  /** What it holds, in words: the noun's help, and the agents' tools' wording unless `toolWording` says otherwise. */
  description: string;
  /** What the agents' tools call it, where they say more than the help (a tool call has no `ls` to look at). */
  toolWording?: string;
  /** Its id, in words, for `get`'s argument (else: its id as `pds <resource> ls` shows it). */
  idHelp?: string;
  /** An id in the emulator's seed, as its default (deployed) flavor numbers it (src/emulator/deployed/ids.ts): the examples'. */
  seedId: string;
  /** The kind of document its records are made from (lib/api/documents.ts): its noun has the upload, status and download verbs. */
  document?: 'contract' | 'statement';
  /** Its ids are whole numbers: any other id is refused before a request. */
  wholeNumberIds?: true;
  /** The resource flags each verb takes (the agents' tools offer those of them they know). */
  flags: { ls: readonly ResourceFlag[]; get: readonly ResourceFlag[] };
}

export const RESOURCES = {
  contracts: {
    path: '/v1/contracts',
    singular: 'contract',
    description: 'contracts of the project',
    seedId: '20001',
    document: 'contract',
    flags: {
      ls: ['include', 'extractorIds', 'score', 'citations'],
      get: ['include', 'extractorIds', 'score', 'citations'],
    },
  },
  statements: {
    path: '/v1/statements',
    singular: 'statement',
    description: 'royalty statements',
    toolWording: 'royalty statements (ids are whole numbers)',
    idHelp: "the statement's id, a whole number, as `pds statements ls` shows it",
    seedId: '40001',
    document: 'statement',
    wholeNumberIds: true,
    flags: { ls: ['stagingIds', 'extractionStage', 'score'], get: ['detailed', 'score'] },
  },
  entities: {
    path: '/v1/entities',
    singular: 'entity',
    description: 'entities: labels, publishers, distributors and other organizations',
    idHelp: "the entity's id or its internal_uuid, as `pds entities ls --json` shows them",
    seedId: '1000001',
    flags: { ls: ['roles', 'merged'], get: ['merged'] },
  },
  relations: {
    path: '/v1/relations',
    singular: 'relation',
    description: 'relations: contacts extracted from contracts',
    seedId: '2000001',
    flags: { ls: ['merged'], get: ['merged'] },
  },
  artists: {
    path: '/v1/artists',
    singular: 'artist',
    description: 'artists',
    seedId: '3000001',
    flags: { ls: ['merged'], get: ['merged'] },
  },
  writers: {
    path: '/v1/writers',
    singular: 'writer',
    description: 'writers: songwriters and composers',
    seedId: '4000001',
    flags: { ls: ['merged'], get: ['merged'] },
  },
  recordings: {
    path: '/v1/recordings',
    singular: 'recording',
    description: 'sound recordings',
    seedId: '5000001',
    flags: { ls: ['products'], get: ['products'] },
  },
  compositions: {
    path: '/v1/compositions',
    singular: 'composition',
    description: 'compositions: musical works',
    seedId: '6000001',
    flags: { ls: ['products'], get: ['products'] },
  },
} as const satisfies Record<string, ResourceDefinition>;

export type ResourceName = keyof typeof RESOURCES;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** A resource's definition, with the optional fields typed as optional. */
export const resourceOf = (name: ResourceName): ResourceDefinition => RESOURCES[name];

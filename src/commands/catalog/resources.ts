// The command line's side of the catalog resources (each defined in lib/resources.ts: path, words,
// the flags each verb takes, a seed id): the help of those flags, and what derives from the list.
import type { FlagSpec } from '../../lib/verbs/verb.js';
import { CONTRACT_INCLUDES } from '../../lib/vocabulary.js';
import { RESOURCE_NAMES, RESOURCES, type ResourceFlag, type ResourceName } from '../../lib/resources.js';

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
    help: `sub-resources to embed, comma-separated or repeated: ${CONTRACT_INCLUDES.join(', ')}`,
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
    toolHelp: 'include the duplicates merged into each record',
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
} as const satisfies Record<ResourceFlag, FlagSpec>;

/** `pds api`'s completion: each resource as the path of its list. */
export const RESOURCE_PATHS = RESOURCE_NAMES.map((name) => `${name}?projectId={project}`);

/** The resource flags a verb of a resource takes, as flag specs. */
export function resourceFlags(resource: ResourceName, verb: 'ls' | 'get'): Partial<typeof RESOURCE_FLAGS> {
  const flags: Partial<typeof RESOURCE_FLAGS> = {};
  for (const name of RESOURCES[resource].flags[verb]) Object.assign(flags, { [name]: RESOURCE_FLAGS[name] });
  return flags;
}

// Every command of pds, in the order the help lists them: nouns with their verbs, and the verbs
// that stand alone. Definitions only: each verb's code is imported when it runs.
import type { AnyVerb, NounDef } from '../lib/verbs/verb.js';
import { RESOURCE_NAMES, type RESOURCES, type ResourceName } from '../lib/resources.js';
import { projects } from './projects/index.js';
import { search } from './search/index.js';
import { catalogNoun } from './catalog/index.js';
import { contracts } from './contracts/index.js';
import { statements } from './statements/index.js';
import { upload } from './upload/index.js';
import { tags } from './tags/index.js';
import { knowledge } from './knowledge/index.js';
import { sandbox } from './sandbox/index.js';
import { auth } from './auth/index.js';
import { config, use } from './config/index.js';
import { emulator } from './emulator/index.js';
import { mcp } from './mcp/index.js';
import { api } from './api/index.js';
import { completion, complete } from './completion/index.js';

/** The resources whose records come from documents: each has its own folder with its verbs beyond ls and get. */
type DocumentResource = {
  [name in ResourceName]: (typeof RESOURCES)[name] extends { document: string } ? name : never;
}[ResourceName];
const NOUNS_OF_THEIR_OWN: Record<DocumentResource, NounDef> = { contracts, statements };

/** The catalog's nouns in RESOURCES' order: ls and get, or the noun its own folder makes. */
const CATALOG_NOUNS = RESOURCE_NAMES.map(
  (resource) => (NOUNS_OF_THEIR_OWN as Partial<Record<ResourceName, NounDef>>)[resource] ?? catalogNoun(resource),
);

export const COMMANDS: readonly (NounDef | AnyVerb)[] = [
  projects,
  search,
  ...CATALOG_NOUNS,
  upload,
  tags,
  knowledge,
  sandbox,
  auth,
  config,
  use,
  emulator,
  mcp,
  api,
  completion,
  complete,
];

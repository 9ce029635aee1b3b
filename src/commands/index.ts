// Every command of pds, in the order the help lists them: nouns with their verbs, and the verbs
// that stand alone. Definitions only: each verb's code is imported when it runs.
import type { AnyVerb, NounDef } from '../lib/verbs/verb.js';
import { projects } from './projects/index.js';
import { search } from './search/index.js';
import { CATALOG_NOUN_DEFS } from './catalog/index.js';
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

export const COMMANDS: readonly (NounDef | AnyVerb)[] = [
  projects,
  search,
  ...CATALOG_NOUN_DEFS,
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

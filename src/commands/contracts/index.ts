// `pds contracts`: the noun and every verb of it, all shared: ls and get as any catalog resource
// has them (catalog/), status, download, retry and tag as any document kind (documents/).
import type { NounDef } from '../../lib/verbs/verb.js';
import { catalogNoun } from '../catalog/index.js';
import { documentVerbs } from '../documents/index.js';

export const contracts: NounDef = catalogNoun('contracts', documentVerbs('contract'));

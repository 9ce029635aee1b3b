// `pds upload contract|statement`: the definitions (definitions.ts) joined to the one module that
// runs both.
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const upload: NounDef = {
  ...definitions.noun,
  verbs: (['contract', 'statement'] as const).map((kind) =>
    defineVerb(definitions.uploadVerb(kind), () => import('./upload.js')),
  ),
};

// `pds upload contract|statement`: the definitions (definitions.ts) joined to the one module that
// runs both.
import { defineVerb, type NounDef } from '../../lib/verb.js';
import * as definitions from './definitions.js';

export const upload: NounDef = {
  name: 'upload',
  description: 'upload contracts (PDF) or statements (25 formats), max 50 MiB each, for processing',
  examples: [
    ['pds upload statement statements/*.pdf'],
    ['pds upload contract deal.pdf --extract royalties,splits --wait'],
  ],
  verbs: (['contract', 'statement'] as const).map((kind) =>
    defineVerb(definitions.uploadVerb(kind), () => import('./upload.js')),
  ),
};

// The verbs contracts and statements share: each definition (definitions.ts) joined to the module
// that runs it, for either kind. Each noun's index calls documentVerbs for its kind.
import { defineVerb, type AnyVerb } from '../../lib/verbs/verb.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import * as definitions from './definitions.js';

/** `pds contracts|statements status|download|retry|tag`. */
export function documentVerbs(kind: DocumentKind): AnyVerb[] {
  return [
    defineVerb(definitions.statusVerb(kind), () => import('./status.js')),
    defineVerb(definitions.downloadVerb(kind), () => import('./download.js')),
    defineVerb(definitions.retryVerb(kind), () => import('./retry.js')),
    defineVerb(definitions.tagVerb(kind), () => import('./tag.js')),
  ];
}

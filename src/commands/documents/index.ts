// The verbs contracts and statements share: each definition (definitions.ts) joined to the module
// that runs it, for either kind.
import { defineVerb, type AnyVerb } from '../../lib/verbs/verb.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import * as definitions from './definitions.js';
import { statementCheck, statementTotals } from '../statements/index.js';

export const updateStatement = defineVerb(definitions.updateStatement, () => import('../statements/update.js'));
export const statementLines = defineVerb(definitions.statementLines, () => import('../statements/lines.js'));

/** `pds contracts|statements status|download|retry|tag`, and the statements' own update, lines, totals and check. */
export function documentVerbs(kind: DocumentKind): AnyVerb[] {
  return [
    defineVerb(definitions.statusVerb(kind), () => import('./status.js')),
    defineVerb(definitions.downloadVerb(kind), () => import('./download.js')),
    defineVerb(definitions.retryVerb(kind), () => import('./retry.js')),
    defineVerb(definitions.tagVerb(kind), () => import('./tag.js')),
    ...(kind === 'statement' ? [updateStatement, statementLines, statementTotals, statementCheck] : []),
  ];
}

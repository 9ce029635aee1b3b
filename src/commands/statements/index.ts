// `pds statements`: the noun and every verb of it. Its own verbs are joined to their modules here;
// the verbs it shares come from the functions that make them for any resource (catalog/: ls, get)
// or document kind (documents/: status, download, retry, tag).
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import { catalogNoun } from '../catalog/index.js';
import { documentVerbs } from '../documents/index.js';
import * as definitions from './definitions.js';

export const statementLines = defineVerb(definitions.statementLines, () => import('./lines.js'));
export const updateStatement = defineVerb(definitions.updateStatement, () => import('./update.js'));
export const statementTotals = defineVerb(definitions.statementTotals, () => import('./totals.js'));
export const statementCheck = defineVerb(definitions.statementCheck, () => import('./check.js'));

export const statements: NounDef = catalogNoun('statements', [
  ...documentVerbs('statement'),
  updateStatement,
  statementLines,
  statementTotals,
  statementCheck,
]);

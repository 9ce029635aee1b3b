// `pds statements totals` and `pds statements check`: each definition joined to its module.
import { defineVerb } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const statementTotals = defineVerb(definitions.statementTotals, () => import('./totals.js'));
export const statementCheck = defineVerb(definitions.statementCheck, () => import('./check.js'));

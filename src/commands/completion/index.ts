// `pds completion`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const completion = defineVerb(definitions.completion, () => import('./script.js'));
export const complete = defineVerb(definitions.complete, () => import('./complete.js'));

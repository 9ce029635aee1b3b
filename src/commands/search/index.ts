// `pds search`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const search = defineVerb(definitions.search, () => import('./search.js'));

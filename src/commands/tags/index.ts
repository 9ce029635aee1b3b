// `pds tags`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const ls = defineVerb(definitions.ls, () => import('./ls.js'));

export const tags: NounDef = { ...definitions.noun, verbs: [ls] };

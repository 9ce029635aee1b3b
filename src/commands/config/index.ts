// `pds config`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const list = defineVerb(definitions.list, () => import('./list.js'));
export const get = defineVerb(definitions.get, () => import('./get.js'));
export const set = defineVerb(definitions.set, () => import('./set.js'));
export const unset = defineVerb(definitions.unset, () => import('./unset.js'));
export const use = defineVerb(definitions.use, () => import('./use.js'));

export const config: NounDef = { ...definitions.noun, verbs: [list, get, set, unset] };

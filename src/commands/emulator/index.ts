// `pds emulator`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const start = defineVerb(definitions.start, () => import('./start.js'));

export const emulator: NounDef = { ...definitions.noun, verbs: [start] };

// `pds auth`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const login = defineVerb(definitions.login, () => import('./login.js'));
export const status = defineVerb(definitions.status, () => import('./status.js'));
export const token = defineVerb(definitions.token, () => import('./token.js'));
export const list = defineVerb(definitions.list, () => import('./list.js'));
export const logout = defineVerb(definitions.logout, () => import('./logout.js'));

export const auth: NounDef = { ...definitions.noun, verbs: [login, status, list, token, logout] };

// `pds sandbox`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const exec = defineVerb(definitions.exec, () => import('./exec.js'));
export const ls = defineVerb(definitions.ls, () => import('./ls.js'));
export const cat = defineVerb(definitions.cat, () => import('./cat.js'));
export const info = defineVerb(definitions.info, () => import('./info.js'));
export const shell = defineVerb(definitions.shell, () => import('./shell.js'));
export const connect = defineVerb(definitions.connect, () => import('./connect.js'));
export const disconnect = defineVerb(definitions.disconnect, () => import('./disconnect.js'));

export const sandbox: NounDef = { ...definitions.noun, verbs: [exec, ls, cat, info, shell, connect, disconnect] };

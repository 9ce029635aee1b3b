// `pds mcp`: each verb's definition (definitions.ts) joined to the module that runs it.
import { defineVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';

export const serve = defineVerb(definitions.serve, () => import('./serve.js'));
export const config = defineVerb(definitions.config, () => import('./config.js'));
export const tools = defineVerb(definitions.tools, () => import('./list.js'));

export const mcp: NounDef = { name: 'mcp', description: serve.description, ownVerb: serve, verbs: [config, tools] };

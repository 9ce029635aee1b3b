// `pds <resource> ls|get` for the eight catalog resources, each definition (definitions.ts) joined
// to the module that runs it; contracts and statements add the document verbs of documents/.
import { defineVerb, type NounDef } from '../../lib/verb.js';
import * as definitions from './definitions.js';
import { RESOURCE_NAMES, RESOURCES } from '../../lib/resources.js';
import { documentVerbs } from '../documents/index.js';

export const CATALOG_NOUN_DEFS: NounDef[] = RESOURCE_NAMES.map((resource) => ({
  name: resource,
  description: RESOURCES[resource].description,
  examples: [[`pds ${resource} ls`], [`pds ${resource} get ${RESOURCES[resource].seedId}`]],
  verbs: [
    defineVerb(definitions.listVerb(resource), () => import('./ls.js')),
    defineVerb(definitions.getVerb(resource), () => import('./get.js')),
    ...(resource === 'contracts'
      ? documentVerbs('contract')
      : resource === 'statements'
        ? documentVerbs('statement')
        : []),
  ],
}));

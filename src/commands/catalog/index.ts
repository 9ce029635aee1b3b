// `pds <resource> ls|get` for the eight catalog resources, each definition (definitions.ts) joined
// to the module that runs it; a resource made from documents (contracts, statements) adds the
// document verbs of documents/.
import { defineVerb, type NounDef } from '../../lib/verb.js';
import * as definitions from './definitions.js';
import { RESOURCE_NAMES, resourceOf } from '../../lib/resources.js';
import { documentVerbs } from '../documents/index.js';

export const CATALOG_NOUN_DEFS: NounDef[] = RESOURCE_NAMES.map((resource) => {
  const { description, seedId, document } = resourceOf(resource);
  return {
    name: resource,
    description,
    examples: [[`pds ${resource} ls`], [`pds ${resource} get ${seedId}`]],
    verbs: [
      defineVerb(definitions.listVerb(resource), () => import('./ls.js')),
      defineVerb(definitions.getVerb(resource), () => import('./get.js')),
      ...(document ? documentVerbs(document) : []),
    ],
  };
});

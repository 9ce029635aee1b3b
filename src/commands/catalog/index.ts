// `pds <resource> ls|get` for the eight catalog resources, each definition (definitions.ts) joined
// to the module that runs it; a resource made from documents (contracts, statements) adds the
// document verbs of documents/.
import { defineVerb, type AnyVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';
import { RESOURCE_NAMES, resourceOf, type ResourceName } from '../../lib/resources.js';
import { documentVerbs } from '../documents/index.js';

/** `pds <resource> ls` and `pds <resource> get`, each joined to its module (the agents' tools run them too). */
export function catalogVerbs(resource: ResourceName): { ls: AnyVerb; get: AnyVerb } {
  return {
    ls: defineVerb(definitions.listVerb(resource), () => import('./ls.js')),
    get: defineVerb(definitions.getVerb(resource), () => import('./get.js')),
  };
}

export const CATALOG_NOUN_DEFS: NounDef[] = RESOURCE_NAMES.map((resource) => {
  const { description, seedId, document } = resourceOf(resource);
  const { ls, get } = catalogVerbs(resource);
  return {
    name: resource,
    description,
    examples: [[`pds ${resource} ls`], [`pds ${resource} get ${seedId}`]],
    verbs: [ls, get, ...(document ? documentVerbs(document) : [])],
  };
});

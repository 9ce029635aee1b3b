// `pds <resource> ls|get` for the catalog resources, each definition (definitions.ts) joined to the
// module that runs it. A resource whose records come from documents (contracts, statements) has its
// own folder, whose index calls catalogNoun with the rest of its verbs.
import { defineVerb, type AnyVerb, type NounDef } from '../../lib/verbs/verb.js';
import * as definitions from './definitions.js';
import { resourceOf, type ResourceName } from '../../lib/resources.js';

/** `pds <resource> ls` and `pds <resource> get`, each joined to its module (the agents' tools run them too). */
export function catalogVerbs(resource: ResourceName): { ls: AnyVerb; get: AnyVerb } {
  return {
    ls: defineVerb(definitions.listVerb(resource), () => import('./ls.js')),
    get: defineVerb(definitions.getVerb(resource), () => import('./get.js')),
  };
}

/** The noun of a catalog resource: its description and examples, ls and get, then `more` verbs. */
export function catalogNoun(resource: ResourceName, more: readonly AnyVerb[] = []): NounDef {
  const { description, seedId } = resourceOf(resource);
  const { ls, get } = catalogVerbs(resource);
  return {
    name: resource,
    description,
    examples: [[`pds ${resource} ls`], [`pds ${resource} get ${seedId}`]],
    verbs: [ls, get, ...more],
  };
}

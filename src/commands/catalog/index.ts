// `pds <resource> ls|get` for the eight catalog resources, defined from one table; contracts and
// statements add the document verbs (status, download) of documents/index.ts.
import { verb, type AnyVerb, type FlagValues, type NounDef, type OptionsOf, type VerbDef } from '../../lib/verb.js';
import {
  CATALOG,
  CATALOG_NOUNS,
  type RESOURCE_FLAGS,
  resourceFlags,
  type CatalogNoun,
  type CatalogResource,
} from './resources.js';
import { documentVerbs } from '../documents/index.js';

const LIST_FLAGS = {
  page: { type: 'number', value: 'n', integer: true, min: 1, default: 1, help: 'page number' },
  perPage: {
    type: 'number',
    value: 'n',
    integer: true,
    min: 1,
    max: 100,
    help: 'records per page; default 20, or 100 with --all',
  },
  all: { type: 'boolean', help: 'follow every page' },
} as const;

/** A resource's own flags: present on the resources that take them. */
type ResourceFlagOptions = Partial<FlagValues<typeof RESOURCE_FLAGS>>;
export type ListOptions = OptionsOf<VerbDef<typeof LIST_FLAGS, [], { resource: CatalogNoun }>> & ResourceFlagOptions;
export type GetOptions = OptionsOf<VerbDef<{}, [{ name: 'id'; help: ''; required: true }], { resource: CatalogNoun }>> &
  ResourceFlagOptions;

function listVerb(resource: CatalogNoun): AnyVerb {
  const examples: [string, string?][] = [
    [`pds ${resource} ls`],
    [`pds ${resource} ls --all --json > ${resource}.json`, 'every page'],
  ];
  if (resource === 'contracts')
    examples.push(['pds contracts ls --include royalties,splits', 'with a count per include']);
  if (resource === 'entities') examples.push(['pds entities ls --roles assignee --merged']);
  return verb({
    name: 'ls',
    aliases: ['list'],
    description: `list ${resource}`,
    flags: { ...LIST_FLAGS, ...resourceFlags(resource, 'ls') },
    fixed: { resource },
    paged: true,
    scripting: ['jq', 'fields'],
    examples,
    load: () => import('./ls.js'),
  });
}

function getVerb(resource: CatalogNoun): AnyVerb {
  const entry: CatalogResource = CATALOG[resource];
  const { singular, seedId } = entry;
  const idHelp = entry.idHelp ?? `the ${singular}'s id, as \`pds ${resource} ls\` shows it`;
  const second: [string, string?] =
    resource === 'contracts'
      ? ['pds contracts get 20001 --include dates,signatures']
      : resource === 'statements'
        ? [
            "pds statements get 40001 --jq '.extraction_stage // .processing_status'",
            'its stage, in either form the service answers in',
          ]
        : [`pds ${resource} get ${seedId} --fields id,name --json`];
  return verb({
    name: 'get',
    aliases: ['view'],
    description: `show one of the ${resource}`,
    args: [{ name: `${singular}-id`, help: idHelp, required: true }],
    flags: resourceFlags(resource, 'get'),
    fixed: { resource },
    paged: true,
    scripting: ['jq', 'fields'],
    examples: [[`pds ${resource} get ${seedId}`], second],
    load: () => import('./get.js'),
  });
}

export const CATALOG_NOUN_DEFS: NounDef[] = CATALOG_NOUNS.map((resource) => ({
  name: resource,
  description: CATALOG[resource].description,
  examples: [[`pds ${resource} ls`], [`pds ${resource} get ${CATALOG[resource].seedId}`]],
  verbs: [
    listVerb(resource),
    getVerb(resource),
    ...(resource === 'contracts'
      ? documentVerbs('contract')
      : resource === 'statements'
        ? documentVerbs('statement')
        : []),
  ],
}));

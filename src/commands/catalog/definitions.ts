// `pds <resource> ls|get` for the eight catalog resources, defined from their definitions (lib/resources.ts).
// The definitions: plain data, no code (index.ts joins each to its module).
import { verb, type OptionsOf } from '../../lib/verbs/verb.js';
import { resourceOf, type ResourceName } from '../../lib/resources.js';
import { resourceFlags } from './resources.js';

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

/** `pds <resource> ls`. */
export function listVerb(resource: ResourceName) {
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
  });
}

/** `pds <resource> get`. */
export function getVerb(resource: ResourceName) {
  const entry = resourceOf(resource);
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
  });
}

export type ListOptions = OptionsOf<ReturnType<typeof listVerb>>;
export type GetOptions = OptionsOf<ReturnType<typeof getVerb>>;

// `pds projects ls|get`. The definitions: plain data, no code.
import { verb, type NounDef } from '../../lib/verbs/verb.js';
import { DEMO_PROJECT } from '../examples.js';

/** The noun: what `pds projects --help` says of it (index.ts adds its verbs). */
export const noun = {
  name: 'projects',
  description: 'list, inspect and create projects',
  examples: [['pds projects ls'], ['pds projects get']],
} satisfies Omit<NounDef, 'verbs'>;

export const ls = verb({
  name: 'ls',
  aliases: ['list'],
  description: 'list the projects the token reaches',
  paged: true,
  scripting: ['jq', 'fields'],
  examples: [
    ['pds projects ls'],
    ['pds projects ls --jq \'.[] | select(.name | test("north"; "i")) | .id\'', 'the id of a project found by name'],
  ],
});

export const get = verb({
  name: 'get',
  aliases: ['view'],
  description: 'show a project (default: the current project)',
  args: [{ name: 'project-id', help: 'project UUID', completion: 'projects' }],
  paged: true,
  scripting: ['jq', 'fields'],
  examples: [['pds projects get', 'the current project'], [`pds projects get ${DEMO_PROJECT} --fields id,name`]],
});

export const create = verb({
  name: 'create',
  description: 'create a project (POST /v1/projects; never retried: a second one would make a second project)',
  args: [{ name: 'name', help: 'the project name', required: true }],
  flags: {
    entityName: {
      type: 'string',
      value: 'n',
      nonEmpty: true,
      help: 'the entity (label, publisher…) the project is for',
    },
  },
  dryRun: 'honoured',
  scripting: ['jq'],
  examples: [['pds projects create "Back catalogue 2026" --entity-name "Nova Records"']],
});

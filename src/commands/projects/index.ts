// `pds projects ls|get`.
import { verb, type NounDef } from '../../lib/verb.js';
import { DEMO_PROJECT } from '../examples.js';

export const ls = verb({
  name: 'ls',
  aliases: ['list'],
  description: 'list the projects the token reaches',
  paged: true,
  scripting: ['jq', 'fields'],
  examples: [['pds projects ls'], ['pds projects ls --jq \'.[] | select(.name | test("north"; "i")) | .id\'', 'the id of a project found by name']],
  load: () => import('./ls.js'),
});

export const get = verb({
  name: 'get',
  aliases: ['view'],
  description: 'show a project (default: the current project)',
  args: [{ name: 'project-id', help: 'project UUID', completion: 'projects' }],
  paged: true,
  scripting: ['jq', 'fields'],
  examples: [['pds projects get', 'the current project'], [`pds projects get ${DEMO_PROJECT} --fields id,name`]],
  load: () => import('./get.js'),
});

export const projects: NounDef = {
  name: 'projects',
  description: 'list and inspect projects',
  examples: [['pds projects ls'], ['pds projects get']],
  verbs: [ls, get],
};

// `pds api <path>`: a raw request, for whatever no verb covers. The definitions: plain data, no code.
import { verb } from '../../lib/verbs/verb.js';
import { RESOURCE_PATHS } from '../catalog/resources.js';

// As gh api takes them: the deployed service writes statements, contracts and tags with PUT.
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const api = verb({
  name: 'api',
  description: "send a request to any /v1 path with the profile's URL, token and project",
  args: [
    {
      name: 'path',
      help: 'e.g. /v1/projects or just projects; {project} is replaced by the current project',
      required: true,
      completion: ['projects', ...RESOURCE_PATHS],
    },
  ],
  flags: {
    method: {
      type: 'string',
      short: 'X',
      value: 'method',
      help: 'GET (default), POST, PUT, PATCH or DELETE',
      completion: METHODS,
    },
    field: {
      type: 'repeated',
      short: 'f',
      value: 'key=value',
      help: 'a query parameter for GET (and with --input), else a field of the JSON body; repeatable',
    },
    input: { type: 'string', value: 'file', help: 'the JSON body, from a file or - for stdin' },
    header: { type: 'repeated', short: 'H', value: 'header', help: "an extra header, 'Name: value'; repeatable" },
    include: { type: 'boolean', short: 'i', help: 'print the status line and the headers before the body' },
    paginate: {
      type: 'boolean',
      help: 'follow every page of a list (either envelope) and print one JSON array of every record',
    },
  },
  paged: true,
  // A GET is sent (it reads); any other method is only said.
  dryRun: 'honoured',
  scripting: ['jq'],
  examples: [
    ['pds api projects'],
    ["pds api statements -f projectId={project} --paginate --jq 'length'"],
    ["pds api -X PUT 'statements/40002?projectId={project}' -f payee='Nova Records'", 'a field of the JSON body'],
  ],
});

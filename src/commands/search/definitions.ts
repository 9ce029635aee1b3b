// `pds search <query...>`: the project's search across resource types. The definitions: plain data, no code.
import { SEARCH_TYPES } from '../../lib/api/projects.js';
import { verb } from '../../lib/verbs/verb.js';

export { SEARCH_TYPES };

export const SEARCH_FLAGS = {
  type: {
    type: 'list',
    value: 'types',
    help: 'only these result types, comma-separated or repeated (e.g. artist,contract)',
    toolHelp: `only these types, comma-separated or a list: ${SEARCH_TYPES.join(', ')}`,
    completion: SEARCH_TYPES,
  },
  limit: {
    type: 'number',
    value: 'n',
    integer: true,
    min: 1,
    help: 'print at most n results',
    toolHelp: 'at most this many results in all',
  },
} as const;

export const search = verb({
  name: 'search',
  description: 'search the current project: contracts, entities, artists, writers, recordings, compositions',
  args: [{ name: 'query', help: 'words to search for (1 to 500 characters in all)', required: true, variadic: true }],
  flags: SEARCH_FLAGS,
  paged: true,
  scripting: ['jq', 'fields'],
  examples: [
    ['pds search nova reyes'],
    ['pds search lumen --type contract,entity --limit 5'],
    ['pds search nova --jq \'.[] | select(.type == "artist") | .id\''],
  ],
});

// `search`: the project searched, as `pds search` searches it, a page at a time.
import * as z from 'zod/mini';
import { SearchResult } from '../../lib/schemas.js';
import { flagSchema } from '../../lib/verb-options.js';
import { SEARCH_TYPES, searchQuery, searchTypes } from '../search/search.js';
import { SEARCH_FLAGS } from '../search/definitions.js';
import { dataResult } from './results.js';
import { READ, cursorInput, defineTool, slice, wholeNumber, type ToolDefinition } from './tool.js';
import { describe, listOutput } from './verb-tools.js';

export function searchTool(): ToolDefinition {
  return defineTool({
    name: 'search',
    title: 'Search the project',
    description:
      "Searches the project: contracts, entities, artists, writers, recordings and compositions, in the service's order (grouped by type in that order, each type best match first).",
    toolset: 'search',
    write: false,
    annotations: READ,
    project: true,
    output: listOutput(SearchResult),
    input: {
      query: describe(z.string(), 'words to look for, 1 to 500 characters'),
      type: describe(
        flagSchema('type', SEARCH_FLAGS.type),
        `only these types, comma-separated or a list: ${SEARCH_TYPES.join(', ')}`,
      ),
      limit: describe(z.optional(wholeNumber('limit', 1)), 'at most this many results in all'),
      cursor: cursorInput,
    },
    async run(args, call, cursor) {
      const query = searchQuery(args.query);
      const types = searchTypes(args.type);
      const projectId = call.project(args.projectId);
      let hits = await call.ctx.api.projects.search(projectId, query);
      if (types.length > 0) hits = hits.filter((hit) => types.includes(hit.type));
      if (args.limit !== undefined) hits = hits.slice(0, args.limit);
      const { part, before, after, structured } = slice(
        hits,
        'results',
        'search',
        { ...args, projectId },
        cursor,
        call.maxResults,
      );
      return dataResult(part, { before, after, structured });
    },
  });
}

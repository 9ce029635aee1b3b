// `search`: the project searched by `pds search`, handed out a page at a time.
import * as z from 'zod/mini';
import { SearchResult } from '../../lib/schemas.js';
import { SEARCH_FLAGS } from '../search/definitions.js';
import { search } from '../search/index.js';
import { describe, flagInput } from './inputs.js';
import { READ, cursorInput, slice, type ToolDefinition } from './tool.js';
import { printedItems, verbTool } from './verb-tools.js';

export function searchTool(): ToolDefinition {
  return verbTool({
    verb: search,
    command: 'search',
    name: 'search',
    title: 'Search the project',
    description:
      "Searches the project: contracts, entities, artists, writers, recordings and compositions, in the service's order (grouped by type in that order, each type best match first).",
    toolset: 'search',
    write: false,
    annotations: READ,
    output: { list: SearchResult },
    input: {
      query: describe(z.string(), 'words to look for, 1 to 500 characters'),
      type: flagInput('type', SEARCH_FLAGS.type),
      limit: flagInput('limit', SEARCH_FLAGS.limit),
      cursor: cursorInput,
    },
    // The query is one string: the verb's words, joined as it joins them.
    toVerb: ({ args }) => ({ args: [[args.query]], flags: { type: args.type, limit: args.limit } }),
    fromVerb(printed, { args, call, cursor, projectId }) {
      const hits = printedItems(printed);
      const { part, ...lines } = slice(hits, 'results', 'search', { ...args, projectId }, cursor, call.maxResults);
      return { data: part, ...lines };
    },
  });
}

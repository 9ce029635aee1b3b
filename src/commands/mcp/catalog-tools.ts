// The catalog's tools: a list and a get for each resource (contracts and statements are offered with
// the documents), and the projects the credentials can see; each made from its verb
// (`pds <resource> ls|get`, `pds projects ls|get`), with the agent's paging adapted to it.
import * as z from 'zod/mini';
import { RESOURCE_NAMES, resourceOf, type ResourceFlag, type ResourceName } from '../../lib/resources.js';
import { RESOURCE_SCHEMAS } from '../../lib/api/catalog-schemas.js';
import { UsageError } from '../../lib/errors.js';
import { Project } from '../../lib/schemas.js';
import { type RESOURCE_FLAGS, resourceFlags } from '../catalog/resources.js';
import { checkResourceId } from '../catalog/get.js';
import { catalogVerbs } from '../catalog/index.js';
import { ls as projectsLs, get as projectsGet } from '../projects/index.js';
import { describe, type FlagInputs, flagInput, numberOrText } from './inputs.js';
import { READ, cursorInput, nextLine, slice, wholeNumber, type Call, type ToolDefinition } from './tool.js';
import { printedItems, verbTool } from './verb-tools.js';

/** The resource flags the tools offer (the others are the deployed service's own: `pds` alone takes them). */
const TOOL_FLAGS = ['include', 'roles', 'merged', 'products'] as const satisfies readonly ResourceFlag[];
type ToolFlags = Pick<typeof RESOURCE_FLAGS, (typeof TOOL_FLAGS)[number]>;

/**
 * The CLI's resource flags this resource takes (`pds <resource> ls|get --include/--roles/--merged/--products`),
 * with their checks and help as the command line declares them.
 */
function resourceInputs(resource: ResourceName, verb: 'ls' | 'get'): Partial<FlagInputs<ToolFlags>> {
  const flags = resourceFlags(resource, verb);
  const offered = TOOL_FLAGS.flatMap((name) => {
    const spec = flags[name];
    return spec === undefined ? [] : [[name, flagInput(name, spec)] as const];
  });
  // Object.fromEntries forgets the keys: each entry is the named flag's own input.
  return Object.fromEntries(offered) as Partial<FlagInputs<ToolFlags>>;
}

/** The page a list call asks for: perPage defaults to the server's --max-results, and may not pass it. */
function pageOf(args: { page?: number | undefined; perPage?: number | undefined }, call: Call) {
  const perPage = args.perPage ?? call.maxResults;
  if (perPage > call.maxResults) {
    throw new UsageError(`perPage: at most ${call.maxResults} records per call (the server's --max-results)`);
  }
  return { page: args.page ?? 1, perPage };
}

export function catalogTools(): ToolDefinition[] {
  return RESOURCE_NAMES.flatMap((resource) => {
    const { singular: one, description, toolWording: what = description } = resourceOf(resource);
    const verbs = catalogVerbs(resource);
    const toolset = resourceOf(resource).document !== undefined ? 'documents' : 'catalog';
    const list = verbTool({
      verb: verbs.ls,
      command: `${resource} ls`,
      name: `list_${resource}`,
      title: `List ${resource}`,
      description: `One page of the ${what}. While there are more, it ends with a cursor: pass it back alone for the next page.`,
      toolset,
      write: false,
      annotations: READ,
      output: { list: RESOURCE_SCHEMAS[resource] },
      input: {
        page: describe(z.optional(wholeNumber('page', 1)), 'page number, from 1 (default 1)'),
        perPage: describe(
          z.optional(wholeNumber('perPage', 1, 100)),
          'records per page, 1 to 100 (default: the most a call returns)',
        ),
        ...resourceInputs(resource, 'ls'),
        cursor: cursorInput,
      },
      toVerb: ({ args, call }) => {
        const { include, roles, merged, products } = args;
        return { args: [], flags: { ...pageOf(args, call), include, roles, merged, products } };
      },
      fromVerb(printed, { args, call, cursor, projectId }) {
        const { page, perPage } = pageOf(args, call);
        const items = printedItems(printed);
        const total = printed.pages[0]?.total;
        const first = (page - 1) * perPage + 1;
        const shown = items.length === 0 ? `no ${resource}` : `${resource} ${first}-${first + items.length - 1}`;
        const more = total !== undefined ? page * perPage < total : items.length >= perPage;
        const next = more ? cursor.next({ ...args, projectId, page: page + 1, perPage }) : null;
        return {
          data: items,
          before: `${shown}${total === undefined ? '' : ` of ${total}`} (page ${page}, ${perPage} per page)`,
          after: [next ? nextLine(`list_${resource}`, next) : 'last page'],
          structured: { items, next_cursor: next, ...(total === undefined ? {} : { total }) },
        };
      },
    });
    const get = verbTool({
      verb: verbs.get,
      command: `${resource} get`,
      name: `get_${one}`,
      title: `Get ${withArticle(one)}`,
      description: `One of the ${what}, by id${resource === 'entities' ? ' or internal_uuid' : ''}.`,
      toolset,
      write: false,
      annotations: READ,
      output: { record: RESOURCE_SCHEMAS[resource] },
      input: { id: describe(numberOrText, `the ${one}'s id`), ...resourceInputs(resource, 'get') },
      args: ['id'],
      notFound: ({ args }) => ({ what: one, id: checkResourceId(resource, args.id) }),
    });
    return [list, get];
  });
}

/** "an artist", "a contract": the tools' titles are read as sentences. */
const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** The projects the credentials can see (a page at a time), and one of them. */
export function projectTools(): ToolDefinition[] {
  return [
    verbTool({
      verb: projectsLs,
      command: 'projects ls',
      name: 'list_projects',
      title: 'List projects',
      description: 'The projects the credentials can see.',
      toolset: 'catalog',
      write: false,
      annotations: READ,
      project: false,
      output: { list: Project },
      input: { cursor: cursorInput },
      toVerb: () => ({ args: [] }),
      fromVerb(printed, { args, call, cursor }) {
        const { part, ...lines } = slice(
          printedItems(printed),
          'projects',
          'list_projects',
          args,
          cursor,
          call.maxResults,
        );
        return { data: part, ...lines };
      },
    }),
    verbTool({
      verb: projectsGet,
      command: 'projects get',
      name: 'get_project',
      title: 'Get a project',
      description: 'One project: its name, organization and creation date.',
      toolset: 'catalog',
      write: false,
      annotations: READ,
      output: { record: Project },
      input: {},
      toVerb: ({ projectId }) => ({ args: [projectId] }),
      notFound: ({ projectId }) => ({ what: 'project', id: projectId, inProject: false }),
    }),
  ];
}

// The catalog's tools: a list and a get for each resource (contracts and statements are offered with
// the documents), and the projects the credentials can see.
import * as z from 'zod/mini';
import { RESOURCE_NAMES, RESOURCES, resourceOf, type ResourceFlag, type ResourceName } from '../../lib/resources.js';
import { RESOURCE_SCHEMAS } from '../../lib/api/catalog-schemas.js';
import { UsageError } from '../../lib/errors.js';
import { CONTRACT_INCLUDES, Project } from '../../lib/schemas.js';
import { flagSchema } from '../../lib/verb-options.js';
import { ROLES, resourceQuery } from '../catalog/flags.js';
import { RESOURCE_FLAGS } from '../catalog/resources.js';
import { checkResourceId } from '../catalog/get.js';
import { dataResult } from './results.js';
import { READ, cursorInput, defineTool, nextLine, notFound, slice, wholeNumber, type ToolDefinition } from './tool.js';
import { describe, listOutput, numberOrText } from './verb-tools.js';

/** The resource flags' checks, for the tools that take them. */
const ResourceFlags = {
  include: flagSchema('include', RESOURCE_FLAGS.include),
  roles: flagSchema('roles', RESOURCE_FLAGS.roles),
  merged: flagSchema('merged', RESOURCE_FLAGS.merged),
  products: flagSchema('products', RESOURCE_FLAGS.products),
};

/** The CLI's resource flags this resource takes (`pds <resource> ls|get --include/--roles/--merged/--products`). */
function resourceInputs(resource: ResourceName, verb: 'list' | 'get'): Partial<typeof ResourceFlags> {
  const input: Partial<typeof ResourceFlags> = {};
  const takes = (flag: ResourceFlag) =>
    (RESOURCES[resource].flags[verb === 'list' ? 'ls' : 'get'] as readonly ResourceFlag[]).includes(flag);
  if (takes('include')) {
    input.include = describe(ResourceFlags.include, `sub-resources to embed: ${CONTRACT_INCLUDES.join(', ')}`);
  }
  if (takes('roles')) {
    input.roles = describe(
      ResourceFlags.roles,
      `only entities with these contract roles, comma-separated: ${ROLES.join(', ')}`,
    );
  }
  if (takes('merged')) {
    input.merged = describe(ResourceFlags.merged, 'include the duplicates merged into each record');
  }
  if (takes('products')) {
    input.products = describe(ResourceFlags.products, 'include products (releases with UPCs)');
  }
  return input;
}

export function catalogTools(): ToolDefinition[] {
  return RESOURCE_NAMES.flatMap((resource): ToolDefinition[] => {
    const { singular: one, description, toolWording: what = description } = resourceOf(resource);
    const list = defineTool({
      name: `list_${resource}`,
      title: `List ${resource}`,
      description: `One page of the ${what}. While there are more, it ends with a cursor: pass it back alone for the next page.`,
      toolset: documentResource(resource) ? 'documents' : 'catalog',
      write: false,
      annotations: READ,
      project: true,
      output: listOutput(RESOURCE_SCHEMAS[resource]),
      input: {
        page: describe(z.optional(wholeNumber('page', 1)), 'page number, from 1 (default 1)'),
        perPage: describe(
          z.optional(wholeNumber('perPage', 1, 100)),
          'records per page, 1 to 100 (default: the most a call returns)',
        ),
        ...resourceInputs(resource, 'list'),
        cursor: cursorInput,
      },
      async run(args, call, cursor) {
        const perPage = args.perPage ?? call.maxResults;
        if (perPage > call.maxResults) {
          throw new UsageError(`perPage: at most ${call.maxResults} records per call (the server's --max-results)`);
        }
        const page = args.page ?? 1;
        const extra = resourceQuery(args);
        const projectId = call.project(args.projectId);
        const result = await call.ctx.api.catalog.listPage(resource, {
          projectId,
          page,
          perPage,
          extra,
          signal: call.signal,
        });
        const first = (page - 1) * perPage + 1;
        const shown =
          result.items.length === 0 ? `no ${resource}` : `${resource} ${first}-${first + result.items.length - 1}`;
        const more = result.total !== undefined ? page * perPage < result.total : result.items.length >= perPage;
        const of = result.total !== undefined ? ` of ${result.total}` : '';
        const next = more ? cursor.next({ ...args, projectId, page: page + 1, perPage }) : null;
        return dataResult(result.items, {
          before: `${shown}${of} (page ${page}, ${perPage} per page)`,
          after: [next ? nextLine(`list_${resource}`, next) : 'last page'],
          structured: {
            items: result.items,
            next_cursor: next,
            ...(result.total !== undefined ? { total: result.total } : {}),
          },
        });
      },
    });
    const get = defineTool({
      name: `get_${one}`,
      title: `Get ${withArticle(one)}`,
      description: `One of the ${what}, by id${resource === 'entities' ? ' or internal_uuid' : ''}.`,
      toolset: documentResource(resource) ? 'documents' : 'catalog',
      write: false,
      annotations: READ,
      project: true,
      output: RESOURCE_SCHEMAS[resource],
      input: { id: describe(numberOrText, `the ${one}'s id`), ...resourceInputs(resource, 'get') },
      async run(args, call) {
        const id = checkResourceId(resource, args.id);
        const extra = resourceQuery(args);
        const projectId = call.project(args.projectId);
        return dataResult(
          await call.ctx.api.catalog.get(resource, projectId, id, extra).catch(notFound(one, id, projectId)),
        );
      },
    });
    return [list, get];
  });
}

/** "an artist", "a contract": the tools' titles are read as sentences. */
const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

const documentResource = (resource: ResourceName): boolean => resourceOf(resource).document !== undefined;

/** The projects the credentials can see, and one of them. */
export function projectTools(): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_projects',
      title: 'List projects',
      description: 'The projects the credentials can see.',
      toolset: 'catalog',
      write: false,
      annotations: READ,
      project: false,
      output: listOutput(Project),
      input: { cursor: cursorInput },
      async run(args, call, cursor) {
        const projects = await call.ctx.api.projects.list();
        const { part, before, after, structured } = slice(
          projects,
          'projects',
          'list_projects',
          args,
          cursor,
          call.maxResults,
        );
        return dataResult(part, { before, after, structured });
      },
    }),
    defineTool({
      name: 'get_project',
      title: 'Get a project',
      description: 'One project: its name, organization and creation date.',
      toolset: 'catalog',
      write: false,
      annotations: READ,
      project: true,
      output: Project,
      input: {},
      async run(args, call) {
        const projectId = call.project(args.projectId);
        return dataResult(await call.ctx.api.projects.get(projectId).catch(notFound('project', projectId)));
      },
    }),
  ];
}

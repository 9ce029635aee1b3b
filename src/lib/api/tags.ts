// Tags on contracts and statements (docs/service.md): the project's tags with their use, and the
// complete list of one record's tags, replaced whole.
import * as z from 'zod/mini';
import type { HttpClient } from '../http/client.js';
import { Tag, TagsPut } from '../schemas.js';

export type TagScope = 'contracts' | 'statements';

/** `{data: [...], pagination: {...}}`, or the spec's paged envelope, or a plain array. */
const TagList = z.union([z.array(Tag), z.looseObject({ items: z.array(Tag) })]);

export function createTagsApi(http: HttpClient) {
  return {
    async list(
      projectId: string,
      options: { scope?: TagScope; search?: string; page?: number; perPage?: number } = {},
    ): Promise<Tag[]> {
      const data = await http.data(
        {
          path: '/v1/tags',
          query: {
            projectId,
            scope: options.scope,
            search: options.search,
            page: options.page,
            perPage: options.perPage,
          },
        },
        TagList,
      );
      return Array.isArray(data) ? data : data.items;
    },

    /** `PUT /v1/tags`: `tags` becomes the record's complete list (`[]` clears it). */
    put(projectId: string, scope: TagScope, resourceId: string | number, tags: string[]): Promise<TagsPut> {
      return http.data(
        { method: 'PUT', path: '/v1/tags', query: { projectId }, json: { scope, resourceId, tags } },
        TagsPut,
      );
    },
  };
}

// Resource flags (--include, --roles, --merged, --products) → query parameters, checked locally
// so that a typo costs no request.
import * as z from 'zod/mini';
import { CONTRACT_INCLUDES } from '../../lib/schemas.js';
import type { QueryValue } from '../../lib/http.js';
import { UsageError } from '../../lib/errors.js';
import { RESOURCE_NAMES } from '../../lib/api/catalog.js';
import { commaList } from '../options.js';

export const ROLES = ['assignee', 'assignor'] as const;

export const ResourceFlags = {
  resource: z.enum(RESOURCE_NAMES as [string, ...string[]]),
  include: z.optional(z.array(z.string())),
  roles: z.optional(z.string()),
  merged: z.optional(z.boolean()),
  products: z.optional(z.boolean()),
};

export function resourceQuery(flags: {
  include?: string[] | undefined;
  roles?: string | undefined;
  merged?: boolean | undefined;
  products?: boolean | undefined;
}): Record<string, QueryValue> {
  const includes = commaList(flags.include);
  const badInclude = includes.find((name) => !(CONTRACT_INCLUDES as readonly string[]).includes(name));
  if (badInclude !== undefined) {
    throw new UsageError(`unknown include '${badInclude}'`, { details: [`valid includes: ${CONTRACT_INCLUDES.join(', ')}`] });
  }
  const roles = commaList(flags.roles);
  const badRole = roles.find((role) => !(ROLES as readonly string[]).includes(role));
  if (badRole !== undefined) {
    throw new UsageError(`unknown role '${badRole}'`, { details: [`valid roles: ${ROLES.join(', ')}`] });
  }
  return {
    includes: [...new Set(includes)],
    roles: [...new Set(roles)],
    includeMerged: flags.merged === true ? 'true' : undefined,
    includeProducts: flags.products === true ? 'true' : undefined,
  };
}

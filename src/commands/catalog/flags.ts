// Resource flags (--include, --roles, --merged, --products) → query parameters, checked locally
// so that a typo costs no request.
import type { QueryValue } from '../../lib/http.js';
import { UsageError } from '../../lib/errors.js';
import { CONTRACT_INCLUDES } from '../../lib/vocabulary.js';
import { commaList, flagSchema } from '../../lib/verb-options.js';
import { RESOURCE_FLAGS, ROLES } from './resources.js';

export { ROLES };

/** The resource flags' checks, for the agents' tools that take them. */
export const ResourceFlags = Object.fromEntries(Object.entries(RESOURCE_FLAGS).map(([key, spec]) => [key, flagSchema(key, spec)])) as Record<
  keyof typeof RESOURCE_FLAGS,
  ReturnType<typeof flagSchema>
>;

export function resourceQuery(flags: {
  include?: string[] | undefined;
  roles?: string | string[] | undefined;
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

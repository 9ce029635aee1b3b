// Resource flags (--include, --roles, --merged, --products) → query parameters, checked locally
// so that a typo costs no request.
import { UsageError } from '../../lib/errors.js';
import { CONTRACT_INCLUDES, matchWord } from '../../lib/vocabulary.js';
import { commaList } from '../../lib/output/text.js';
import { ROLES } from './resources.js';

export { ROLES };

export function resourceQuery(flags: {
  include?: string[] | undefined;
  roles?: string | string[] | undefined;
  merged?: boolean | undefined;
  products?: boolean | undefined;
  extractorIds?: string[] | undefined;
  score?: boolean | undefined;
  citations?: boolean | undefined;
  stagingIds?: string[] | undefined;
  extractionStage?: string | undefined;
  detailed?: boolean | undefined;
}) {
  const given = commaList(flags.include);
  const badInclude = given.find((name) => matchWord(name, CONTRACT_INCLUDES) === undefined);
  const includes = given.map((name) => matchWord(name, CONTRACT_INCLUDES) as string);
  if (badInclude !== undefined) {
    throw new UsageError(`unknown include '${badInclude}'`, {
      details: [`valid includes: ${CONTRACT_INCLUDES.join(', ')}`],
    });
  }
  const roles = commaList(flags.roles);
  const badRole = roles.find((role) => !(ROLES as readonly string[]).includes(role));
  if (badRole !== undefined) {
    throw new UsageError(`unknown role '${badRole}'`, { details: [`valid roles: ${ROLES.join(', ')}`] });
  }
  const stagingIds = commaList(flags.stagingIds);
  const badStaging = stagingIds.find((id) => !/^\d{1,15}$/.test(id));
  if (badStaging !== undefined)
    throw new UsageError(`invalid staging id '${badStaging}' in --staging-ids: expected whole numbers`);
  const on = (value: boolean | undefined) => (value === true ? 'true' : undefined);
  return {
    includes: [...new Set(includes)],
    extractorIds: [...new Set(commaList(flags.extractorIds))],
    stagingIds: [...new Set(stagingIds)],
    extractionStage: flags.extractionStage,
    score: on(flags.score),
    citations: on(flags.citations),
    detailed: on(flags.detailed),
    roles: [...new Set(roles)],
    includeMerged: flags.merged === true ? 'true' : undefined,
    includeProducts: flags.products === true ? 'true' : undefined,
  };
}

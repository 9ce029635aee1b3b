// The service's words that the client checks locally (a typo costs no request) and that help and
// completion list: plain data, apart from the schemas so that naming them loads no zod.

/** The spec form's include names (a service of the seed's time takes these only). */
export const SEED_CONTRACT_INCLUDES = [
  'entities',
  'artists',
  'writers',
  'royalties',
  'splits',
  'costs',
  'compensations',
  'dates',
  'accounting-periods',
  'types',
  'signatures',
  'control-areas',
  'creative-approvals',
  'balances',
  'recordings',
  'compositions',
] as const;
/** Every include the deployed service takes: the spec's and those the deployed service adds. */
export const CONTRACT_INCLUDES = [
  ...SEED_CONTRACT_INCLUDES,
  'languages',
  'commitments',
  'relations',
  'targets',
] as const;
export type ContractInclude = (typeof CONTRACT_INCLUDES)[number];

export const EXTRACTIONS = [
  'extract-accounting-period',
  'extract-assets',
  'extract-commitments',
  'extract-compensations',
  'extract-control-areas',
  'extract-costs',
  'extract-creative-approvals',
  'extract-dates',
  'extract-royalties',
  'extract-signatures',
  'extract-splits',
  'extract-targets',
  'extract-balances',
  // The deployed service's addition (docs/service.md); a service of the seed's time refuses it itself.
  'extract-language',
] as const;
export type ExtractionName = (typeof EXTRACTIONS)[number];

/** `extract-royalties` → `royalties`: what the user types with --extract. */
export const EXTRACTION_NAMES = EXTRACTIONS.map((name) => name.replace(/^extract-/, ''));

/**
 * The word of `words` that `given` names, singular or plural (`royalty` or `royalties`,
 * `accounting-period` or `accounting-periods`, `asset` or `assets`), case aside; undefined if none.
 * --include and --extract take the same names either way, so nobody has to remember which is which.
 */
export function matchWord<W extends string>(given: string, words: readonly W[]): W | undefined {
  const lower = given.trim().toLowerCase();
  const forms = new Set([
    lower,
    `${lower}s`,
    lower.replace(/s$/, ''),
    lower.replace(/y$/, 'ies'),
    lower.replace(/ies$/, 'y'),
  ]);
  return words.find((word) => forms.has(word));
}

/** A UUID as the service writes one (project ids); any case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

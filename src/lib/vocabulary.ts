// The service's words that the client checks locally (a typo costs no request) and that help and
// completion list: plain data, apart from the schemas so that naming them loads no zod.

export const CONTRACT_INCLUDES = [
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
] as const;
export type ExtractionName = (typeof EXTRACTIONS)[number];

/** `extract-royalties` → `royalties`: what the user types with --extract. */
export const EXTRACTION_NAMES = EXTRACTIONS.map((name) => name.replace(/^extract-/, ''));

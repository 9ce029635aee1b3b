// The service's vocabulary as the emulator knows it, in both forms (docs/service.md), and
// deliberately not imported from the client (src/lib): the emulator plays the
// service, and the tests that compare the client's lists with these compare two sources.

/** Contract includes: the spec form, plus those the deployed service adds (languages … targets). */
export const SEED_INCLUDES = [
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
export const CURRENT_INCLUDES = [...SEED_INCLUDES, 'languages', 'commitments', 'relations', 'targets'] as const;
export type Include = (typeof CURRENT_INCLUDES)[number];

/** Extraction names of docs/service.md, "Uploads". */
export const EXTRACTION_NAMES = [
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
/** The signed-URL mint of the deployed service takes one more (docs/service.md, "Uploads"). */
export const CURRENT_EXTRACTION_NAMES = [...EXTRACTION_NAMES, 'extract-language'] as const;
export type Extraction = (typeof CURRENT_EXTRACTION_NAMES)[number];

const TEXT = 'text/plain';
const OCTET = 'application/octet-stream';
/** Statement file extensions the stager takes, with the `fileType` of each (docs/service.md). */
export const STATEMENT_TYPES: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  tab: 'text/tab-separated-values',
  txt: TEXT,
  cat: TEXT,
  roy: TEXT,
  crd: TEXT,
  prt: TEXT,
  p01: TEXT,
  gdf: TEXT,
  '021': TEXT,
  '030': TEXT,
  '303': TEXT,
  asc: TEXT,
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xltx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
  xlsm: 'application/vnd.ms-excel.sheet.macroenabled.12',
  xls: 'application/vnd.ms-excel',
  xlsb: 'application/vnd.ms-excel.sheet.binary.macroenabled.12',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  xml: 'application/xml',
  gz: 'application/gzip',
  pdf: 'application/pdf',
  dat: OCTET,
  cp9385146: OCTET,
};

/** The extensions in the service's order (as object keys, `303` would come first). */
export const STATEMENT_EXTENSIONS =
  'csv tsv tab txt cat roy crd prt p01 gdf 021 030 303 xlsx xltx xlsm xls xlsb ods xml gz pdf asc dat cp9385146'.split(
    ' ',
  );

export const TARGET_FAMILY_NAMES = [
  'recording_dsp_usage',
  'recording_distribution',
  'recording_contract_accounting',
  'recording_neighbouring_rights',
  'recording_direct_license',
  'recording_jv_profit_share',
  'publishing_collective_distribution',
  'publishing_digital_mechanical',
  'publishing_administration',
  'publishing_direct_license',
  'mixed_rights_settlement',
] as const;

export const SCENARIO_FAMILY_NAMES = [
  'distribution.general',
  'distribution.label-services',
  'distribution.diy',
  'distribution.physical',
  'jv.waterfall',
  'license.recording-accounting',
  'license.publishing-accounting',
  'license.sync-sheet',
  'license.sync-invoice',
  'license.royalty-invoice',
  'license.recoupment-invoice',
  'dsp.general',
  'dsp.spotify',
  'dsp.soundcloud',
  'dsp.meta',
  'dsp.apple',
  'dsp.youtube',
  'dsp.tidal',
  'dsp.tiktok',
  'dsp.amazon',
  'dsp.deezer',
  'dsp.alibaba-taobao',
  'dsp.awa',
  'dsp.boomplay',
  'dsp.iheart',
  'dsp.kkbox',
  'dsp.netease',
  'dsp.pandora',
  'dsp.peloton',
  'dsp.resso',
  'dsp.saavn',
  'dsp.slacker',
  'dsp.tencent',
  'dsp.trebel',
  'dsp.twitch',
  'cmo.performance',
  'cmo.mechanical',
  'cmo.sync',
  'cmo.neighbouring',
  'cmo.publishing-aggregator',
  'cmo.publishing-direct',
] as const;

export const KNOWLEDGE_KIND_NAMES = [
  'organization',
  'team',
  'person',
  'process',
  'decision',
  'policy',
  'principle',
  'topic',
  'question',
] as const;
export type KnowledgeKind = (typeof KNOWLEDGE_KIND_NAMES)[number];

/** The stager's extension of a file name: lower-cased; '' when it has none; undefined when refused. */
export function statementExtension(fileName: string): string | undefined {
  if (fileName.startsWith('.')) return undefined;
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return '';
  const ext = fileName.slice(dot + 1).toLowerCase();
  return ext in STATEMENT_TYPES ? ext : undefined;
}

/** A period in the service's form: 2026Y, 2026H1, 2026Q3, 2026M11. */
export const PERIOD_RE = /^\d{4}(Y|H[12]|Q[1-4]|M(0?[1-9]|1[0-2]))$/;
export const CURRENCY_RE = /^[A-Z]{3}$/;

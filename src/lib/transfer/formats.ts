// What the deployed service takes with an upload (docs/service.md), as pds knows it: the statement
// file formats with their MIME types and the local check of each, and the upload context's
// vocabulary (periods, currencies, scenario and target families). Checked here, before anything is
// sent, so a typo costs no request.

/** How a file of a format is recognised from its first bytes. */
type Magic = 'pdf' | 'zip' | 'ole' | 'gzip' | 'text' | 'any';

interface Format {
  type: string;
  magic: Magic;
}

const TEXT: Format = { type: 'text/plain', magic: 'text' };
const TSV: Format = { type: 'text/tab-separated-values', magic: 'text' };
const OPAQUE: Format = { type: 'application/octet-stream', magic: 'any' };

/** The statement formats the service's stager takes, by lower-case extension. */
export const STATEMENT_FORMATS: Readonly<Record<string, Format>> = {
  csv: { type: 'text/csv', magic: 'text' },
  tsv: TSV,
  tab: TSV,
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
  xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', magic: 'zip' },
  xltx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.template', magic: 'zip' },
  xlsm: { type: 'application/vnd.ms-excel.sheet.macroenabled.12', magic: 'zip' },
  xls: { type: 'application/vnd.ms-excel', magic: 'ole' },
  xlsb: { type: 'application/vnd.ms-excel.sheet.binary.macroenabled.12', magic: 'zip' },
  ods: { type: 'application/vnd.oasis.opendocument.spreadsheet', magic: 'zip' },
  xml: { type: 'application/xml', magic: 'text' },
  gz: { type: 'application/gzip', magic: 'gzip' },
  pdf: { type: 'application/pdf', magic: 'pdf' },
  asc: TEXT,
  dat: OPAQUE,
  cp9385146: OPAQUE,
};

/** The extensions in the service's own order (object keys put `303` first: it looks like an index). */
export const STATEMENT_EXTENSIONS =
  'csv tsv tab txt cat roy crd prt p01 gdf 021 030 303 xlsx xltx xlsm xls xlsb ods xml gz pdf asc dat cp9385146'.split(
    ' ',
  );

export const PDF_FORMAT: Format = { type: 'application/pdf', magic: 'pdf' };

/** How many first bytes the checks read. */
export const HEAD_BYTES = 8192;

export type DocumentKind = 'contract' | 'statement';

/** The format of a file name for a kind; a string (the problem) when the name is refused. */
export function formatOf(kind: DocumentKind, fileName: string): Format | string {
  if (kind === 'contract') return PDF_FORMAT;
  if (fileName.startsWith('.')) return `a statement file name must not start with '.'`;
  const dot = fileName.lastIndexOf('.');
  // The stager takes a name without an extension, as an opaque file.
  if (dot < 0) return OPAQUE;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return (
    STATEMENT_FORMATS[ext] ??
    `'.${ext}' is not a statement format the service takes; accepted: ${STATEMENT_EXTENSIONS.join(' ')}`
  );
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const GZIP = [0x1f, 0x8b];
const startsWith = (head: Uint8Array, magic: number[]): boolean => magic.every((byte, i) => head[i] === byte);

/** Why the first bytes are not what the format says; undefined when they are. */
export function magicProblem(format: Format, head: Uint8Array): string | undefined {
  switch (format.magic) {
    case 'pdf':
      return Buffer.from(head.subarray(0, 5)).toString('latin1') === '%PDF-'
        ? undefined
        : 'not a PDF: the file does not start with %PDF-';
    case 'zip':
      return startsWith(head, ZIP)
        ? undefined
        : 'not a spreadsheet: the file is not a zip package (as xlsx, xlsm, xltx, xlsb and ods are)';
    case 'ole':
      return startsWith(head, OLE) ? undefined : 'not an Excel 97-2003 workbook (.xls): the file lacks its signature';
    case 'gzip':
      return startsWith(head, GZIP) ? undefined : 'not gzip-compressed: the file lacks the gzip signature';
    case 'text':
      return head.includes(0) ? 'not a text file: it holds binary data (NUL bytes)' : undefined;
    case 'any':
      return undefined;
  }
}

// ---- the upload context ----

export const TARGET_FAMILIES = [
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

export const SCENARIO_FAMILIES = [
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

/**
 * A period in the service's form (`2026Y`, `2026H1`, `2026Q3`, `2026M11`), from what a user may
 * type: lower case, a dash or space after the year, a zero-padded month. Undefined when it is none.
 */
export function normalizePeriod(raw: string): string | undefined {
  const match = /^(\d{4})[-\s]?(y|h[12]|q[1-4]|m\d{1,2})$/i.exec(raw.trim());
  if (!match) return undefined;
  const [, year = '', part = ''] = match;
  const upper = part.toUpperCase();
  if (upper.startsWith('M')) {
    const month = Number(upper.slice(1));
    return month >= 1 && month <= 12 ? `${year}M${month}` : undefined;
  }
  return `${year}${upper}`;
}

/** ISO 4217's shape: three letters, sent upper-case. Undefined when it is not. */
export function normalizeCurrency(raw: string): string | undefined {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : undefined;
}

/** What a user gives for an upload's context, as flags give it (all optional). */
export interface ContextInput {
  accountingPeriod?: string;
  targetPeriod?: string;
  currencyRoyalty?: string;
  currencyTransaction?: string;
  payee?: string;
  payor?: string;
  scenario?: string;
  targetFamily?: string;
  tags?: string[];
}

/**
 * The `context` of an upload (docs/service.md) from what the user gave, checked; undefined when
 * nothing was given. Returns the problems instead when there are any, one per flag, for one
 * usage error naming them all. Contracts take tags only.
 */
export function buildContext(
  kind: DocumentKind,
  input: ContextInput,
): { context?: Record<string, unknown>; problems: string[] } {
  const problems: string[] = [];
  const context: Record<string, unknown> = {};
  const statementOnly = (
    [
      'accountingPeriod',
      'targetPeriod',
      'currencyRoyalty',
      'currencyTransaction',
      'payee',
      'payor',
      'scenario',
      'targetFamily',
    ] as const
  ).filter((key) => input[key] !== undefined);
  if (kind === 'contract' && statementOnly.length > 0) {
    problems.push(
      `contracts take --tag and --folder only; ${statementOnly.map(flagOf).join(', ')} ${statementOnly.length > 1 ? 'are' : 'is'} for statements`,
    );
    return { problems };
  }
  for (const key of ['accountingPeriod', 'targetPeriod'] as const) {
    const raw = input[key];
    if (raw === undefined) continue;
    const value = normalizePeriod(raw);
    if (value) context[key] = { value };
    else problems.push(`invalid ${flagOf(key)} '${raw}': expected a period such as 2026Y, 2026H1, 2026Q3 or 2026M11`);
  }
  for (const key of ['currencyRoyalty', 'currencyTransaction'] as const) {
    const raw = input[key];
    if (raw === undefined) continue;
    const value = normalizeCurrency(raw);
    if (value) context[key] = value;
    else problems.push(`invalid ${flagOf(key)} '${raw}': expected a three-letter ISO 4217 code such as EUR`);
  }
  for (const key of ['payee', 'payor'] as const) {
    const raw = input[key]?.trim();
    if (raw === undefined) continue;
    if (raw === '' || raw.length > 255) problems.push(`invalid --${key}: expected 1 to 255 characters`);
    else context[key] = raw;
  }
  const classification = checkFamilies(input, problems);
  if (classification) context.classification = classification;
  if (input.tags && input.tags.length > 0) {
    const tags = [...new Set(input.tags.map((tag) => tag.trim()))];
    const bad = tags.filter((tag) => tag === '' || tag.length > 64);
    if (bad.length > 0) problems.push('invalid --tag: each tag is 1 to 64 characters');
    else context.tags = tags;
  }
  if (problems.length > 0) return { problems };
  return Object.keys(context).length === 0 ? { problems } : { context, problems };
}

const flagOf = (key: string): string =>
  key === 'scenario' ? '--scenario' : `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** `--scenario` and `--target-family` go together (the service's classification has both). */
function checkFamilies(
  input: ContextInput,
  problems: string[],
): { scenarioFamily: string; targetFamily: string } | undefined {
  const { scenario, targetFamily } = input;
  if (scenario === undefined && targetFamily === undefined) return undefined;
  const before = problems.length;
  if (scenario === undefined || targetFamily === undefined)
    problems.push('--scenario and --target-family go together: give both');
  if (scenario !== undefined && !(SCENARIO_FAMILIES as readonly string[]).includes(scenario)) {
    problems.push(`unknown --scenario '${scenario}'; valid: ${SCENARIO_FAMILIES.join(', ')}`);
  }
  if (targetFamily !== undefined && !(TARGET_FAMILIES as readonly string[]).includes(targetFamily)) {
    problems.push(`unknown --target-family '${targetFamily}'; valid: ${TARGET_FAMILIES.join(', ')}`);
  }
  return problems.length === before
    ? { scenarioFamily: scenario as string, targetFamily: targetFamily as string }
    : undefined;
}

/** The kinds of the knowledge graph's nodes (docs/service.md). */
export const KNOWLEDGE_KINDS = [
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

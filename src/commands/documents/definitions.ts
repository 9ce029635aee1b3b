// The verbs contracts and statements share (status, download, retry, tag): one module each serves
// both kinds. The definitions: plain data, no code (index.ts joins each to its module).
import { verb, type OptionsOf } from '../../lib/verbs/verb.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { SELECT_FLAGS, STATEMENT_IDS, TOP_FLAG } from '../statements/definitions.js';

/** --interval and --wait-timeout: how `upload --wait` and `status --watch` poll. */
export const WATCH_FLAGS = {
  interval: {
    type: 'number',
    value: 'seconds',
    min: 0.1,
    max: 3600,
    seconds: true,
    default: 2,
    help: 'first polling interval; it backs off',
  },
  waitTimeout: {
    type: 'number',
    value: 'seconds',
    min: 1,
    max: 7 * 24 * 3600,
    seconds: true,
    default: 600,
    help: 'give up waiting after this long, exit 1',
  },
} as const;

const STATUS_FLAGS = {
  watch: {
    type: 'boolean',
    short: 'w',
    help: 'poll until processing completed, failed or paused (exit 7 if it failed or paused; Ctrl-C stops)',
  },
  ...WATCH_FLAGS,
} as const;

const DOWNLOAD_FLAGS = {
  all: { type: 'boolean', help: 'every document of the project' },
  output: {
    type: 'string',
    short: 'o',
    value: 'path',
    help: 'a file (one id), a directory (ending with / or existing), or - for stdout (default: the current directory)',
  },
  force: { type: 'boolean', help: 'replace existing files' },
  // At most the connections the transport keeps per host: a download queued inside it would have
  // its idle clock running while it waits.
  concurrency: { type: 'number', value: 'n', integer: true, min: 1, max: 8, default: 4, help: 'downloads at once' },
  maxSize: { type: 'string', value: 'size', help: 'refuse a file larger than this, e.g. 500M or 2G (default 1G)' },
} as const;

/** `pds statements lines`: where the CSV goes, as `download` says it. */
const LINES_FLAGS = {
  output: {
    type: 'string',
    short: 'o',
    value: 'file',
    help: 'save the CSV to this file (default: print it); never replaces a file without --force',
  },
  force: { type: 'boolean', help: 'replace an existing file' },
  maxSize: { type: 'string', value: 'size', help: 'refuse lines larger than this, e.g. 500M or 2G (default 1G)' },
  all: { type: 'boolean', help: "every processed statement's lines (with a leading statement_id column)" },
  by: {
    type: 'list',
    value: 'columns',
    help: "group the lines by these columns of the export (any case), or statement, period, payor; sums every numeric column; isrc joins the catalog's recordings",
  },
  sort: { type: 'string', value: 'column', help: 'rank groups by this summed column (default licensor_revenue)' },
  ...TOP_FLAG,
  csvSafe: {
    type: 'boolean',
    help: 'neutralise cells a spreadsheet would run as a formula (=, +, -, @ first; not numbers), as --format csv does',
  },
  ...SELECT_FLAGS,
} as const;

/** `pds statements lines`: processed statements' lines, as the service exports them (CSV), or rolled up. */
export const statementLines = verb({
  name: 'lines',
  description:
    "processed statements' lines as CSV (GET /v1/statements/{id}?detailed=true, then its signed csv_url); prints them, saves one with -o, or adds them up with --by",
  args: [STATEMENT_IDS],
  flags: LINES_FLAGS,
  dryRun: 'honoured',
  // Over the lines as records keyed by the header (or the groups of --by).
  scripting: ['jq'],
  examples: [
    ['pds statements lines 40001 -o q1-lines.csv', '', "a service that exports lines (the emulator's deployed flavor)"],
    [
      'pds statements lines --all --by territory',
      'every line of every processed statement, added up by territory',
      "a service that exports lines (the emulator's deployed flavor)",
    ],
    [
      'pds statements lines --all --by isrc --top 3',
      'the three best-earning recordings of each currency',
      "a service that exports lines (the emulator's deployed flavor)",
    ],
  ],
});
export type LinesOptions = OptionsOf<typeof statementLines>;

/** `pds contracts|statements tag`: the complete list by default, or a change to it. */
const TAG_FLAGS = {
  add: {
    type: 'boolean',
    help: "add these tags to the current ones (read first: refused where the service's record shows none)",
  },
  remove: {
    type: 'boolean',
    help: "remove these tags from the current ones (read first: refused where the service's record shows none)",
  },
  clear: { type: 'boolean', help: 'remove every tag (no tags given)' },
} as const;

/** A statement's fields that an upload's context sets and `pds statements update` changes. */
export const STATEMENT_FIELD_FLAGS = {
  accountingPeriod: {
    type: 'string',
    value: 'p',
    help: 'the accounting period, e.g. 2026Q1 (2026Y, 2026H1, 2026M11; 2026-Q1 is accepted)',
  },
  targetPeriod: { type: 'string', value: 'p', help: 'the period it reports on, as --accounting-period' },
  currencyRoyalty: { type: 'string', value: 'C', help: 'the royalty currency, an ISO 4217 code such as EUR' },
  currencyTransaction: { type: 'string', value: 'C', help: 'the transaction currency, an ISO 4217 code' },
  payee: { type: 'string', value: 's', help: 'who is paid' },
  payor: { type: 'string', value: 's', help: 'who pays' },
} as const;

const clearFlag = (what: string) => ({ type: 'boolean', help: `clear the ${what}` }) as const;

/** `pds statements update`: each field, and a --clear-<field> that sends null. */
export const UPDATE_FLAGS = {
  ...STATEMENT_FIELD_FLAGS,
  clearPayee: clearFlag('payee'),
  clearPayor: clearFlag('payor'),
  clearAccountingPeriod: clearFlag('accounting period'),
  clearTargetPeriod: clearFlag('target period'),
  clearCurrencyRoyalty: clearFlag('royalty currency'),
  clearCurrencyTransaction: clearFlag('transaction currency'),
} as const;

export type Kind = { kind: DocumentKind };

/** `pds statements update`: a statement's payee, payor, periods and currencies. */
export const updateStatement = verb({
  name: 'update',
  description: "change a statement's payee, payor, periods or currencies (PUT /v1/statements/{id}); prints the result",
  args: [{ name: 'id', help: 'the statement id', required: true }],
  flags: UPDATE_FLAGS,
  dryRun: 'honoured',
  scripting: ['jq'],
  examples: [
    ['pds statements update 40001 --payee "Nova Records" --accounting-period 2026Q1'],
    ['pds statements update 40001 --clear-payor'],
  ],
});
export type UpdateOptions = OptionsOf<typeof updateStatement>;

/** `pds contracts|statements status`: the processing of uploads, each id in turn. */
export const statusVerb = (kind: DocumentKind) =>
  verb({
    name: 'status',
    description: `processing status of ${kind} uploads, each id in turn: stages, ${kind === 'contract' ? 'extractions' : 'processing'}, why one failed or paused; exit 7 if any failed`,
    args: [
      kind === 'contract'
        ? {
            name: 'staging-ids',
            help: 'the staging_id an upload printed; several are shown in turn',
            required: true,
            variadic: true,
          }
        : {
            name: 'ids',
            help: 'a staging_id from an upload, or a statement id; several are shown in turn',
            required: true,
            variadic: true,
          },
    ],
    flags: STATUS_FLAGS,
    fixed: { kind },
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [
            [
              "pds upload contract deal.pdf --jq '.[0].upload.staging_id' | xargs pds contracts status",
              'the staging id an upload printed',
            ],
            [
              "pds upload contract deal.pdf --jq '.[0].upload.staging_id' | xargs pds contracts status --watch",
              'until processing ends',
            ],
          ]
        : [
            ['pds statements status 40001', 'a statement id, or the staging id of an upload'],
            [
              'pds statements status 40001 40002',
              'each in turn; the exit code is the worst of them (7: one failed), a gate for CI',
            ],
            ["pds upload statement q1.pdf --jq '.[0].upload.staging_id' | xargs pds statements status --watch"],
          ],
  });

export type StatusOptions = OptionsOf<ReturnType<typeof statusVerb>>;

/** `pds contracts|statements download`: the original files. */
export const downloadVerb = (kind: DocumentKind) =>
  verb({
    name: 'download',
    description: `download the original files of ${kind}s; never overwrites a file without --force`,
    args: [{ name: 'ids', help: `${kind} ids`, variadic: true }],
    flags: DOWNLOAD_FLAGS,
    fixed: { kind },
    dryRun: 'honoured',
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [['pds contracts download 20001'], ['pds contracts download --all -o contracts/']]
        : [['pds statements download 40001 -o -', 'to stdout'], ['pds statements download --all -o statements/']],
  });

export type DownloadOptions = OptionsOf<ReturnType<typeof downloadVerb>>;

/** `pds contracts|statements retry`: a paused upload queued again. */
export const retryVerb = (kind: DocumentKind) =>
  verb({
    name: 'retry',
    description: `queue a paused ${kind} upload again (never retried automatically); prints its new status`,
    args: [{ name: 'staging-id', help: 'the staging id the paused upload printed', required: true }],
    fixed: { kind },
    dryRun: 'honoured',
    scripting: ['jq'],
    examples: [
      [
        `pds ${kind}s retry 1001`,
        'the staging id a paused upload printed',
        'a paused upload (an emulator started with --pause-uploads)',
      ],
    ],
  });

export type RetryOptions = OptionsOf<ReturnType<typeof retryVerb>>;

/** `pds contracts|statements tag`: the tags of one record. */
export const tagVerb = (kind: DocumentKind) =>
  verb({
    name: 'tag',
    description:
      kind === 'contract'
        ? "replace the tags of a contract with the complete list given (the service keeps only that list), or --clear them; --add and --remove only where the service's contract records show their tags (the deployed service's do not)"
        : 'replace the tags of a statement with the complete list given, or --add, --remove (read, changed and written back) or --clear them',
    args: [
      { name: 'id', help: `the ${kind} id`, required: true },
      { name: 'tags', help: 'tags', variadic: true },
    ],
    flags: TAG_FLAGS,
    fixed: { kind },
    dryRun: 'honoured',
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [
            ['pds contracts tag 20001 urgent review signed', 'these three become its tags, and only these'],
            ['pds contracts tag 20001 --clear'],
          ]
        : [['pds statements tag 40001 q1 spotify'], ['pds statements tag 40001 --clear']],
  });

export type TagOptions = OptionsOf<ReturnType<typeof tagVerb>>;

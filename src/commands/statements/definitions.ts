// The statements' own verbs: `pds statements lines`, `update`, `totals` and `check`, with the flags
// they share. The definitions: plain data, no code (index.ts joins each to its module, and adds the
// verbs statements share with other nouns).
import { verb, type OptionsOf } from '../../lib/verbs/verb.js';

/** A flag that takes one value, named `value` in help. */
const valueFlag = (value: string, help: string) => ({ type: 'string', value, help }) as const;

/** Which statements a roll-up covers, beyond ids or --all. */
export const SELECT_FLAGS = {
  period: valueFlag(
    'from..to',
    'only statements whose period lies within, e.g. 2025Q1..2025Q4, 2025H2, 2024 (the calendar year), 2023..2025 or 2025M1..2025M6',
  ),
  payor: valueFlag('name', 'only statements of this payor (case-insensitive)'),
  currency: valueFlag('C', 'only statements in this currency, e.g. EUR'),
  tag: valueFlag('tag', 'only statements with this tag'),
} as const;

/** The statements a roll-up reads: these ids, or every processed one with --all. */
export const STATEMENT_IDS = { name: 'ids', help: 'statement ids (or --all)', variadic: true } as const;

export const TOP_FLAG = {
  top: {
    type: 'number',
    value: 'n',
    integer: true,
    min: 1,
    help: 'only the n largest groups of each currency (by licensor revenue, or --sort)',
    toolHelp: 'only the n largest groups of each currency (by licensor revenue, or `sort`)',
  },
} as const;

/** From totals to a report: compare, pivot, convert (statements totals and lines --by). */
export const REPORT_FLAGS = {
  compare: {
    type: 'string',
    value: 'previous|period',
    help: 'each group against the period before (previous) or this one: amount, compared amount, change, change in %; with --period or --by period|year|half|quarter',
    toolHelp:
      '"previous" (the period before, of the same cadence) or a period such as 2024H2: each group against it, with the change and the change in %; needs `period`, or period/year/half/quarter/month in `by`',
  },
  columns: {
    type: 'string',
    value: 'field',
    help: 'a pivot: one column per value of this field (period, year, half, quarter, currency, any --by field), a total column and row',
    toolHelp:
      'pivot: one column per value of this field (e.g. "year" or "period"), in order, with a total column and a total row',
  },
  rates: {
    type: 'string',
    value: 'file',
    help: 'CSV of currency,rate[,period] (1 unit of currency = rate units of --to) to convert every amount with',
  },
  to: {
    type: 'string',
    value: 'C',
    help: 'the reporting currency, with --rates: amounts converted exactly, rounded once to its minor unit (half away from zero)',
    toolHelp: 'the reporting currency `rates` convert to, e.g. EUR',
  },
} as const;

export const TOTALS_FLAGS = {
  by: {
    type: 'list',
    value: 'fields',
    completion: ['period', 'year', 'half', 'quarter', 'month', 'payor', 'currency', 'type', 'category', 'stage'],
    help: 'group by any of period, year, half, quarter, month, payor, currency, type, category, stage (always by currency too)',
  },
  ...SELECT_FLAGS,
  ...TOP_FLAG,
  ...REPORT_FLAGS,
  sort: {
    type: 'string',
    value: 'amount',
    completion: ['licensor_revenue', 'licensee_revenue'],
    help: 'rank groups (and --top) by licensor_revenue (the default) or licensee_revenue',
    toolHelp: 'rank groups (and `top`) by this amount (default licensor_revenue)',
  },
  output: { type: 'string', short: 'o', value: 'file', help: 'with --format xlsx|parquet: the file to write' },
  force: { type: 'boolean', help: 'replace an existing -o file' },
} as const;

/** `pds statements totals`: the financials of the processed statements, added and grouped. */
export const statementTotals = verb({
  name: 'totals',
  description:
    'what the project earned: the financials of every processed statement, added exactly and grouped (never across currencies)',
  flags: TOTALS_FLAGS,
  scripting: ['jq', 'files'],
  examples: [
    ['pds statements totals', 'one row per currency'],
    ['pds statements totals --by period', 'quarter by quarter, in time order'],
    ['pds statements totals --by payor --period 2025Q1..2025Q4 --format csv', 'a year by payor, for a spreadsheet'],
  ],
});
export type TotalsOptions = OptionsOf<typeof statementTotals>;

export const CHECK_FLAGS = {
  all: { type: 'boolean', help: 'every processed statement of the project' },
  ...SELECT_FLAGS,
  gaps: {
    type: 'boolean',
    help: "list each payor's missing periods (without it: one line counts them); never a period with a statement still processing",
    toolHelp: "also list each payor's missing periods (never a period with a statement still processing)",
  },
} as const;

/** `pds statements check`: lines against financials, duplicates, gaps. */
export const statementCheck = verb({
  name: 'check',
  description:
    'check statements: their lines add up to their financials (per currency), none is a likely duplicate; exit 1 listing what disagrees, 8 naming what it could not check (or when nothing matched)',
  args: [STATEMENT_IDS],
  flags: CHECK_FLAGS,
  scripting: ['jq'],
  examples: [
    ['pds statements check 40001 40002', 'exit 0 with a one-line summary when they agree'],
    [
      'pds statements check --all --period 2025Q1',
      'after uploading a quarter: exit 1 listing what disagrees',
      "a quarter that holds no disagreement (the emulator's demo data holds one, on purpose)",
    ],
  ],
});
export type CheckOptions = OptionsOf<typeof statementCheck>;

/** `pds statements lines`: where the CSV goes, as `download` says it. */
export const LINES_FLAGS = {
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
  ...REPORT_FLAGS,
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
  scripting: ['jq', 'files'],
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

/** A statement's fields that an upload's context sets and `pds statements update` changes. */
export const STATEMENT_FIELD_FLAGS = {
  accountingPeriod: valueFlag('p', 'the accounting period, e.g. 2026Q1 (2026Y, 2026H1, 2026M11; 2026-Q1 is accepted)'),
  targetPeriod: valueFlag('p', 'the period it reports on, as --accounting-period'),
  currencyRoyalty: valueFlag('C', 'the royalty currency, an ISO 4217 code such as EUR'),
  currencyTransaction: valueFlag('C', 'the transaction currency, an ISO 4217 code'),
  payee: valueFlag('s', 'who is paid'),
  payor: valueFlag('s', 'who pays'),
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

// What a project earned: `pds statements totals`, `pds statements check`, and the flags the lines
// roll-up (`pds statements lines --all --by …`) shares with them. The definitions: plain data, no
// code (index.ts joins each to its module).
import { verb, type OptionsOf } from '../../lib/verbs/verb.js';

/** Which statements a roll-up covers, beyond ids or --all. */
export const SELECT_FLAGS = {
  period: {
    type: 'string',
    value: 'from..to',
    help: 'only statements whose period lies within, e.g. 2025Q1..2025Q4, 2025H2, 2024Y..2025Y or 2025M1..2025M6',
  },
  payor: { type: 'string', value: 'name', help: 'only statements of this payor (case-insensitive)' },
  currency: { type: 'string', value: 'C', help: 'only statements in this currency, e.g. EUR' },
  tag: { type: 'string', value: 'tag', help: 'only statements with this tag' },
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
  },
} as const;

const TOTALS_FLAGS = {
  by: {
    type: 'list',
    value: 'fields',
    completion: ['period', 'payor', 'currency', 'type', 'category', 'stage'],
    help: 'group by any of period, payor, currency, type, category, stage (always by currency too)',
  },
  ...SELECT_FLAGS,
  ...TOP_FLAG,
} as const;

/** `pds statements totals`: the financials of the processed statements, added and grouped. */
export const statementTotals = verb({
  name: 'totals',
  description:
    'what the project earned: the financials of every processed statement, added exactly and grouped (never across currencies)',
  flags: TOTALS_FLAGS,
  scripting: ['jq'],
  examples: [
    ['pds statements totals', 'one row per currency'],
    ['pds statements totals --by period', 'quarter by quarter, in time order'],
    ['pds statements totals --by payor --period 2025Q1..2025Q4 --format csv', 'a year by payor, for a spreadsheet'],
  ],
});
export type TotalsOptions = OptionsOf<typeof statementTotals>;

const CHECK_FLAGS = {
  all: { type: 'boolean', help: 'every processed statement of the project' },
  ...SELECT_FLAGS,
} as const;

/** `pds statements check`: lines against financials, duplicates, gaps. */
export const statementCheck = verb({
  name: 'check',
  description:
    "check processed statements: their lines add up to their financials, none is a likely duplicate, no payor's period is missing; exit 1 listing what disagrees",
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

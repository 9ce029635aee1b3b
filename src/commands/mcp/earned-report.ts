// The report parameters of the roll-up tools (statements_totals, statements_lines_rollup): calendar
// buckets in `by`, `compare`, the `columns` pivot and a reporting currency (`rates` given inline with
// `to`, never a file). The CLI's report (statements/report.ts) does the work; a statement a bucket
// cannot hold is named in the answer's `incomplete`, as the CLI names it with exit 8.
import * as z from 'zod/mini';
import { UsageError } from '../../lib/errors.js';
import type { GroupRecord } from '../statements/groups.js';
import { Incomplete } from '../statements/incomplete.js';
import {
  buildReport,
  type Grouped,
  needsReport,
  notWholeOf,
  overlapNote,
  planReport,
  sidesOf,
} from '../statements/report.js';
import { checkTo, type RateTable, rateOf } from '../statements/rates.js';
import { type Processed, type SelectInput, selectStatements } from '../statements/select.js';
import { REPORT_FLAGS } from '../statements/definitions.js';
import { describe, flagInput, numberOrText } from './inputs.js';
import type { Call } from './tool.js';

const rateInput = z.object({
  currency: describe(z.string(), 'the currency converted, e.g. USD'),
  rate: describe(numberOrText, '1 unit of currency is this many units of `to`, e.g. "0.92" (a string keeps it exact)'),
  period: describe(z.optional(z.string()), 'only for statements whose period lies within, e.g. 2024 or 2024Q1..2024Q2'),
});

/** The report flags an agent's tool takes: the CLI's (their checks and toolHelp), `rates` given inline, not as a file. */
export const REPORT_INPUTS = {
  compare: flagInput('compare', REPORT_FLAGS.compare),
  columns: flagInput('columns', REPORT_FLAGS.columns),
  rates: describe(
    z.optional(z.array(rateInput)),
    'convert every amount into `to` with these rates (exact, rounded once to its minor unit, half away from zero); a currency without a rate is an error naming it',
  ),
  to: flagInput('to', REPORT_FLAGS.to),
};

export interface ReportArgs {
  compare?: string | undefined;
  columns?: string | undefined;
  rates?: { currency: string; rate: string; period?: string | undefined }[] | undefined;
  to?: string | undefined;
  top?: number | undefined;
}

/** Whether a call asks for more than plain groups: a calendar bucket, compare, columns or rates. */
export const wantsReport = (args: ReportArgs, by: readonly string[]): boolean =>
  needsReport({ ...args, rates: args.rates === undefined ? undefined : 'rates' }, by);

/** The inline rates as the CLI's rate table; each checked as a line of --rates would be. */
function rateTable(args: ReportArgs): RateTable | undefined {
  if ((args.rates === undefined) !== (args.to === undefined))
    throw new UsageError(
      args.to === undefined ? 'rates needs to, the currency they convert to' : 'to needs rates: [{currency, rate}]',
    );
  if (args.rates === undefined || args.to === undefined) return undefined;
  const seen = new Set<string>();
  const rates = args.rates.map((given, i) => {
    const rate = rateOf(given.currency, given.rate, given.period, `rates[${i}]`);
    const key = `${rate.currency} ${rate.period?.label ?? ''}`.trim();
    if (seen.has(key)) throw new UsageError(`rates[${i}]: a second rate for ${key}`);
    seen.add(key);
    return rate;
  });
  if (rates.length === 0) throw new UsageError('rates: give one rate at least');
  return { to: checkTo(args.to), rates, source: 'rates' };
}

export interface ReportAnswer {
  groups: GroupRecord[];
  pending: number;
  /** What was left out (a statement coarser than the bucket, an unreadable amount), each named. */
  incomplete: string[];
  /** The rates used, what `period` left out. */
  notes: string[];
}

/**
 * The report of a call: the statements chosen (without `period` when a comparison reads periods
 * outside it), grouped by `grouping` (the verb's own), converted, compared or pivoted. What it left
 * out (a statement coarser than the bucket, an amount it could not read) is named in `incomplete`,
 * as for plain groups.
 */
export async function reportAnswer(
  call: Call,
  args: ReportArgs,
  by: string[],
  input: SelectInput,
  amount: string,
  grouping: (unread: Incomplete) => (statements: Processed[], groupBy: string[]) => Promise<Grouped>,
): Promise<ReportAnswer> {
  const table = rateTable(args);
  const flags = { compare: args.compare, columns: args.columns, to: args.to, top: args.top };
  const plan = await planReport(flags, by, input.period, table);
  const pool = await selectStatements(
    call.ctx,
    { ...input, period: plan.compare ? undefined : input.period },
    input.args,
  );
  const sides = plan.compare ? sidesOf(pool, plan) : { current: pool, compared: [] };
  const unread = new Incomplete();
  const run = await buildReport(plan, sides, amount, grouping(unread));
  const overlap = overlapNote(sides.current, input.period);
  return {
    groups: run.report.records,
    pending: sides.current.pending.length,
    incomplete: notWholeOf(run.leftOut, unread),
    notes: [...(overlap === undefined ? [] : [overlap]), ...run.notes],
  };
}

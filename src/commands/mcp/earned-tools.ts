// What a project earned, for agents (read-only): `statements_totals` (`pds statements totals`),
// `statements_lines_rollup` (`pds statements lines --by`) and `statements_check` (`pds statements
// check`). Each answers its groups or findings (as `items`, as lists do) a page at a time (the server's --max-results); the
// cursor a call ends with, passed alone, gives the next page (the work is done again from the
// service's current data).
import * as z from 'zod/mini';
import { UsageError } from '../../lib/errors.js';
import { checkStatements } from '../statements/check.js';
import { fails, notWhole } from '../statements/findings.js';
import type { GroupRecord } from '../statements/groups.js';
import { rollUp } from '../statements/rollup.js';
import { selectStatements, type SelectInput } from '../statements/select.js';
import { AMOUNTS, byFields, totalsOf, TOTALS_FIELDS } from '../statements/financials.js';
import { REPORT_INPUTS, reportAnswer, wantsReport } from './earned-report.js';
import { dataResult } from './results.js';
import { CHECK_FLAGS, LINES_FLAGS, SELECT_FLAGS, TOP_FLAG, TOTALS_FLAGS } from '../statements/definitions.js';
import { describe, flagInput, flagInputs, nextCursor, numberOrText } from './inputs.js';
import { defineTool, type ArgsOf, type Call, type CursorState, type ToolDefinition, type ToolSpec } from './tool.js';

// The verbs' own flags, their checks and help (statements/definitions.ts): declared once.
const FILTERS = flagInputs(SELECT_FLAGS);
const top = flagInput('top', TOP_FLAG.top);
const cursorInput = describe(z.optional(z.string()), 'the cursor a previous call ended with, passed alone');
/** What an answer had to leave out, each named: empty when it is whole. */
const incompleteOutput = z.array(z.string());
const groupsOutput = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
  not_processed: z.number(),
  incomplete: incompleteOutput,
  next_cursor: nextCursor,
});
const INCOMPLETE_NOTE =
  'incomplete: the answer is not whole; these could not be read or checked, and were left out (never counted as zero):';

/** The filters of a call, as the verbs take them. */
const selectInput = (args: ArgsOf<typeof FILTERS>, call: Call, ids: string[] = []): SelectInput => ({
  args: ids,
  period: args.period,
  payor: args.payor,
  currency: args.currency,
  tag: args.tag,
  projectId: call.project(args.projectId),
});

/** One page of `items` from the cursor's offset, with the cursor of the next page. */
function page<T>(tool: string, items: T[], args: Record<string, unknown>, call: Call, cursor: CursorState) {
  const part = items.slice(cursor.offset, cursor.offset + call.maxResults);
  const end = cursor.offset + part.length;
  const next = end < items.length ? cursor.next(args, end) : null;
  return {
    part,
    next,
    before: `${cursor.offset + 1}-${end} of ${items.length}`,
    after: [next ? `more: call ${tool} with {"cursor": "${next}"}` : 'last page'],
  };
}

/** What every roll-up tool answers beside its groups. */
interface Answer {
  groups: GroupRecord[];
  pending: number;
  incomplete: string[];
  /** Said beside the groups: the rates used, what `period` left out. */
  notes?: string[];
}

function groupsResult(tool: string, answer: Answer, args: Record<string, unknown>, call: Call, cursor: CursorState) {
  const { groups, pending, incomplete } = answer;
  const { part, next, before, after } = page(tool, groups, args, call, cursor);
  const notes = [
    ...(answer.notes ?? []),
    ...(pending > 0 ? [`${pending} statements not processed yet, not counted`] : []),
  ];
  return dataResult(part, {
    before,
    after: [...notes, ...(incomplete.length > 0 ? [INCOMPLETE_NOTE] : []), ...after],
    ...(incomplete.length > 0 ? { untrustedAfter: incomplete } : {}),
    structured: { items: part, total: groups.length, not_processed: pending, incomplete, next_cursor: next },
  });
}

/** The fields totals group by, first to last (z.enum takes a list of one at least). */
const [FIRST_FIELD = 'currency', ...OTHER_FIELDS] = Object.keys(TOTALS_FIELDS);
const TOTALS_BY: [string, ...string[]] = [FIRST_FIELD, ...OTHER_FIELDS];

type Common = 'toolset' | 'write' | 'annotations' | 'project';

export function earnedTools(read: ToolDefinition['annotations']): ToolDefinition[] {
  /** What the three share: read-only, in one project, offered with the documents. */
  const earnedTool = <I extends Record<string, z.ZodMiniType>>(spec: Omit<ToolSpec<I>, Common>) =>
    defineTool({ ...spec, toolset: 'documents', write: false, annotations: read, project: true });
  /** One that answers groups of the statements it selects, a page at a time. */
  const groupsTool = <I extends Record<string, z.ZodMiniType>>(
    spec: Omit<ToolSpec<I>, Common | 'output' | 'run'> & {
      groups(args: ArgsOf<I>, call: Call): Promise<Answer>;
    },
  ) =>
    earnedTool<I>({
      ...spec,
      output: groupsOutput,
      async run(args, call, cursor) {
        return groupsResult(spec.name, await spec.groups(args, call), args, call, cursor);
      },
    });
  const totals = groupsTool({
    name: 'statements_totals',
    title: 'What the project earned',
    description:
      'The financials (licensor and licensee revenue) of every processed statement, added exactly and grouped (`pds statements totals`); never across currencies. Statements not processed yet are counted apart. Pass the cursor a call ends with, alone, for the next page.',
    input: {
      by: describe(z.optional(z.array(z.enum(TOTALS_BY))), TOTALS_FLAGS.by.help),
      ...FILTERS,
      top,
      sort: describe(z.optional(z.enum(AMOUNTS)), TOTALS_FLAGS.sort.toolHelp),
      ...REPORT_INPUTS,
      cursor: cursorInput,
    },
    async groups(args, call) {
      const by = byFields(args.by, TOTALS_BY);
      if (wantsReport(args, by)) {
        const { totalsGrouping } = await import('../statements/report-run.js');
        return reportAnswer(call, args, by, selectInput(args, call), 'licensor_revenue', (unread) =>
          totalsGrouping(args.top, unread),
        );
      }
      const selection = await selectStatements(call.ctx, selectInput(args, call), []);
      const { records, incomplete } = totalsOf(selection.processed, by, args.top, args.sort);
      return { groups: records, pending: selection.pending.length, incomplete: incomplete.list() };
    },
  });
  const rollup = groupsTool({
    name: 'statements_lines_rollup',
    title: "Statements' lines, added up",
    description:
      "Every line of the chosen processed statements (all of them without ids) grouped by columns of the lines export (any case) or statement, period, payor, always by currency; every numeric column summed exactly (`pds statements lines --all --by`). isrc adds each recording's name and artists (null for an ISRC no recording carries). Pass the cursor a call ends with, alone, for the next page.",
    input: {
      by: describe(z.optional(z.array(z.string())), LINES_FLAGS.by.help),
      ids: describe(z.optional(z.array(numberOrText)), 'statement ids (default: every processed statement)'),
      ...FILTERS,
      top,
      sort: flagInput('sort', LINES_FLAGS.sort),
      ...REPORT_INPUTS,
      cursor: cursorInput,
    },
    async groups(args, call) {
      const by = (args.by ?? []).map((name) => name.trim().toLowerCase());
      if (by.length === 0 || by.some((name) => name === '')) throw new UsageError('by: name one column at least');
      const input = selectInput(args, call, args.ids ?? []);
      const grouped = by.filter((name) => name !== 'currency');
      if (wantsReport(args, grouped)) {
        const { linesGrouped } = await import('../statements/report-run.js');
        const options = { top: args.top, sort: args.sort, projectId: input.projectId, signal: call.signal };
        const amount = args.sort?.trim().toLowerCase() ?? 'licensor_revenue';
        return reportAnswer(
          call,
          args,
          grouped,
          input,
          amount,
          (unread) => async (statements, groupBy) =>
            linesGrouped(
              await rollUp(call.ctx, statements, { ...options, by: groupBy }, (read, total) =>
                call.progress(read, total),
              ),
              unread,
            ),
        );
      }
      const selection = await selectStatements(call.ctx, input, input.args);
      const { records, incomplete } = await rollUp(
        call.ctx,
        selection.processed,
        {
          by: by.filter((name) => name !== 'currency'),
          top: args.top,
          sort: args.sort,
          projectId: input.projectId,
          signal: call.signal,
        },
        (read, total) => call.progress(read, total),
      );
      return { groups: records, pending: selection.pending.length, incomplete: incomplete.list() };
    },
  });
  const check = earnedTool({
    name: 'statements_check',
    title: 'Check statements',
    description:
      "Whether each statement's lines add up to its financials in its currency (the difference, where they do not), likely duplicates (same totals and the same lines), and, with gaps, periods missing from a payor's run (`pds statements check`). `ok` is true only when every chosen statement was compared and nothing disagrees: `incomplete` names each statement that could not be checked (still processing, no export, an amount that cannot be read, lines in another currency), or says nothing matched. Pass the cursor a call ends with, alone, for the next page.",
    output: z.object({
      ok: z.boolean(),
      checked: z.number(),
      items: z.array(z.record(z.string(), z.unknown())),
      total: z.number(),
      incomplete: incompleteOutput,
      next_cursor: nextCursor,
    }),
    input: {
      ids: describe(z.optional(z.array(numberOrText)), 'statement ids (default: every processed statement)'),
      ...FILTERS,
      gaps: flagInput('gaps', CHECK_FLAGS.gaps),
      cursor: cursorInput,
    },
    async run(args, call, cursor) {
      const input = selectInput(args, call, args.ids ?? []);
      const selection = await selectStatements(call.ctx, input, input.args);
      const result = await checkStatements(call.ctx, selection, { projectId: input.projectId, signal: call.signal });
      const findings = args.gaps === true ? result.findings : result.findings.filter((f) => f.check !== 'gap');
      const incomplete = notWhole(result);
      const agrees = !findings.some(fails);
      const ok = agrees && incomplete.length === 0;
      const { part, next, before, after } = page('statements_check', findings, args, call, cursor);
      const verdict = !agrees ? 'some disagree' : incomplete.length > 0 ? 'not whole' : 'nothing disagrees';
      return dataResult(part, {
        before: `checked ${result.checked} of ${result.chosen} statements: ${verdict}; findings ${before}`,
        after: [...(incomplete.length > 0 ? [INCOMPLETE_NOTE] : []), ...after],
        ...(incomplete.length > 0 ? { untrustedAfter: incomplete } : {}),
        structured: { ok, checked: result.checked, items: part, total: findings.length, incomplete, next_cursor: next },
      });
    },
  });
  return [totals, rollup, check];
}

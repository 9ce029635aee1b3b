// `pds statements lines` beyond one statement's CSV as the service sent it: many statements (ids
// or --all), a data format, --csv-safe, or a roll-up (--by). The statements are chosen and checked
// first; then their exports are read, a few at a time, with progress on a terminal.
import type { Context } from '../../lib/context.js';
import { IncompleteAnswerError, UsageError } from '../../lib/errors.js';
import { parseSize } from '../../lib/transfer/sizes.js';
import type { LinesOptions } from './definitions.js';
import { Writable } from 'node:stream';
import { FORMULA_WARNING, startsFormula, writeFlat, type FlatFormat } from './flat.js';
import { printRollup, rollUp, sayColumns } from './rollup.js';
import { checkChoice, type Processed, sayPending, selectStatements } from './select.js';
import { withProgress } from './progress.js';
import { linesTable } from './lines-table.js';
import { needsReport, overlapNote } from './report.js';
import { isFileFormat } from '../../lib/output/table-file.js';

/**
 * `out`, and beside it a CSV parser that reads the same bytes for cells a spreadsheet would run as
 * formulas: the first is warned of on stderr (the bytes go out unchanged; --csv-safe changes them).
 * `finish` reads the last row (a parser holds it until the end) once every byte is written.
 */
export async function warningOfFormulas(
  ctx: Context,
  out: Writable,
): Promise<{ stream: Writable; finish(): Promise<void> }> {
  const { parse } = await import('csv-parse');
  const scan = parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
  let warned = false;
  scan.on('data', (row: string[]) => {
    if (warned || !row.some(startsFormula)) return;
    warned = true;
    ctx.output.warn(FORMULA_WARNING);
  });
  // A CSV the parser cannot read is still printed as it came; only the warning is lost.
  scan.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => scan.once('close', resolve).once('end', resolve));
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      if (!scan.destroyed) scan.write(chunk);
      if (out.write(chunk)) return done();
      // A closed pipe (`| head -1`) is out's error: it ends the fetch as it would without the scan.
      const onError = (error: Error) => {
        out.off('drain', onDrain);
        done(error);
      };
      const onDrain = () => {
        out.off('error', onError);
        done();
      };
      out.once('drain', onDrain).once('error', onError);
    },
  });
  return {
    stream,
    finish: async () => {
      if (scan.destroyed) return;
      scan.end();
      await ended;
    },
  };
}

/** Whether `statements lines` takes this path rather than printing one export as it comes. */
export function isManyLines(opts: LinesOptions, ctx: Context): boolean {
  return (
    opts.all === true ||
    (opts.args[0] ?? []).length !== 1 ||
    opts.by !== undefined ||
    opts.top !== undefined ||
    opts.sort !== undefined ||
    opts.csvSafe === true ||
    // The mark goes before the header pds writes: the export is not printed as it came.
    ctx.settings.csvBom ||
    isFileFormat(ctx.settings.format) ||
    ctx.settings.format === 'table' ||
    (opts.output === undefined && (ctx.output.isData || ctx.output.jq !== undefined || ctx.settings.format === 'tsv'))
  );
}

/** The --by names: lower case, each once; currency is a key of every group anyway. */
function byColumns(by: string[] | undefined): string[] | undefined {
  if (by === undefined) return undefined;
  const names = [...new Set(by.map((name) => name.trim().toLowerCase()))].filter((name) => name !== 'currency');
  if (by.some((name) => name.trim() === '')) throw new UsageError('invalid --by: an empty column name');
  return names;
}

/** The flags checked before anything is asked of the service: which statements, grouped how, read how far. */
async function planOf(opts: LinesOptions, ctx: Context) {
  if (ctx.output.mode === 'ids') throw new UsageError('lines have no ids to print: drop -q');
  const fileFormat = isFileFormat(ctx.settings.format) ? ctx.settings.format : undefined;
  if (fileFormat !== undefined) (await import('./lines-file.js')).outputFile(fileFormat, opts.output, opts.force);
  else if (opts.output !== undefined)
    throw new UsageError(
      '-o saves the lines of one statement as the service exports them; for these lines, redirect the output (> file)',
    );
  const given = { ...opts, args: opts.args[0] ?? [] };
  if (opts.all !== true && given.args.length === 0) throw new UsageError('give statement ids, or --all');
  const ids = checkChoice(given, 'lines');
  const by = byColumns(opts.by);
  if (by === undefined && (opts.top !== undefined || opts.sort !== undefined))
    throw new UsageError(`--${opts.top !== undefined ? 'top' : 'sort'} ranks groups: use it with --by`);
  const maxBytes = opts.maxSize === undefined ? undefined : parseSize('--max-size', opts.maxSize);
  const reporting = opts.compare ?? opts.columns ?? opts.rates ?? opts.to;
  if (by === undefined && reporting !== undefined)
    throw new UsageError('--compare, --columns, --rates and --to work on a roll-up: use them with --by');
  return { given, ids, by, maxBytes, fileFormat };
}

export async function run(opts: LinesOptions, ctx: Context): Promise<number> {
  const { given, ids, by, maxBytes, fileFormat } = await planOf(opts, ctx);
  if (by !== undefined && (needsReport(opts, by) || fileFormat !== undefined))
    return (await import('./report-run.js')).runLinesReport(opts, ctx, { by, ids, maxBytes });
  const selection = await selectStatements(ctx, given, ids);
  await sayPending(ctx, selection);
  const overlap = overlapNote(selection, opts.period);
  if (overlap !== undefined) ctx.output.info(overlap);
  const statements = selection.processed;
  if (ctx.settings.dryRun) {
    ctx.output.info(`would read the lines of ${statements.length} statements; nothing was fetched (--dry-run)`);
    return 0;
  }
  if (by !== undefined) {
    const sort = opts.sort?.trim().toLowerCase() ?? 'licensor_revenue';
    const input = { by, top: opts.top, sort: opts.sort, maxBytes };
    const { records, shape, columns, incomplete } = await withProgress(ctx, (update) =>
      rollUp(ctx, statements, input, update),
    );
    sayColumns(ctx, columns);
    await printRollup(ctx, records, shape, shape.columns.includes(sort) ? sort : (shape.columns[0] ?? sort), opts.top);
    incomplete.throwIfAny();
    return 0;
  }
  const chosen = ctx.settings.format;
  if (isFileFormat(chosen))
    return (await import('./lines-file.js')).runLinesFile(ctx, statements, chosen, opts, maxBytes);
  const format: FlatFormat | 'table' = chosen ?? 'csv';
  await printLines(ctx, statements, format, {
    withId: opts.all === true || ids.length > 1,
    csvSafe: opts.csvSafe === true,
    maxBytes,
  });
  return 0;
}

/**
 * Every line of the statements, as CSV (or the data format chosen), a leading statement_id column
 * when there are several; with --format table or --jq they are gathered first.
 */
async function printLines(
  ctx: Context,
  statements: Processed[],
  chosen: FlatFormat | 'table',
  input: { withId: boolean; csvSafe: boolean; maxBytes: number | undefined },
): Promise<void> {
  // --format table: the lines gathered and drawn as a fitted table, like any list.
  const asTable = chosen === 'table' && ctx.output.jq === undefined;
  const format: FlatFormat = chosen === 'table' ? 'csv' : chosen;
  const gather = ctx.output.jq === undefined && !asTable ? undefined : [];
  const flat = { format, ...input, ...(gather === undefined ? {} : { gather }) };
  // Progress would draw over lines printed to the same terminal.
  const showProgress = !ctx.io.stdoutIsTTY;
  const problems = await withProgress(ctx, (update) =>
    writeFlat(ctx, statements, flat, (read, total, lines) => {
      if (showProgress) update(read, total, lines);
    }),
  );
  if (asTable && gather !== undefined) ctx.output.write(await linesTable(ctx, gather));
  else if (gather !== undefined) await ctx.output.data(gather);
  if (problems.length > 0) throw new IncompleteAnswerError(problems.map((p) => p.text));
}

// What a batch of files (`pds upload`, `pds contracts download`) shows on stderr while it works: a
// live line per file on a terminal; one line per finished file when stderr is piped or CI is set; nothing with
// -q or --json (the data is the point then). The words are each command's; where they go, the
// marks' colors, and how a failure is said are the same for both, here.
import { errorText } from '../../lib/error-report.js';
import type { Context } from '../../lib/context.js';
import { loadCells } from '../../lib/output/cells.js';
import { LiveLines } from './live.js';

const MARK_COLORS: Record<string, 'green' | 'red'> = { '✓': 'green', '✗': 'red' };

export class BatchDisplay {
  private constructor(
    private readonly ctx: Context,
    private readonly live: LiveLines | undefined,
    /** A line per finished file (stderr piped, not -q or --json). */
    readonly linesPerFile: boolean,
    /** Gives stderr back (no waiting spinner over the live lines meanwhile: Output.whileSlow). */
    private readonly releaseStderr: () => void = () => undefined,
  ) {}

  /** `piped: false` when a piped stderr gets no line per file (the file itself went to stdout). */
  static async create(ctx: Context, { piped = true }: { piped?: boolean } = {}): Promise<BatchDisplay> {
    await ctx.output.prepareColor();
    const quiet = ctx.settings.quiet || ctx.output.isData;
    const live =
      !quiet && ctx.output.liveStderr && ctx.output.animates
        ? new LiveLines(ctx.io.stderr, { columns: ctx.io.columns, rows: ctx.io.rows }, await loadCells(), (mark) =>
            ctx.output.paintErr(MARK_COLORS[mark] ?? 'cyan', mark),
          )
        : undefined;
    return new BatchDisplay(ctx, live, piped && !quiet && !live, live ? ctx.output.holdStderr() : undefined);
  }

  get isLive(): boolean {
    return this.live !== undefined;
  }

  /** A file's live line; undefined when there are none. */
  add(mark: string, text: string): number | undefined {
    return this.live?.add(mark, text);
  }

  set(line: number | undefined, mark: string, text: string): void {
    if (line !== undefined) this.live?.set(line, mark, text);
  }

  /** A file's live line, for the last time. */
  settle(line: number | undefined, mark: string, text: string): void {
    if (line !== undefined) this.live?.settle(line, mark, text);
  }

  /** A finished file's line on a piped stderr. */
  say(text: string): void {
    if (this.linesPerFile) this.ctx.output.info(text);
  }

  /** `error: <name>: <message>`, then the details and the request id. */
  problem(name: string, message: string, details: readonly string[], requestId?: string): void {
    const report = { message: `${name}: ${message}`, details, ...(requestId ? { requestId } : {}) };
    this.ctx.io.stderr.write(errorText(report, false, (text) => this.ctx.output.paintErr('red', text)));
  }

  close(): void {
    this.live?.finish();
    this.releaseStderr();
  }
}

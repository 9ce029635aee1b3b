// The lines exports of many statements, fetched a few at once and read as they stream in (csv-rows.ts):
// no export is held whole, each row goes to the caller with the line it starts on. An export whose
// header pds cannot trust (an empty name, a name twice, a name with invisible characters) is left
// out whole, a row not as wide as its header is left out alone: each is a problem the caller
// reports as an answer that is not whole. Reading yields to the event loop every few milliseconds,
// so a signal is heard whatever the export holds. A signed link the storage host refuses is asked
// for again, once, as `statements lines` does.
import type { Context } from '../../lib/context.js';
import { InterruptedError, PdsError, stopSignalOf } from '../../lib/errors.js';
import { stripInvisible } from '../../lib/output/text.js';
import { StorageDeniedError, saveInto, storageOptions, type SaveOptions } from '../../lib/transfer/download.js';
import { DEFAULT_MAX_BYTES } from '../../lib/transfer/sizes.js';
import { LINES_ACCEPT, linesOf } from './lines-link.js';
import { CsvReader } from './csv-rows.js';
import type { Processed } from './select.js';

/** Exports fetched at once: the connections the transport keeps per host. */
export const EXPORTS_AT_ONCE = 8;

/** Takes one row of an export: its cells, as many as the header's, and the line of the export it starts on. */
export type RowSink = (row: string[], line: number) => void;

/**
 * Takes the cells at `columns` of each row (a roll-up reads no other): every other cell is '', and
 * the row is one array handed on again for the next row, so `take` must not keep it.
 */
export interface SomeCells {
  columns: readonly number[];
  take: RowSink;
}

/** What receives one export: its header first, then each row, then its end. */
export interface ExportReader {
  /** The export's header (no name empty, repeated or with invisible characters); answers what takes its rows. */
  header(statement: Processed, header: string[]): RowSink | SomeCells;
  /**
   * After each chunk of the export is read: a promise holds the next chunk back (flat.ts waits its
   * turn to write, bounding what it holds).
   */
  chunkRead?(statement: Processed): Promise<void> | undefined;
  /** The export was read to its end: `lines` rows were handed over. */
  done?(statement: Processed, lines: number): void;
}

export interface ExportsOptions {
  maxBytes?: number;
  /** The project (an MCP call's); else the context's. */
  projectId?: string | undefined;
  /** Ends the reads (an MCP call cancelled); Ctrl-C always does. */
  signal?: AbortSignal | undefined;
  /** Progress: exports read, of how many, and lines so far. */
  onProgress?(read: number, total: number, lines: number): void;
  /** Each export's signed link by statement id: used when there, filled when not (a second reading asks no more). */
  links?: Map<string | number, string>;
  /** Read each export up to its header only. */
  headerOnly?: boolean;
  /**
   * One statement's export could not be fetched (no export, a failure of its own): true when the
   * caller names it and the others are still read (a check says it could not check that one); else
   * the whole read fails.
   */
  notRead?(statement: Processed, error: unknown): boolean;
}

/** A row or an export left out: its statement, its line when a row, and the sentence that says it. */
export interface ExportProblem {
  statement: string | number;
  line?: number;
  text: string;
}

/** Reading is paused for the event loop after this long (a signal is then heard). */
const WORK_SLICE_MS = 15;
/** Text handed to the CSV reader at once, between looks at the clock. */
const TEXT_SLICE = 16 * 1024;
/** Bytes of an export decoded and read at once, between looks at the clock. */
const BYTES_SLICE = 16 * 1024;

/** An export whose header is refused: the rest of it is not read. */
class ExportRefused extends PdsError {}

/**
 * Reads every statement's export through `reader`, EXPORTS_AT_ONCE at a time; rejects on the first
 * failure. Answers the problems met (rows and exports left out), each naming its statement and line.
 */
export async function readExports(
  ctx: Context,
  statements: readonly Processed[],
  reader: ExportReader,
  options: ExportsOptions = {},
): Promise<ExportProblem[]> {
  const projectId = options.projectId ?? ctx.project();
  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stop.signal, ...(options.signal ? [options.signal] : [])]);
  const save: SaveOptions = {
    ...storageOptions(ctx, false, options.maxBytes ?? DEFAULT_MAX_BYTES),
    signal,
    pdf: false,
    accept: LINES_ACCEPT,
  };
  const problems: ExportProblem[] = [];
  let next = 0;
  let read = 0;
  let lines = 0;
  const readOne = async (statement: Processed): Promise<void> => {
    const linkOf = async (fresh: boolean): Promise<string> => {
      const known = fresh ? undefined : options.links?.get(statement.id);
      if (known !== undefined) return known;
      const url = (await linesOf(ctx, projectId, String(statement.id))).url;
      options.links?.set(statement.id, url);
      return url;
    };
    const fetchRows = async (url: string): Promise<number> => {
      const rows = new ExportRows(statement, reader, problems, signal, options.headerOnly === true);
      try {
        await saveInto(url, (chunk) => rows.write(chunk), save);
        rows.end();
      } catch (error) {
        if (!(error instanceof ExportRefused)) throw error;
      }
      return rows.lines;
    };
    let count = 0;
    try {
      try {
        count = await fetchRows(await linkOf(false));
      } catch (error) {
        if (!(error instanceof StorageDeniedError)) throw error;
        count = await fetchRows(await linkOf(true));
      }
    } catch (error) {
      if (signal.aborted || options.notRead?.(statement, error) !== true) throw error;
    }
    read++;
    lines += count;
    reader.done?.(statement, count);
    options.onProgress?.(read, statements.length, lines);
  };
  const worker = async (): Promise<void> => {
    while (next < statements.length && !stop.signal.aborted) await readOne(statements[next++] as Processed);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(EXPORTS_AT_ONCE, statements.length) }, worker));
  } catch (error) {
    stop.abort(error);
    throw error;
  }
  return problems;
}

/** One export being read: its bytes in, its checked header and rows out to the reader. */
class ExportRows {
  lines = 0;
  private sink: RowSink | undefined;
  private width = 0;
  private refused = false;
  private readonly csv: CsvReader;
  private lastYield = performance.now();

  constructor(
    private readonly statement: Processed,
    private readonly reader: ExportReader,
    private readonly problems: ExportProblem[],
    private readonly signal: AbortSignal,
    private readonly headerOnly: boolean,
  ) {
    const where = (line: number) => `statement ${statement.id}, line ${line}`;
    this.csv = new CsvReader({
      record: (cells, line) => {
        if (this.refused) return;
        if (this.sink === undefined) {
          this.takeHeader(cells);
          return;
        }
        if (cells.length !== this.width) {
          const text = `${where(line)}: a row of ${cells.length} cell${cells.length === 1 ? '' : 's'} where the header has ${this.width}; left out`;
          problems.push({ statement: statement.id, line, text });
          return;
        }
        this.lines++;
        this.sink(cells, line);
      },
      malformed: (line, reason) => {
        if (!this.refused)
          problems.push({ statement: statement.id, line, text: `${where(line)}: not CSV (${reason}); left out` });
      },
    });
  }

  private takeHeader(names: string[]): void {
    const fault = headerFault(names);
    if (fault !== undefined) {
      this.refused = true;
      this.problems.push({
        statement: this.statement.id,
        text: `statement ${this.statement.id}: its export's header ${fault}; its lines were left out`,
      });
      return;
    }
    this.width = names.length;
    const taker = this.reader.header(this.statement, names);
    if (typeof taker === 'function') this.sink = taker;
    else {
      this.sink = taker.take;
      this.csv.readOnly(taker.columns);
    }
    if (this.headerOnly) this.refused = true;
  }

  /** A chunk of the export: read in slices, the event loop given its turn every WORK_SLICE_MS. */
  async write(chunk: Uint8Array): Promise<void> {
    // Decoded a slice at a time: the text alive while this export waits its turn is one slice, not
    // the chunk (eight exports' chunks outliving the young generation's collections made it grow).
    for (let at = 0; at < chunk.length; at += BYTES_SLICE) {
      this.csv.write(this.csv.decode(chunk.subarray(at, at + BYTES_SLICE)));
      if (this.refused) throw new ExportRefused('refused');
      if (performance.now() - this.lastYield > WORK_SLICE_MS) {
        await new Promise((resume) => setImmediate(resume));
        this.lastYield = performance.now();
        if (this.signal.aborted) throw new InterruptedError(stopSignalOf(this.signal));
      }
    }
    const turn = this.reader.chunkRead?.(this.statement);
    if (turn !== undefined) await untilEither(turn, this.signal);
    if (this.signal.aborted) throw new InterruptedError(stopSignalOf(this.signal));
  }

  end(): void {
    this.csv.end();
    if (this.sink === undefined && !this.refused)
      this.problems.push({
        statement: this.statement.id,
        text: `statement ${this.statement.id}: its export has no header; nothing was read`,
      });
  }
}

/** Settles when `turn` does or `signal` is aborted, whichever is first (the caller looks at the signal). */
function untilEither(turn: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** What is wrong with an export's header, said for a person; undefined when nothing is. */
export function headerFault(names: readonly string[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [index, name] of names.entries()) {
    const column = index + 1;
    if (name.trim() === '') return `has an empty column name (column ${column})`;
    if (stripInvisible(name).removed > 0)
      return `has a column name with invisible characters ('${showInvisible(name)}', column ${column})`;
    const key = name.trim().normalize('NFC').toLowerCase();
    const before = seen.get(key);
    if (before !== undefined) return `repeats the column '${name.trim()}' (columns ${before} and ${column})`;
    seen.set(key, column);
  }
  return undefined;
}

/** What is wrong with the header of a whole export's `text` (see headerFault); undefined when nothing is. */
export function textHeaderFault(text: string): string | undefined {
  let header: string[] | undefined;
  const reader = new CsvReader({
    record: (cells) => {
      header ??= cells;
    },
    malformed: () => undefined,
  });
  for (let at = 0; header === undefined && at < text.length; at += TEXT_SLICE)
    reader.write(text.slice(at, at + TEXT_SLICE));
  if (header === undefined) reader.end();
  return header === undefined ? undefined : headerFault(header);
}

/** `name` with each invisible character written as its code point (\u{200b}). */
function showInvisible(name: string): string {
  return [...name]
    .map((ch) => (stripInvisible(ch).removed > 0 ? `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}` : ch))
    .join('');
}

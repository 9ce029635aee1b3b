// The lines exports of many statements, fetched a few at once: each export is held as text only
// until it has all come (a few hundred kB, under --max-bytes), then parsed (csv-rows.ts), each row
// handed to the caller as it is read, so at most EXPORTS_AT_ONCE exports' text is held at a time.
// A signed link the storage host refuses is asked for again, once, as `statements lines` does.
import type { Context } from '../../lib/context.js';
import {
  DEFAULT_MAX_BYTES,
  StorageDeniedError,
  saveToStream,
  storageOptions,
  type SaveOptions,
} from '../../lib/transfer/download.js';
import { LINES_ACCEPT, linesOf } from './lines.js';
import { eachCsvRow, ExportText } from './csv-rows.js';
import type { Processed } from './select.js';

/** Exports fetched at once: the connections the transport keeps per host. */
export const EXPORTS_AT_ONCE = 8;

/** What receives one export: its header first, then each row, then its end. */
export interface ExportReader {
  /** The export's header; answers what takes its rows. */
  header(statement: Processed, header: string[]): (row: string[]) => void;
  /** The export was read whole: `lines` rows. */
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
}

/** Reads every statement's export through `reader`, EXPORTS_AT_ONCE at a time; rejects on the first failure. */
export async function readExports(
  ctx: Context,
  statements: readonly Processed[],
  reader: ExportReader,
  options: ExportsOptions = {},
): Promise<void> {
  const projectId = options.projectId ?? ctx.project();
  const stop = new AbortController();
  const save: SaveOptions = {
    ...storageOptions(ctx, false, options.maxBytes ?? DEFAULT_MAX_BYTES),
    signal: AbortSignal.any([ctx.signal, stop.signal, ...(options.signal ? [options.signal] : [])]),
    pdf: false,
    accept: LINES_ACCEPT,
  };
  let next = 0;
  let read = 0;
  let lines = 0;
  const readOne = async (statement: Processed): Promise<void> => {
    const id = String(statement.id);
    const fetchRows = async (url: string): Promise<number> => {
      const out = new ExportText();
      await saveToStream(url, out, save);
      let sink: ((row: string[]) => void) | undefined;
      const rows = await eachCsvRow(out.text(), (row) => {
        if (sink === undefined) sink = reader.header(statement, row);
        else sink(row);
      });
      return Math.max(rows - 1, 0);
    };
    let count: number;
    try {
      count = await fetchRows((await linesOf(ctx, projectId, id)).url);
    } catch (error) {
      if (!(error instanceof StorageDeniedError)) throw error;
      count = await fetchRows((await linesOf(ctx, projectId, id)).url);
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
}

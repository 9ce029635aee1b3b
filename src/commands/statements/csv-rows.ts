// The one CSV reader of exports (RFC 4180): cells quoted or not, "" for a quote inside quotes, line
// breaks inside quotes, CRLF, LF or CR endings in any mix, a leading BOM; empty lines are skipped.
// It streams: text is fed in chunks as it arrives and each record is handed on as soon as it ends,
// so an export is never held whole, and the work is linear in the text whatever its shape (a cell
// spread over many chunks is carried as its parts, never scanned again). Written here rather than
// taken from a library: csv-parse's streaming parser is about four times slower on quoted text than
// this scan, uDSV reads ragged rows wrongly, and the reader also has to say on which line each
// record starts, which neither gives cheaply.
import { StringDecoder } from 'node:string_decoder';

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/** A record longer than this is refused: past it the reader would only be holding text for nothing. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

// Where the scan is between two chunks (plain numbers: the scan's switch is its hot path).
/** The start of a cell. */
const CELL = 0;
/** Inside a cell without quotes. */
const BARE = 1;
/** Inside quotes. */
const QUOTED = 2;
/** Just after a quote inside quotes: the cell's end or the first of "". */
const QUOTE_SEEN = 3;
/** After a quoted cell's closing quote: a comma or a line break must follow. */
const CLOSED = 4;
/** After a CR that ended a record: a LF right after it belongs to the same break. */
const RETURN = 5;
/** In a malformed record: everything up to the next line break is left out. */
const SKIP = 6;
type At = typeof CELL | typeof BARE | typeof QUOTED | typeof QUOTE_SEEN | typeof CLOSED | typeof RETURN | typeof SKIP;

/** What the reader hands on. */
export interface CsvRecords {
  /** One record's cells, and the line of the text it starts on (the first line is 1). */
  record(cells: string[], line: number): void;
  /** A record that is not CSV (text after a closing quote, a quote never closed, too long). */
  malformed(line: number, reason: string): void;
}

/** A streaming reader: `write` text as it comes (`decode` bytes first), then `end`. */
export class CsvReader {
  private readonly decoder = new StringDecoder('utf8');
  private at: At = CELL;
  private cells: string[] = [];
  /** Cells of the record so far. */
  private count = 0;
  /** Which cells are kept (readOnly): the others are counted, never made into strings. */
  private keep: Uint8Array | undefined;
  /** The cell so far, when it spans chunks. */
  private cell = '';
  private size = 0;
  private quotedInRecord = false;
  private started = false;
  /** The line being read, and the one the current record started on. */
  private line = 1;
  private recordLine = 1;
  /** The last quoted part ended in a CR: a LF that opens the next part is the same line break. */
  private quotedCR = false;
  private problem = '';

  constructor(private readonly out: CsvRecords) {}

  /** Text of bytes of UTF-8, decoded across chunk boundaries: write it next. */
  decode(chunk: Uint8Array): string {
    return this.decoder.write(chunk as Buffer);
  }

  /**
   * From the next record on, only the cells at `columns` are read: every other cell is handed on
   * as '' (a record still has all its cells, so a ragged one is told apart), and the same array is
   * handed on for each record, so the receiver must not keep it.
   */
  readOnly(columns: readonly number[]): void {
    const keep = new Uint8Array(Math.max(0, ...columns) + 1);
    for (const column of columns) keep[column] = 1;
    this.keep = keep;
  }

  /** Whether the cell being read is kept (readOnly). */
  private kept(): boolean {
    return this.keep === undefined || this.keep[this.count] === 1;
  }

  private push(cell: string): void {
    this.cells[this.count++] = cell;
  }

  /** The text that comes next: its complete records are handed on now. */
  write(text: string): void {
    this.scan(text);
  }

  end(): void {
    this.scan(this.decoder.end());
    switch (this.at) {
      case QUOTED:
        this.out.malformed(this.recordLine, 'a quoted cell is never closed');
        break;
      case SKIP:
        this.out.malformed(this.recordLine, this.problem);
        break;
      case BARE:
      case QUOTE_SEEN:
      case CLOSED:
        this.push(this.cell);
        this.finish();
        break;
      case CELL:
        if (this.count > 0) {
          this.push('');
          this.finish();
        }
        break;
    }
    this.at = CELL;
  }

  /** The record is complete: hand it on (an empty line is none), start the next. */
  private finish(): void {
    const cells = this.cells;
    // Reading only some cells, the array is handed on again: it is cut to this record's cells.
    if (cells.length !== this.count) cells.length = this.count;
    if (this.keep === undefined) this.cells = [];
    // One cell and no character: an empty line (the size counts every cell's, kept or not).
    const empty = this.count === 0 || (this.count === 1 && this.size === 0 && !this.quotedInRecord);
    this.count = 0;
    this.cell = '';
    this.size = 0;
    if (!empty) this.out.record(cells, this.recordLine);
    this.quotedInRecord = false;
    this.recordLine = this.line;
  }

  /** A line break at `text[i]` ends the record; answers where the scan goes on. */
  private lineBreak(text: string, i: number): number {
    this.line++;
    this.finish();
    if (text.charCodeAt(i) === CR) {
      if (i + 1 === text.length) {
        this.at = RETURN;
        return i + 1;
      }
      if (text.charCodeAt(i + 1) === LF) i++;
    }
    this.at = CELL;
    return i + 1;
  }

  private malformedRecord(reason: string): void {
    this.problem = reason;
    this.at = SKIP;
    this.count = 0;
    this.cell = '';
  }

  private grow(by: number): boolean {
    this.size += by;
    if (this.size <= MAX_RECORD_CHARS) return true;
    this.malformedRecord(`a record longer than ${MAX_RECORD_CHARS / (1024 * 1024)} Mi characters`);
    return false;
  }

  private scan(text: string): void {
    const n = text.length;
    let i = 0;
    if (!this.started && n > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    while (i < n) {
      switch (this.at) {
        case CELL:
          if (text.charCodeAt(i) === QUOTE) {
            this.at = QUOTED;
            this.quotedInRecord = true;
            i++;
            break;
          }
          this.at = BARE;
          i = this.bare(text, i);
          break;
        case BARE:
          i = this.bare(text, i);
          break;
        case QUOTED:
          i = this.quoted(text, i);
          break;
        case QUOTE_SEEN:
          if (text.charCodeAt(i) === QUOTE) {
            if (this.kept()) this.cell += '"';
            this.at = QUOTED;
            i++;
          } else this.at = CLOSED;
          break;
        case CLOSED: {
          const c = text.charCodeAt(i);
          if (c === COMMA) {
            this.push(this.cell);
            this.cell = '';
            this.at = CELL;
            i++;
          } else if (c === LF || c === CR) {
            this.push(this.cell);
            i = this.lineBreak(text, i);
          } else this.malformedRecord('text after the closing quote of a cell');
          break;
        }
        case RETURN:
          if (text.charCodeAt(i) === LF) i++;
          this.at = CELL;
          break;
        case SKIP:
          i = this.skip(text, i);
          break;
      }
    }
  }

  /** A cell without quotes from `i` (a quote inside it is kept as it is). */
  private bare(text: string, i: number): number {
    const n = text.length;
    let j = i;
    let c = 0;
    for (; j < n; j++) {
      c = text.charCodeAt(j);
      if (c === COMMA || c === LF || c === CR) break;
    }
    if (!this.grow(j - i)) return j;
    const kept = this.kept();
    if (j === n) {
      if (kept) this.cell += text.slice(i, j);
      return n;
    }
    this.push(!kept ? '' : this.cell === '' ? text.slice(i, j) : this.cell + text.slice(i, j));
    this.cell = '';
    if (c === COMMA) {
      this.at = CELL;
      return j + 1;
    }
    return this.lineBreak(text, j);
  }

  /** Inside quotes from `i`, up to the next quote. */
  private quoted(text: string, i: number): number {
    const end = text.indexOf('"', i);
    const j = end < 0 ? text.length : end;
    if (!this.grow(j - i)) return j;
    // A CRLF inside quotes cut between two chunks is one break, not a CR and then a LF.
    this.line += breaksIn(text, i, j) - (this.quotedCR && j > i && text.charCodeAt(i) === LF ? 1 : 0);
    this.quotedCR = end < 0 && j > i && text.charCodeAt(j - 1) === CR;
    if (this.kept()) this.cell += text.slice(i, j);
    if (end < 0) return j;
    this.at = QUOTE_SEEN;
    return j + 1;
  }

  /** A malformed record's rest, up to its line break (its quotes are not followed). */
  private skip(text: string, i: number): number {
    const n = text.length;
    for (let j = i; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === LF || c === CR) {
        this.out.malformed(this.recordLine, this.problem);
        this.count = 0;
        return this.lineBreak(text, j);
      }
    }
    return n;
  }
}

/** Line breaks in `text` from `from` to `to` (a quoted part): LF, CRLF or CR each once. */
function breaksIn(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let at = from; at < to; at++) {
    const c = text.charCodeAt(at);
    if (c === LF || (c === CR && (at + 1 === to || text.charCodeAt(at + 1) !== LF))) breaks++;
  }
  return breaks;
}

/** Every record of a whole text, for tests and small inputs. */
export function csvRecords(text: string): { records: [string[], number][]; malformed: [number, string][] } {
  const records: [string[], number][] = [];
  const malformed: [number, string][] = [];
  const reader = new CsvReader({
    record: (cells, line) => records.push([cells, line]),
    malformed: (line, reason) => malformed.push([line, reason]),
  });
  reader.write(text);
  reader.end();
  return { records, malformed };
}

// The rows of one CSV export, read by uDSV (many times faster than a general parser over a million
// lines) where its simple path is sure to be right, else by csv-parse. uDSV takes every row to be as
// wide as the header, so a short or long row would be glued to its neighbour; without quotes in the
// text that always shows (a cell holding a line break, or a last cell holding a comma), and from
// the first such row on csv-parse reads the export, which keeps ragged rows apart. A text with a
// quote anywhere (uDSV can then misread a ragged row silently), an empty line (it can stop there)
// or no line break goes to csv-parse whole. Both load only in the verbs that read exports.
import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';

/** A text uDSV reads right (or shows where it could not): a line break, no quote, no empty line. */
function plain(text: string): boolean {
  // includes() scans far faster than one regular expression with alternatives.
  const breaksAt = text.search(/[\r\n]/);
  if (breaksAt <= 0 || text.includes('"')) return false;
  return !text.includes('\n\n') && !text.includes('\n\r\n') && !text.includes('\r\r');
}

/** Whether a row uDSV gave (from a text without quotes) is a ragged row glued to its neighbour. */
function doubtful(row: string[]): boolean {
  const last = row.length - 1;
  for (let i = 0; i <= last; i++) {
    const cell = row[i] as string;
    if (cell.includes('\n') || cell.includes('\r') || (i === last && cell.includes(','))) return true;
  }
  return false;
}

/**
 * Hands every row of `text` (header first, empty lines left out, ragged rows as they are) to
 * `onRow`; answers how many. Rows before uDSV's first doubtful one are the rows csv-parse would
 * give (a short last row may come padded with empty cells), so from there csv-parse reads the
 * text and the rows not yet handed over follow.
 */
export async function eachCsvRow(text: string, onRow: (row: string[]) => void): Promise<number> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let handed = 0;
  if (plain(body)) {
    const { inferSchema, initParser } = await import('udsv');
    const parser = initParser(inferSchema(body, { col: ',', encl: '"', esc: '"', header: () => [] }));
    let sure = true;
    parser.stringArrs(body, (row: string[]) => {
      if (doubtful(row)) {
        sure = false;
        return false;
      }
      handed++;
      onRow(row);
    });
    if (sure) return handed;
  }
  const { parse } = await import('csv-parse/sync');
  const rows = parse(body, { relax_column_count: true, skip_empty_lines: true }) as string[][];
  for (let i = handed; i < rows.length; i++) onRow(rows[i] as string[]);
  return rows.length;
}

/** A sink for one export's bytes: its text, decoded across chunk boundaries, once it has all come. */
export class ExportText extends Writable {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.parts.push(this.decoder.write(chunk));
    done();
  }

  /** The whole text (call after the last byte is written). */
  text(): string {
    this.parts.push(this.decoder.end());
    return this.parts.join('');
  }
}

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvReader, csvRecords } from '../../src/commands/statements/csv-rows.js';

/** What csv-parse reads of a valid text: the records the streaming reader must hand over, in order. */
const reference = (text: string) =>
  parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];

/** The records of `text` and their lines, fed in pieces of the sizes `next` draws (any place: inside "", CRLF, a BOM). */
function inPieces(text: string, next: () => number): ReturnType<typeof csvRecords> {
  const records: [string[], number][] = [];
  const malformed: [number, string][] = [];
  const reader = new CsvReader({
    record: (cells, line) => records.push([cells, line]),
    malformed: (line, reason) => malformed.push([line, reason]),
  });
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; ) {
    const size = next();
    reader.write(reader.decode(bytes.subarray(at, at + size)));
    at += size;
  }
  reader.end();
  return { records, malformed };
}

/** Piece sizes of 1 to 7 bytes, drawn from `next`. */
const smallPieces = (next: () => number) => () => 1 + Math.floor(next() * 7);

/** A small deterministic generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PLAIN = ['1', '-2.50', 'GB', '', 'a b', 'é', '€', '😀'];
const QUOTED = [...PLAIN, '"x, y"', '"two\nlines"', '"say ""hi"""', '"\r\n"', '""', '"a""'.concat('"')];

function randomCsv(next: () => number): string {
  // One ending per text: csv-parse takes the first it meets for all (the reader's mixed endings are tested apart).
  const end = next() < 0.5 ? '\n' : '\r\n';
  const ending = () => end;
  const width = 1 + Math.floor(next() * 5);
  const cellsOf = next() < 0.3 ? PLAIN : QUOTED;
  const lines = [Array.from({ length: width }, (_, i) => `c${i}`).join(',')];
  for (let r = 0; r < 30; r++) {
    const roll = next();
    if (roll < 0.05) lines.push('');
    const cells = roll < 0.1 ? width - 1 : roll < 0.15 ? width + 1 : width;
    // A one-cell record that is empty is an empty line, which both readers skip.
    const row = Array.from({ length: Math.max(cells, 1) }, () => cellsOf[Math.floor(next() * cellsOf.length)]);
    if (row.length === 1 && (row[0] === '' || row[0] === '""')) row[0] = 'x';
    lines.push(row.join(','));
  }
  let text = lines[0] as string;
  for (const line of lines.slice(1)) text += ending() + line;
  return (next() < 0.3 ? '\ufeff' : '') + text + (next() < 0.8 ? ending() : '');
}

describe('the CSV reader of exports', () => {
  it('reads what csv-parse reads on 600 generated texts, fed whole or in pieces of 1 to 7 bytes', () => {
    const next = random(44);
    let records = 0;
    for (let i = 0; i < 600; i++) {
      const text = randomCsv(next);
      const expected = reference(text);
      const whole = csvRecords(text);
      expect(whole.malformed, text).toEqual([]);
      expect(
        whole.records.map(([cells]) => cells),
        JSON.stringify(text),
      ).toEqual(expected);
      // In pieces: the same records, each on the same line as when the text is read whole.
      expect(inPieces(text, smallPieces(next)), JSON.stringify(text)).toEqual(whole);
      records += expected.length;
    }
    expect(records).toBeGreaterThan(600 * 25);
  });

  it('reading only some cells hands on the same records, the other cells empty, whole or in pieces', () => {
    const next = random(53);
    let records = 0;
    for (let i = 0; i < 400; i++) {
      const text = randomCsv(next);
      const columns = [0, 1, 2, 3, 4, 5].filter(() => next() < 0.5);
      // The reader decides from the first record on (the header is read whole, as exports.ts does).
      const expected = reference(text).map((cells, at) =>
        at === 0 ? cells : cells.map((cell, column) => (columns.includes(column) ? cell : '')),
      );
      const rows: { cells: string[]; line: number }[] = [];
      const reader = new CsvReader({
        record: (cells, line) => {
          // The array is handed on again: what the receiver keeps, it copies.
          rows.push({ cells: [...cells], line });
          if (rows.length === 1) reader.readOnly(columns);
        },
        malformed: () => rows.push({ cells: ['malformed'], line: 0 }),
      });
      // A reader of every cell, fed the same pieces: the lines it names are the ones to name.
      const lines: number[] = [];
      const whole = new CsvReader({ record: (_cells, line) => lines.push(line), malformed: () => lines.push(0) });
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(next() * 9);
        reader.write(reader.decode(bytes.subarray(at, at + size)));
        whole.write(whole.decode(bytes.subarray(at, at + size)));
        at += size;
      }
      reader.end();
      whole.end();
      expect(
        rows.map((row) => row.cells),
        JSON.stringify({ text, columns }),
      ).toEqual(expected);
      expect(rows.map((row) => row.line)).toEqual(lines);
      records += expected.length;
    }
    expect(records).toBeGreaterThan(400 * 25);
  });

  it('reading only some cells still tells a row of one unread cell from an empty line, and keeps rows ragged', () => {
    const rows: string[][] = [];
    const reader = new CsvReader({
      record: (cells) => {
        rows.push([...cells]);
        if (rows.length === 1) reader.readOnly([1]);
      },
      malformed: () => undefined,
    });
    reader.write('a,b,c\nx\n\n1,2,3\n4,5\n"",\n6,7,8,9\n\n');
    reader.end();
    expect(rows).toEqual([['a', 'b', 'c'], [''], ['', '2', ''], ['', '5'], ['', ''], ['', '7', '', '']]);
  });

  it('names the line each record starts on, counting breaks inside quotes and skipped empty lines', () => {
    const text = '\ufeffa,b\r\n1,"two\r\nlines"\n\n3,4\r5,"x\ny\nz"\r\n6,7';
    expect(csvRecords(text)).toEqual({
      records: [
        [['a', 'b'], 1],
        [['1', 'two\r\nlines'], 2],
        [['3', '4'], 5],
        [['5', 'x\ny\nz'], 6],
        [['6', '7'], 9],
      ],
      malformed: [],
    });
  });

  it('numbers lines the same wherever the text is cut: a CR inside quotes at the end of a piece, its LF in the next', () => {
    // Quoted CRLF, CR and LF breaks, then a ragged row and a malformed one, whose lines must not move.
    const text = 'a,b\r\n1,"x\r\ny"\r\n2,"\r\n\r\n"\r\n3\r\n4,"p\rq"\r\n"z"x,5\r\n6,"\r""\n"\r\n7,8\r\n';
    const whole = csvRecords(text);
    expect(whole).toEqual({
      records: [
        [['a', 'b'], 1],
        [['1', 'x\r\ny'], 2],
        [['2', '\r\n\r\n'], 4],
        [['3'], 7],
        [['4', 'p\rq'], 8],
        [['6', '\r"\n'], 11],
        [['7', '8'], 14],
      ],
      malformed: [[10, 'text after the closing quote of a cell']],
    });
    for (let cut = 1; cut < text.length; cut++) {
      const sizes = [cut, text.length];
      expect(
        inPieces(text, () => sizes.shift() as number),
        `cut at ${cut}`,
      ).toEqual(whole);
    }
    for (let cut = 1; cut < text.length; cut++) {
      const sizes = [cut, 1, text.length];
      expect(
        inPieces(text, () => sizes.shift() as number),
        `cut at ${cut} and ${cut + 1}`,
      ).toEqual(whole);
    }
  });

  it('keeps short and long rows as they are, and a short last row without a line break', () => {
    expect(csvRecords('a,b,c\n1,2\n1,2,3,4\n9').records).toEqual([
      [['a', 'b', 'c'], 1],
      [['1', '2'], 2],
      [['1', '2', '3', '4'], 3],
      [['9'], 4],
    ]);
    // A CRLF text whose last line ends in LF.
    expect(csvRecords('a,b\r\n1,2\r\n3,4\n').records.map(([cells]) => cells)).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('says which records are not CSV and reads on after them', () => {
    expect(csvRecords('a,b\n"1"x,2\n3,4\n"never closed,5\n6,7\n')).toEqual({
      records: [
        [['a', 'b'], 1],
        [['3', '4'], 3],
      ],
      malformed: [
        [2, 'text after the closing quote of a cell'],
        [4, 'a quoted cell is never closed'],
      ],
    });
  });

  it('is linear: a cell of 5 million digits and 200,000 short rows read in pieces', () => {
    const huge = `a,b\n1,${'9'.repeat(5_000_000)}\n${'2,"x, y"\n'.repeat(200_000)}`;
    let rows = 0;
    let longest = 0;
    const reader = new CsvReader({
      record: (cells) => {
        rows++;
        longest = Math.max(longest, (cells[1] as string).length);
      },
      malformed: () => undefined,
    });
    for (let at = 0; at < huge.length; at += 1000) reader.write(huge.slice(at, at + 1000));
    reader.end();
    expect({ rows, longest }).toEqual({ rows: 200_002, longest: 5_000_000 });
  });
});

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { eachCsvRow } from '../../src/commands/statements/csv-rows.js';

/** What csv-parse alone reads: the rows eachCsvRow must hand over, in order. */
const reference = (text: string) =>
  parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];

/** A row without its trailing empty cells: uDSV may give a short row padded with empty ones. */
const trimmed = (rows: string[][]) =>
  rows.map((row) => {
    let end = row.length;
    while (end > 1 && row[end - 1] === '') end--;
    return row.slice(0, end);
  });

async function rowsOf(text: string): Promise<{ rows: string[][]; count: number }> {
  const rows: string[][] = [];
  const count = await eachCsvRow(text, (row) => rows.push(row));
  return { rows, count };
}

/** A small deterministic generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PLAIN = ['1', '-2.50', 'GB', '', 'a b', 'é'];
const QUOTED = [...PLAIN, '"x, y"', '"two\nlines"', '"say ""hi"""', '"\r\n"'];

function randomCsv(next: () => number): string {
  const end = next() < 0.5 ? '\n' : '\r\n';
  const width = 1 + Math.floor(next() * 5);
  const cellsOf = next() < 0.5 ? PLAIN : QUOTED;
  const lines = [Array.from({ length: width }, (_, i) => `c${i}`).join(',')];
  for (let r = 0; r < 30; r++) {
    const roll = next();
    if (roll < 0.05) lines.push('');
    const cells = roll < 0.1 ? width - 1 : roll < 0.15 ? width + 1 : width;
    lines.push(Array.from({ length: cells }, () => cellsOf[Math.floor(next() * cellsOf.length)]).join(','));
  }
  return lines.join(end) + (next() < 0.8 ? end : '');
}

describe('eachCsvRow', () => {
  it('reads plain exports as csv-parse does, header first', async () => {
    const text = '\ufeffline,territory,licensor_revenue\r\n1,GB,1.50\r\n\r\n2,FR,2\r\n';
    expect(await rowsOf(text)).toEqual({
      rows: [
        ['line', 'territory', 'licensor_revenue'],
        ['1', 'GB', '1.50'],
        ['2', 'FR', '2'],
      ],
      count: 3,
    });
  });

  it('keeps quoted commas, line breaks and quotes, and ragged rows apart', async () => {
    const text = 'a,b,c\n1,"x, y",3\n2,"multi\nline ""q""",4\n5,6\n7,8,9,10\n11,12,13\n';
    const { rows, count } = await rowsOf(text);
    expect(rows).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', '3'],
      ['2', 'multi\nline "q"', '4'],
      ['5', '6'],
      ['7', '8', '9', '10'],
      ['11', '12', '13'],
    ]);
    expect(count).toBe(6);
  });

  it('reads a header with a quoted comma, and a text with no line break', async () => {
    expect((await rowsOf('"a,b",c\n1,2\n')).rows).toEqual([
      ['a,b', 'c'],
      ['1', '2'],
    ]);
    expect((await rowsOf('a,b')).rows).toEqual([['a', 'b']]);
    expect(await rowsOf('')).toEqual({ rows: [], count: 0 });
  });

  it('agrees with csv-parse on 300 random exports (quotes, line breaks, ragged and empty rows)', async () => {
    const next = random(39);
    for (let n = 0; n < 300; n++) {
      const text = randomCsv(next);
      const want = reference(text);
      const got = await rowsOf(text);
      expect(trimmed(got.rows), text).toEqual(trimmed(want));
      expect(got.count).toBe(want.length);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { safeLines, safeText, stripInvisible } from '../../src/lib/output/text.js';
import { loadCells } from '../../src/lib/output/cells.js';

describe('safeText', () => {
  it('shows C0, DEL, C1 and bidi controls as escapes, and leaves other text alone', () => {
    expect(safeText('a\u001b]0;t\u0007b\u001b[2J')).toBe('a\\x1b]0;t\\x07b\\x1b[2J');
    expect(safeText('one\ntwo\r\tthree')).toBe('one\\ntwo\\r\\tthree');
    expect(safeText('\u0000\u007f\u009b\u0085')).toBe('\\x00\\x7f\\x9b\\x85');
    expect(safeText('abc\u202edcba\u2066')).toBe('abc\\u{202e}dcba\\u{2066}');
    expect(safeText('Café — 東京 🎵 C:\\path')).toBe('Café — 東京 🎵 C:\\path');
  });

  it('is idempotent', () => {
    const once = safeText('x\u001by\n');
    expect(safeText(once)).toBe(once);
  });
});

describe('cells', () => {
  it('measures and cuts in terminal cells, never splitting a character', async () => {
    const cells = await loadCells();
    expect(cells.width('東京abc')).toBe(7);
    expect(cells.fit('東京レコード', 7)).toBe('東京レ…');
    expect(cells.fit('東京レコード', 8)).toBe('東京レ…');
    expect(cells.fit('abcdef', 6)).toBe('abcdef');
    expect(cells.fit('abcdefg', 6)).toBe('abcde…');
    expect(cells.fit('e\u0301e\u0301e\u0301e\u0301', 3)).toBe('e\u0301e\u0301…');
  });
});

describe('safeLines', () => {
  it('is safeText keeping line feeds and tabs', () => {
    expect(safeLines('a\tb\nc\r\u001b[2J\u202e\n')).toBe('a\tb\nc\\r\\x1b[2J\\u{202e}\n');
  });
});

describe('stripInvisible', () => {
  it('removes tag, zero-width, bidi, other format and control characters, keeping line feeds, tabs and visible text', () => {
    const hidden =
      '\u{e0001}\u{e0069}\u{e007f}\u200b\u200c\u200d\u2060\ufeff\u202a\u202e\u2066\u2069\u00ad\u0000\u0007\r\u001b\u007f\u009b';
    expect(stripInvisible(`a${hidden}b\n\tc é 日本 👍`)).toEqual({
      text: 'ab\n\tc é 日本 👍',
      removed: [...hidden].length,
    });
    expect(stripInvisible('plain')).toEqual({ text: 'plain', removed: 0 });
  });
});

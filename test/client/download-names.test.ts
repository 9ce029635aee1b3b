import { describe, expect, it } from 'vitest';
import { NameClaims, safeFileName } from '../../src/lib/transfer/file-names.js';

describe('safeFileName', () => {
  it.each([
    ['statement.pdf', 'statement.pdf'],
    ['../x.pdf', '_x.pdf'],
    ['../../etc/passwd', '_._etc_passwd.pdf'],
    ['a/b.pdf', 'a_b.pdf'],
    ['a\\b.pdf', 'a_b.pdf'],
    ['..', 'fallback.pdf'],
    ['.hidden.pdf', 'hidden.pdf'],
    ['report..final.pdf', 'report.final.pdf'],
    ['tab\there\nnewline.pdf', 'tabherenewline.pdf'],
    ['bidi\u202Efdp.exe', 'bidifdp.exe'],
    ['esc\u001b]0;title\u0007.pdf', 'esc]0;title.pdf'],
    ['con:trol?.pdf', 'con_trol_.pdf'],
    ['  spaced  ', 'spaced.pdf'],
    ['no extension', 'no extension.pdf'],
    ['Übersicht 2024.PDF', 'Übersicht 2024.PDF'],
    ['', 'fallback.pdf'],
    [null, 'fallback.pdf'],
    ['///', 'fallback.pdf'],
  ])('%j → %j', (raw, expected) => {
    expect(safeFileName(raw, 'fallback')).toBe(expected);
  });

  it('cuts a long name and keeps its extension', () => {
    const name = safeFileName(`${'x'.repeat(500)}.pdf`, 'fallback');
    expect(Buffer.byteLength(name)).toBe(120);
    expect(name.endsWith('x.pdf')).toBe(true);
  });

  it('cuts by bytes of UTF-8, between code points', () => {
    // 130 CJK characters are 390 bytes: too long for most file systems although 130 "characters".
    const cjk = safeFileName(`${'契'.repeat(130)}.pdf`, 'fallback');
    expect(Buffer.byteLength(cjk)).toBeLessThanOrEqual(120);
    expect(cjk).toBe(`${'契'.repeat(38)}.pdf`);
    // Four bytes each, two UTF-16 units: never half of one.
    const emoji = safeFileName(`${'🎵'.repeat(40)}.pdf`, 'fallback');
    expect(emoji).toBe(`${'🎵'.repeat(29)}.pdf`);
    expect(emoji).not.toMatch(/\p{Surrogate}/u); // no lone half of a pair
  });
});

describe('NameClaims', () => {
  it('suffixes a clash, compared without case', () => {
    const claims = new NameClaims();
    expect(['a.pdf', 'A.pdf', 'a.pdf', 'a (2).pdf', 'b'].map((n) => claims.claim(n))).toEqual([
      'a.pdf',
      'A (2).pdf',
      'a (3).pdf',
      'a (2) (2).pdf',
      'b',
    ]);
  });
});

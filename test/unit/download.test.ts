import { describe, expect, it } from 'vitest';
import { NameClaims, safeFileName } from '../../src/lib/download.js';

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
    expect(name).toHaveLength(120);
    expect(name.endsWith('x.pdf')).toBe(true);
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

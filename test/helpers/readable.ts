// What a person reads: tables and records draw names, never a JavaScript object or raw JSON.
import { expect } from 'vitest';

/** No `[object Object]`, no raw JSON, no NaN or `undefined` in any cell (tab- or space-separated). */
export function expectReadable(text: string): void {
  expect(text).not.toContain('[object Object]');
  for (const line of text.split('\n')) {
    for (const cell of line.split(/\t| {2,}/)) {
      expect(cell, `a cell of: ${line}`).not.toMatch(/^\s*(\{"|\[\{|\["|\[\]|\{\})/);
      expect(cell, `a cell of: ${line}`).not.toMatch(/\bNaN\b|\bundefined\b/);
    }
  }
}

import { describe, expect, it } from 'vitest';
import { deepJsonText, jsonText, tooDeep } from '../../src/lib/output/deep-json.js';

/** `{"a": {"a": … 1}}`, `depth` objects deep. */
const nested = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

describe('deep-json', () => {
  const values: unknown[] = [
    { id: 1, name: 'x "quoted"\n', list: [1, 'two', null, true, { inner: [] }, {}], skip: undefined, f: () => 1 },
    [undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 'é\u2028'],
    { date: new Date(0), nested: nested(40) },
    [],
    {},
    'text',
    12,
  ];
  it.each([0, 2])('writes the text JSON.stringify writes (indent %i)', (indent) => {
    for (const value of values)
      expect(deepJsonText(value, indent)).toBe(JSON.stringify(value, null, indent === 0 ? undefined : indent));
  });

  it('writes a value nested 10,000 deep that JSON.stringify cannot, and JSON.parse reads it back', () => {
    const value = { id: 7, deep: nested(10_000) };
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    const compact = jsonText(value);
    expect(compact).toBe(`{"id":7,"deep":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`);
    const pretty = jsonText(value, 2);
    // The same value (compared as compact text: a recursive deep equality would overflow too).
    expect(jsonText(JSON.parse(pretty))).toBe(compact);
    // Compact past 100 levels: not 100 MB of indentation.
    expect(pretty.length).toBeLessThan(200_000);
  });

  it('names the first field nested deeper than a limit, and its depth', () => {
    expect(tooDeep([{ id: 1, deep: nested(50) }], 20)).toEqual({ path: '0.deep.a.a.…', depth: 52 });
    expect(tooDeep([{ id: 1, deep: nested(5) }], 20)).toBeUndefined();
  });
});

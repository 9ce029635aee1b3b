// The option check without zod (verb-check.ts) returns what the zod check does, for every verb.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { plainOptions } from '../../src/lib/verb-check.js';
import { checkOptions } from '../../src/lib/verb-options.js';
import type { AnyVerb, FlagSpec } from '../../src/lib/verb.js';

const verbs: AnyVerb[] = COMMANDS.flatMap((entry) =>
  'verbs' in entry ? [...entry.verbs, ...(entry.ownVerb ? [entry.ownVerb] : [])] : [entry],
);

function samples(spec: FlagSpec): unknown[] {
  switch (spec.type) {
    case 'boolean':
      return [true, false, undefined, 'yes'];
    case 'string':
      return ['x', ' ', '', undefined, 3];
    case 'list':
      return ['a,b', ['a', 'b, c'], [], undefined, [1]];
    case 'repeated':
      return [['a, b'], [], undefined, 'a'];
    case 'number':
      return [
        String(spec.min),
        ` ${spec.min} `,
        String(spec.min - 1),
        spec.max === undefined ? '1e9' : String(spec.max + 1),
        '1.5',
        'abc',
        '',
        undefined,
      ];
    case 'choice':
      return [...spec.choices, 'nope', true, undefined];
  }
}

describe('plainOptions', () => {
  it('takes what the zod check takes, with the same result, and leaves the rest to it', () => {
    let taken = 0;
    for (const verb of verbs) {
      const args = (verb.args ?? []).map((arg) => (arg.variadic ? ['f1', 'f2'] : 'value'));
      const required = Object.fromEntries(
        Object.entries(verb.flags ?? {}).flatMap(([key, spec]) =>
          spec.type === 'string' && spec.required ? [[key, 'x']] : [],
        ),
      );
      const inputs: Record<string, unknown>[] = [
        { args },
        { args: (verb.args ?? []).map(() => undefined) },
        { args: [...args, 'extra'] },
      ];
      for (const [key, spec] of Object.entries(verb.flags ?? {}))
        for (const value of samples(spec)) inputs.push({ ...required, [key]: value, args });
      for (const input of inputs) {
        let expected: { ok: true; value: unknown } | { ok: false };
        try {
          expected = { ok: true, value: checkOptions(verb, input) };
        } catch {
          expected = { ok: false };
        }
        const plain = plainOptions(verb, input);
        if (plain === undefined) continue;
        taken++;
        const actual = plain;
        expect({ verb: verb.name, input, ok: expected.ok }).toEqual({ verb: verb.name, input, ok: true });
        if (expected.ok) {
          expect(actual).toStrictEqual(expected.value);
          expect(Object.keys(actual)).toEqual(Object.keys(expected.value as object));
        }
      }
      expect({ verb: verb.name, taken: plainOptions(verb, { ...required, args }) !== undefined }).toEqual({
        verb: verb.name,
        taken: true,
      });
    }
    expect(taken).toBeGreaterThan(100);
  });
});

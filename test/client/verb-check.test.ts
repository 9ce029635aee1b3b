// A verb's options are checked by one rule per flag (verb-check.ts): the CLI applies it directly,
// and an agent's tool input (verb-options.ts, zod) wraps the same rule, so both take and refuse
// alike, with the same words.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { checkFlag, checkOptions } from '../../src/lib/verbs/check.js';
import { flagSchema } from '../../src/lib/verbs/options.js';
import { UsageError } from '../../src/lib/errors.js';
import type { AnyVerb, FlagSpec } from '../../src/lib/verbs/verb.js';

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

describe('one rule per flag', () => {
  it("an agent's tool input takes and refuses what the CLI does, with the same result and words", () => {
    let refused = 0;
    for (const verb of verbs) {
      for (const [key, spec] of Object.entries(verb.flags ?? {})) {
        for (const value of samples(spec)) {
          const cli = checkFlag(key, spec, value);
          const parsed = flagSchema(key, spec).safeParse(value);
          const tool = parsed.success
            ? { ok: true, value: parsed.data }
            : { ok: false, error: parsed.error.issues[0]?.message };
          const where = { verb: verb.name, key, value };
          if (cli.ok) expect({ ...where, ...tool }).toStrictEqual({ ...where, ...cli });
          else {
            refused++;
            expect({ ...where, ok: tool.ok }).toEqual({ ...where, ok: false });
            // A value of the wrong JSON type is refused by the tool's type before the rule words it.
            if (parsed.error?.issues[0]?.code === 'custom') expect(tool).toEqual(cli);
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('words a value out of range with the flag, and every fault of one command line', () => {
    const ls = verbs.find((verb) => verb.name === 'ls' && verb.description === 'list contracts');
    if (!ls) throw new Error('no `contracts ls`');
    expect(checkOptions(ls, { args: [], perPage: '20', all: true })).toEqual({
      args: [],
      page: 1,
      perPage: 20,
      all: true,
      resource: 'contracts',
    });
    let error: unknown;
    try {
      checkOptions(ls, { args: [], perPage: '0', page: 'x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      message: "invalid --page 'x': expected a whole number ≥ 1",
      details: ["invalid --per-page '0': expected a whole number from 1 to 100"],
    });
  });
});

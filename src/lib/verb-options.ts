// The zod check of a verb's options, derived from its definition (verb-check.ts takes the options
// that are well formed without it; this words the usage error of the others): what
// commander collected (strings, booleans, arrays) becomes the typed options of `run`, and a value
// out of range is a usage error worded with the flag's own name.
import * as z from 'zod/mini';
import { UsageError } from './errors.js';
import { commaList } from './verb-check.js';
import { flagName, rangeText, type ArgSpec, type FlagSpec, type VerbSpec } from './verb.js';

export { commaList };

/** A number from the string commander passes, within the spec's range; `flag` names it in the error. */
export function numeric(flag: string, spec: Extract<FlagSpec, { type: 'number' }>) {
  const kind = spec.seconds ? '' : spec.integer ? 'a whole number ' : 'a number ';
  return z.pipe(
    z.string(),
    z.transform((value, ctx) => {
      const n = Number(value);
      const shaped = spec.integer ? /^\s*-?\d+\s*$/.test(value) : value.trim() !== '';
      if (!shaped || !Number.isFinite(n) || n < spec.min || (spec.max !== undefined && n > spec.max)) {
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `invalid ${flag} '${value}': expected ${kind}${rangeText(spec)}`,
        });
        return z.NEVER;
      }
      return n;
    }),
  );
}

function choice(flag: string, choices: readonly string[], bare: string | undefined) {
  const checked = z.string().check(
    z.refine((value) => choices.includes(value), {
      // A flag whose value may be left out takes the next word when it does not start with '-':
      // `--skip-existing a.pdf` is a file taken for the value, said so.
      error: (issue) =>
        `invalid ${flag} '${String(issue.input)}': expected one of ${choices.join(', ')}` +
        (bare === undefined ? '' : ` (write ${flag}=<${choices.join('|')}>, or put ${flag} after the files)`),
    }),
  );
  if (bare === undefined) return checked;
  // commander hands over `true` when the value was left out.
  const given = z.pipe(
    z.union([z.literal(true), z.string()]),
    z.transform((value) => (value === true ? bare : value)),
  );
  return z.pipe(given, checked);
}

/** The check of one flag's value (also the input of the agents' tools that take the flag). */
export function flagSchema(key: string, spec: FlagSpec): z.ZodMiniType {
  const flag = flagName(key, spec);
  switch (spec.type) {
    case 'boolean':
      return z.optional(z.boolean());
    case 'string': {
      const text = spec.nonEmpty
        ? z.string().check(z.refine((value) => value.trim() !== '', { error: `invalid ${flag}: empty` }))
        : z.string();
      return spec.required ? text : z.optional(text);
    }
    case 'list':
      // An array from commander (or an agent's tool call), or one string (a tool call).
      return z.optional(
        z.pipe(
          z.union([z.string(), z.array(z.string())]),
          z.transform((values) => commaList(values)),
        ),
      );
    case 'repeated':
      return z._default(z.array(z.string()), () => []);
    case 'number':
      return spec.default === undefined
        ? z.optional(numeric(flag, spec))
        : z._default(numeric(flag, spec), spec.default);
    case 'choice':
      return spec.default === undefined
        ? z.optional(choice(flag, spec.choices, spec.bare))
        : z._default(choice(flag, spec.choices, spec.bare), spec.default);
  }
}

function argSchema(arg: ArgSpec): z.ZodMiniType {
  if (arg.variadic) return z._default(z.array(z.string()), () => []);
  return arg.required ? z.string() : z.optional(z.string());
}

/** The checked options of a verb, or a usage error naming what is wrong. */
export function checkOptions(def: VerbSpec, input: Record<string, unknown>): Record<string, unknown> {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [key, spec] of Object.entries(def.flags ?? {})) shape[key] = flagSchema(key, spec);
  const args = (def.args ?? []).map(argSchema);
  shape.args = z.tuple(args as [z.ZodMiniType, ...z.ZodMiniType[]]);
  const parsed = z.object(shape).safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    // A custom check (ranges, choices) words its message with the flag's own name.
    const field = issue.code === 'custom' ? '' : issue.path.filter((p) => p !== 'args').join('.');
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw new UsageError(lines[0] ?? 'invalid input', { details: lines.slice(1) });
}

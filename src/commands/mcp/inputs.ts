// A tool's inputs and outputs as schemas: a verb's flags and arguments wrapped in the verb's own
// checks (lib/verbs/options.ts), the agent's words for them, and the shape of a list it is answered.
import * as z from 'zod/mini';
import { flagSchema } from '../../lib/verbs/options.js';
import type { AnyVerb, ArgSpec, FlagSpec, FlagValue } from '../../lib/verbs/verb.js';

export const describe = <T extends z.ZodMiniType>(schema: T, text: string): T => schema.check(z.describe(text)) as T;

/** An agent sends numbers as JSON numbers; the verb's checks take text, as commander passes it. */
export const numberOrText = z.pipe(z.union([z.number(), z.string()]), z.transform(String));

/** A flag as a tool input: the verb's own check (numbers taken as JSON numbers too). */
export function flagInput<S extends FlagSpec>(key: string, spec: S): z.ZodMiniType<FlagValue<S>> {
  return describe(flagSchema(key, spec), spec.toolHelp ?? spec.help);
}

/** A verb's flags as tool inputs, each typed by what its rule makes. */
export type FlagInputs<F extends Record<string, FlagSpec>> = { [K in keyof F]: z.ZodMiniType<FlagValue<F[K]>> };

export function flagInputs<F extends Record<string, FlagSpec>>(flags: F): FlagInputs<F> {
  // Object.fromEntries forgets the keys: each entry is the flag's own input, as the type says.
  return Object.fromEntries(Object.entries(flags).map(([key, spec]) => [key, flagInput(key, spec)])) as FlagInputs<F>;
}

function argInput(arg: ArgSpec): z.ZodMiniType {
  if (!arg.variadic) return describe(arg.required ? numberOrText : z.optional(numberOrText), arg.help);
  // One string is one value (a tag, the whole query): an agent need not split it.
  const values = z.pipe(
    z.union([z.string(), z.array(z.string())]),
    z.transform((v) => (typeof v === 'string' ? [v] : v)),
  );
  return describe(arg.required ? values : z.optional(values), `${arg.help}: a list, or one string`);
}

/**
 * A verb's own inputs: its arguments under the names the tool gives them (in the verb's order),
 * then its flags under their keys, each with its help as description and its check; and those
 * names, which the verb takes as its arguments (a verb tool's spec takes both: `...verbInputs()`).
 */
export function verbInputs(
  verb: AnyVerb,
  argNames: readonly string[],
): { input: Record<string, z.ZodMiniType>; args: readonly string[] } {
  const specs = verb.args ?? [];
  if (specs.length !== argNames.length)
    throw new Error(`pds ${verb.name}: ${specs.length} arguments, ${argNames.length} names`);
  const input: Record<string, z.ZodMiniType> = {};
  specs.forEach((arg, index) => {
    input[argNames[index] ?? arg.name] = argInput(arg);
  });
  for (const [key, flag] of Object.entries(verb.flags ?? {})) input[key] = flagInput(key, flag);
  return { input, args: argNames };
}

/** The next page's cursor in structuredContent; null on the last page. */
export const nextCursor = z.nullable(z.string());
/** A list as structuredContent: its records, the next cursor, and the total where known. */
export const listOutput = (item: z.ZodMiniType) =>
  z.object({ items: z.array(item), next_cursor: nextCursor, total: z.optional(z.number()) });

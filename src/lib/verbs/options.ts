// A flag's check as a zod schema, for the agents' tools (src/commands/mcp/): the tool's input
// schema (its JSON schema, and the check of a call) wraps the same rule the CLI checks with
// (verb-check.ts), so a range or a choice is written once. The CLI never loads this module.
import * as z from 'zod/mini';
import { checkFlag } from './check.js';
import type { FlagSpec, FlagValue } from './verb.js';

/** What a flag's value may be before its rule: the types a tool's JSON schema offers. */
function inputType(spec: FlagSpec): z.ZodMiniType {
  switch (spec.type) {
    case 'boolean':
      return z.boolean();
    case 'string':
      return z.string();
    // An array from commander (or an agent's tool call), or one string (a tool call).
    case 'list':
      return z.union([z.string(), z.array(z.string())]);
    case 'repeated':
      return z.array(z.string());
    // An agent sends numbers as JSON numbers; commander passes text.
    case 'number':
      return z.union([z.number(), z.string()]);
    case 'choice':
      return spec.bare === undefined ? z.string() : z.union([z.literal(true), z.string()]);
  }
}

/**
 * The check of one flag's value, as a zod schema: its type, then the CLI's own rule. `name` is how
 * its messages call it (default: the flag, `--per-page`).
 */
export function flagSchema<S extends FlagSpec>(key: string, spec: S, name?: string): z.ZodMiniType<FlagValue<S>> {
  // The rule's value is of the kind the spec declares (checkFlag's contract): the type says which.
  return anyFlagSchema(key, spec, name) as z.ZodMiniType<FlagValue<S>>;
}

function anyFlagSchema(key: string, spec: FlagSpec, name?: string): z.ZodMiniType {
  const ruled = z.pipe(
    inputType(spec),
    z.transform((value, ctx) => {
      const checked = checkFlag(key, spec, value, name);
      if (checked.ok) return checked.value;
      ctx.issues.push({ code: 'custom', input: value, message: checked.error });
      return z.NEVER;
    }),
  );
  // Left out: what the rule makes of nothing (the default, an empty list, or nothing).
  const absent = checkFlag(key, spec, undefined);
  if (absent.ok && absent.value !== undefined) return z._default(ruled, () => absent.value);
  return spec.type === 'string' && spec.required ? ruled : z.optional(ruled);
}

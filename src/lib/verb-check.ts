// The check of a verb's options without zod: what commander collected, checked and typed as the
// zod check in verb-options.ts does, for the options as they come almost always (well formed). A
// value this does not take as it stands goes to that zod check, which words the usage error (or
// takes it): zod, whose core and schemas cost ~20 ms of a start, loads only then.
import type { ArgSpec, FlagSpec, Options, VerbSpec } from './verb.js';

/** `--include a,b --include c` → ['a', 'b', 'c']. */
export function commaList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return (typeof value === 'string' ? [value] : value)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The checked options of a verb, or a usage error naming what is wrong. */
export async function checkOptions<
  F extends Record<string, FlagSpec>,
  A extends readonly ArgSpec[],
  X extends Record<string, unknown>,
>(def: VerbSpec<F, A, X>, input: Record<string, unknown>): Promise<Options<F, A, X>> {
  const checked = plainOptions(def, input) ?? (await import('./verb-options.js')).checkOptions(def, input);
  return checkedAs(def, { ...checked, ...def.fixed });
}

/**
 * Values checked against a definition's flags and arguments (here, by verb-options.ts's schemas, or
 * by an MCP tool's input schema built from them), typed as the options it parses: the one place
 * where a check's result takes the definition's type.
 */
export function checkedAs<
  F extends Record<string, FlagSpec>,
  A extends readonly ArgSpec[],
  X extends Record<string, unknown>,
>(_def: VerbSpec<F, A, X>, values: Record<string, unknown>): Options<F, A, X> {
  return values as Options<F, A, X>;
}

/** Not taken here: the zod check decides. */
const NOT_TAKEN: unique symbol = Symbol('not taken');

/**
 * The options as the zod check returns them (its object keeps the shape's keys in order: a key
 * absent from the input stays absent unless it has a default), or undefined for the zod check.
 */
export function plainOptions(def: VerbSpec, input: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(def.flags ?? {})) {
    const value = flagValue(spec, input[key]);
    if (value === NOT_TAKEN) return undefined;
    if (value !== undefined || key in input) out[key] = value;
  }
  const args = argValues(def.args ?? [], input.args);
  if (args === undefined) return undefined;
  out.args = args;
  return out;
}

/** The checked value of one flag (undefined: not given, no default), or NOT_TAKEN. */
function flagValue(spec: FlagSpec, value: unknown): unknown {
  switch (spec.type) {
    case 'boolean':
      return value === undefined || typeof value === 'boolean' ? value : NOT_TAKEN;
    case 'string':
      if (value === undefined) return spec.required ? NOT_TAKEN : undefined;
      if (typeof value !== 'string' || (spec.nonEmpty && value.trim() === '')) return NOT_TAKEN;
      return value;
    case 'list':
      if (value === undefined) return undefined;
      return typeof value === 'string' || isStrings(value) ? commaList(value) : NOT_TAKEN;
    case 'repeated':
      if (value === undefined) return [];
      return isStrings(value) ? [...value] : NOT_TAKEN;
    case 'number': {
      if (value === undefined) return spec.default;
      if (typeof value !== 'string') return NOT_TAKEN;
      const n = Number(value);
      const shaped = spec.integer ? /^\s*-?\d+\s*$/.test(value) : value.trim() !== '';
      const inRange = Number.isFinite(n) && n >= spec.min && (spec.max === undefined || n <= spec.max);
      return shaped && inRange ? n : NOT_TAKEN;
    }
    case 'choice': {
      if (value === undefined) return spec.default;
      const given = value === true && spec.bare !== undefined ? spec.bare : value;
      return typeof given === 'string' && spec.choices.includes(given) ? given : NOT_TAKEN;
    }
  }
}

function argValues(specs: readonly ArgSpec[], given: unknown): unknown[] | undefined {
  // commander hands over one entry per declared argument (undefined when left out).
  if (!Array.isArray(given) || given.length !== specs.length) return undefined;
  const values: unknown[] = [];
  for (const [index, spec] of specs.entries()) {
    const value: unknown = given[index];
    if (spec.variadic) {
      if (value === undefined) values.push([]);
      else if (isStrings(value)) values.push([...value]);
      else return undefined;
    } else if (typeof value === 'string' || (value === undefined && !spec.required)) values.push(value);
    else return undefined;
  }
  return values;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

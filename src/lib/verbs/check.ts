// The check of a verb's options: what commander collected (strings, booleans, arrays) becomes the
// typed options of `run`, and a value out of range is a usage error worded with the flag's own
// name. Each rule is written once, here, in plain code: the CLI checks with it directly (no zod on
// a run's path), and the agents' tools wrap the same rule in their zod input schemas
// (verb-options.ts).
import { UsageError } from '../errors.js';
import { commaList } from '../output/text.js';
import { DURATION_FORMS, parseDuration } from '../clock.js';
import { flagName, rangeText, type ArgSpec, type FlagSpec, type Options, type VerbSpec } from './verb.js';

/** A value checked: what the options hold, or what is wrong with it, in words that name the flag. */
export type Checked = { ok: true; value: unknown } | { ok: false; error: string };

const ok = (value: unknown): Checked => ({ ok: true, value });
const wrong = (error: string): Checked => ({ ok: false, error });

/**
 * The checked value of one flag (undefined: not given, and no default). `flag` is how a message
 * names it: `--per-page` on the command line, an agent's tool input by its own name.
 */
export function checkFlag(key: string, spec: FlagSpec, value: unknown, flag = flagName(key, spec)): Checked {
  switch (spec.type) {
    case 'boolean':
      return value === undefined || typeof value === 'boolean' ? ok(value) : wrong(`invalid ${flag}: takes no value`);
    case 'string':
      if (value === undefined) return spec.required ? wrong(`${flag} is required`) : ok(undefined);
      if (typeof value !== 'string') return wrong(`invalid ${flag}: expected text`);
      return spec.nonEmpty && value.trim() === '' ? wrong(`invalid ${flag}: empty`) : ok(value);
    case 'list':
      if (value === undefined) return ok(undefined);
      return typeof value === 'string' || isStrings(value)
        ? ok(commaList(value))
        : wrong(`invalid ${flag}: expected words separated by commas`);
    case 'repeated':
      if (value === undefined) return ok([]);
      return isStrings(value) ? ok([...value]) : wrong(`invalid ${flag}: expected a value for each ${flag}`);
    case 'number':
      return value === undefined ? ok(spec.default) : checkNumber(flag, spec, value);
    case 'choice':
      return value === undefined ? ok(spec.default) : checkChoice(flag, spec, value);
  }
}

function checkNumber(flag: string, spec: Extract<FlagSpec, { type: 'number' }>, value: unknown): Checked {
  const text = typeof value === 'number' ? String(value) : value;
  const kind = spec.seconds ? '' : spec.integer ? 'a whole number ' : 'a number ';
  const expected = `expected ${kind}${rangeText(spec)}`;
  if (typeof text !== 'string') return wrong(`invalid ${flag}: ${expected}`);
  if (spec.seconds) return checkSeconds(flag, spec, text, expected);
  const n = Number(text);
  const shaped = spec.integer ? /^\s*-?\d+\s*$/.test(text) : text.trim() !== '';
  const inRange = Number.isFinite(n) && n >= spec.min && (spec.max === undefined || n <= spec.max);
  return shaped && inRange ? ok(n) : wrong(`invalid ${flag} '${text}': ${expected}`);
}

/** A flag that takes seconds takes a duration too: `90`, `90s`, `5m`, `1h`, `1m30s`. */
function checkSeconds(
  flag: string,
  spec: Extract<FlagSpec, { type: 'number' }>,
  text: string,
  expected: string,
): Checked {
  const n = parseDuration(text);
  const inRange =
    n !== undefined &&
    n >= spec.min &&
    (spec.max === undefined || n <= spec.max) &&
    (!spec.integer || Number.isInteger(n));
  return inRange ? ok(n) : wrong(`invalid ${flag} '${text}': ${expected} (${DURATION_FORMS})`);
}

function checkChoice(flag: string, spec: Extract<FlagSpec, { type: 'choice' }>, value: unknown): Checked {
  // commander hands over `true` when a value that may be left out was.
  const given = value === true && spec.bare !== undefined ? spec.bare : value;
  if (typeof given === 'string' && spec.choices.includes(given)) return ok(given);
  // A flag whose value may be left out takes the next word when it does not start with '-':
  // `--skip-existing a.pdf` is a file taken for the value, said so.
  const hint =
    spec.bare === undefined ? '' : ` (write ${flag}=<${spec.choices.join('|')}>, or put ${flag} after the files)`;
  return wrong(`invalid ${flag} '${String(given)}': expected one of ${spec.choices.join(', ')}${hint}`);
}

/** The checked value of one argument (commander hands over undefined for one left out). */
export function checkArg(spec: ArgSpec, value: unknown): Checked {
  if (spec.variadic) {
    if (value === undefined) return spec.required ? wrong(`missing argument '${spec.name}'`) : ok([]);
    return isStrings(value) ? ok([...value]) : wrong(`invalid ${spec.name}: expected words`);
  }
  if (value === undefined) return spec.required ? wrong(`missing argument '${spec.name}'`) : ok(undefined);
  return typeof value === 'string' ? ok(value) : wrong(`invalid ${spec.name}: expected a word`);
}

/**
 * The checked options of a verb, or a usage error naming what is wrong (the first fault, the
 * others as details). A key absent from the input stays absent unless it has a default.
 */
export function checkOptions<
  F extends Record<string, FlagSpec>,
  A extends readonly ArgSpec[],
  X extends Record<string, unknown>,
>(def: VerbSpec<F, A, X>, input: Record<string, unknown>): Options<F, A, X> {
  const out: Record<string, unknown> = {};
  const faults: string[] = [];
  for (const [key, spec] of Object.entries(def.flags ?? {})) {
    const checked = checkFlag(key, spec, input[key]);
    if (!checked.ok) faults.push(checked.error);
    else if (checked.value !== undefined || key in input) out[key] = checked.value;
  }
  const specs: readonly ArgSpec[] = def.args ?? [];
  const given: unknown[] = Array.isArray(input.args) ? input.args : [];
  const args: unknown[] = [];
  for (const [index, spec] of specs.entries()) {
    const checked = checkArg(spec, given[index]);
    if (checked.ok) args.push(checked.value);
    else faults.push(checked.error);
  }
  const [first, ...more] = faults;
  if (first !== undefined) throw new UsageError(first, { details: more });
  return checkedAs(def, { ...out, args, ...def.fixed });
}

/**
 * Values checked against a definition's flags and arguments (here, or by an agent's tool whose
 * input schema wraps these same rules), typed as the options it parses: the one place where a
 * check's result takes the definition's type.
 */
export function checkedAs<
  F extends Record<string, FlagSpec>,
  A extends readonly ArgSpec[],
  X extends Record<string, unknown>,
>(_def: VerbSpec<F, A, X>, values: Record<string, unknown>): Options<F, A, X> {
  return values as Options<F, A, X>;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

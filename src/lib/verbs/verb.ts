// One definition per verb: its arguments, flags (name, type, range, default, help), examples and
// handler in one object. The commander command, the zod check of what commander parsed, the help
// page and the completion candidates are all derived from it here; nothing else declares a flag.
//
// Definitions are plain data so that registering every noun costs nothing at start-up: zod
// schemas are built, and the verb's module (with the HTTP, table and spinner code behind it) is
// imported, only when that verb runs.
import type { Command } from 'commander';
import type { Context } from '../context.js';

/** Where completion finds a value: a fixed list, or one looked up when Tab is pressed. */
export type Completion = readonly string[] | 'profiles' | 'projects' | 'projects and names' | 'fields';

interface FlagCommon {
  help: string;
  /** What an agent's tool says of it (commands/mcp/), where the command line's words do not fit a tool: they name other flags or a table. */
  toolHelp?: string;
  /** One letter: `-o` for `--output`. */
  short?: string;
  completion?: Completion;
  /** Accepted but not listed in help (kept for scripts written against an older name). */
  hidden?: boolean;
}

/** A flag's kind decides what commander collects and what the checked options hold. */
export type FlagSpec =
  /** `--all`; `negated` declares `--no-<name>`, whose value is false when given and true otherwise. */
  | (FlagCommon & { type: 'boolean'; negated?: boolean })
  | (FlagCommon & { type: 'string'; value: string; required?: boolean; nonEmpty?: boolean })
  /** Comma-separated, repeatable: `--include a,b --include c` → ['a', 'b', 'c']. */
  | (FlagCommon & { type: 'list'; value: string })
  /** Repeatable, each value kept whole (`-H 'A: b, c'`). */
  | (FlagCommon & { type: 'repeated'; value: string })
  | (FlagCommon & {
      type: 'number';
      value: string;
      min: number;
      max?: number;
      integer?: boolean;
      seconds?: boolean;
      default?: number;
    })
  /**
   * One of `choices`. With `bare`, the value may be left out (`--skip-existing` or
   * `--skip-existing=content`) and then is `bare`.
   */
  | (FlagCommon & { type: 'choice'; value: string; choices: readonly string[]; default?: string; bare?: string });

export interface ArgSpec {
  name: string;
  help: string;
  required?: boolean;
  variadic?: boolean;
  completion?: Completion;
}

/**
 * An example of help: the line, what it does, and what it needs beyond the emulator when it cannot
 * run as written against `pds emulator start` (the examples test runs every other one).
 */
export type Example = readonly [line: string, note?: string, needs?: string];

/** `files`: it writes --format xlsx|parquet to -o FILE. */
export type Scripting = 'jq' | 'fields' | 'files';

/** What a verb's module exports: the work, over the options its definition parses. */
export interface VerbModule<O> {
  run: (opts: O, ctx: Context) => Promise<number | void>;
}

/**
 * Turns what commander (or a tool call) gave into a definition's options, or throws a usage error
 * (lib/verbs/check.ts). Generic, so that a definition's options keep their type through it.
 */
export type OptionsCheck = <
  F extends Record<string, FlagSpec>,
  A extends readonly ArgSpec[],
  X extends Record<string, unknown>,
>(
  def: VerbSpec<F, A, X>,
) => Promise<Options<F, A, X>>;

/** A verb's run, bound to its checked options: what the runner calls with the Context. */
export type BoundRun = (ctx: Context) => Promise<number | void>;

/** A verb as declared: plain data, no code of its own (see defineVerb). */
export interface VerbSpec<
  F extends Record<string, FlagSpec> = Record<string, FlagSpec>,
  A extends readonly ArgSpec[] = readonly ArgSpec[],
  X extends Record<string, unknown> = Record<string, unknown>,
> {
  name: string;
  aliases?: readonly string[];
  description: string;
  hidden?: boolean;
  args?: A;
  flags?: F;
  /** Values the registration fixes (which resource or kind a shared module serves). */
  fixed?: X;
  examples?: readonly Example[];
  /** Paragraphs shown under the options. */
  notes?: string;
  /** Its output is a document to read: on a terminal, long output goes through the pager. */
  paged?: boolean;
  /** Which of --jq and --fields mean something to it; the other is refused (exit 2), not ignored. */
  scripting?: readonly Scripting[];
  /**
   * How a verb that changes something takes --dry-run: 'honoured' (the checks and reads run, it says
   * what it would do, and writes nothing), or why it has none (then --dry-run is refused with exit 2,
   * never ignored). A verb that only reads leaves it out: --dry-run changes nothing there.
   */
  dryRun?: 'honoured' | { none: string };
  /** It may name a profile that does not exist (yet): one it creates, one it only names, or none. */
  allowsNewProfile?: boolean;
  /** It writes a whole new config (`auth login`): a config file that is not JSON is set aside, not fatal. */
  replacesBrokenConfig?: boolean;
  /**
   * What to say when it is given more arguments than it takes (always exit 2): `details` point to
   * what was meant; `secret` keeps the extra words out of the message (a token typed as one).
   */
  extraArguments?: { details: readonly string[]; secret?: boolean };
  /** commander passes unknown options through (the completion scripts' hidden helper). */
  allowUnknownOptions?: boolean;
}

/** A noun groups verbs: `pds contracts ls`. */
export interface NounDef {
  name: string;
  description: string;
  examples?: readonly Example[];
  notes?: string;
  /** What the noun alone runs (`pds mcp`); without one, the noun alone shows its help. */
  ownVerb?: AnyVerb;
  verbs: readonly AnyVerb[];
}

/**
 * A verb with its code: the definition, and how to run it. Its options' type stays inside
 * `prepare`, which checks them against the definition and loads the module together, so the
 * runner never holds options of a type it does not know.
 */
export interface AnyVerb extends VerbSpec {
  /** Checks the options (with `check`) and imports the verb's module; the run bound to them. */
  prepare(check: OptionsCheck): Promise<BoundRun>;
}

/** Keeps the literal types of a definition, from which its module's options are derived. */
export function verb<
  const F extends Record<string, FlagSpec> = Record<never, never>,
  const A extends readonly ArgSpec[] = [],
  const X extends Record<string, unknown> = Record<never, never>,
>(def: VerbSpec<F, A, X>): VerbSpec<F, A, X> {
  return def;
}

/** Whether two types are the same (each assignable to the other). */
type Same<P, O> = [P] extends [O] ? ([O] extends [P] ? true : false) : false;

/**
 * A definition and the module that runs it, typed together (as gh's `NewCmdX(f, runF)` with its
 * Options): the module's `run` must take exactly the options the definition parses, or this call
 * does not compile (it then asks for a third argument no one can give). The module is imported
 * only when the verb runs.
 */
export function defineVerb<
  F extends Record<string, FlagSpec>,
  A extends readonly ArgSpec[],
  X extends Record<string, unknown>,
  P,
>(
  def: VerbSpec<F, A, X>,
  load: () => Promise<VerbModule<Options<F, A, X>> & VerbModule<P>>,
  ...exact: Same<P, Options<F, A, X>> extends true ? [] : [runTakesOtherOptions: never]
): AnyVerb {
  void exact;
  return {
    ...def,
    async prepare(check) {
      const [opts, module] = await Promise.all([check(def), load()]);
      return (ctx) => module.run(opts, ctx);
    },
  };
}

/** What a flag's rule makes of its value, by its kind (what its checked option holds). */
export type FlagValue<S> = S extends undefined
  ? undefined
  : S extends { type: 'boolean'; negated: true }
    ? boolean
    : S extends { type: 'boolean' }
      ? boolean | undefined
      : S extends { type: 'list' }
        ? string[] | undefined
        : S extends { type: 'repeated' }
          ? string[]
          : S extends { type: 'number'; default: number }
            ? number
            : S extends { type: 'number' }
              ? number | undefined
              : S extends { type: 'choice'; choices: readonly (infer C)[]; default: string }
                ? C
                : S extends { type: 'choice'; choices: readonly (infer C)[] }
                  ? C | undefined
                  : S extends { required: true }
                    ? string
                    : string | undefined;

type ArgValue<S> = S extends { variadic: true } ? string[] : S extends { required: true } ? string : string | undefined;

type ArgValues<A> = { -readonly [K in keyof A]: ArgValue<A[K]> };

/** Every key of any of the flag sets F may be (a verb whose flags depend on what it serves). */
type KeysOfAny<F> = F extends unknown ? keyof F : never;
/** A flag's value in whichever set F is: undefined where that set has no such flag. */
type ValueIn<F, K> = F extends unknown ? (K extends keyof F ? FlagValue<F[K]> : undefined) : never;

/**
 * The checked values of a set of flags. A definition whose flags depend on its kind (uploads:
 * --extract for contracts only) has them all, each possibly undefined where a kind lacks it.
 */
export type FlagValues<F> = { [K in KeysOfAny<F>]: ValueIn<F, K> };

/** The checked options a verb's `run` receives. */
export type Options<F, A, X> = { args: ArgValues<A> } & FlagValues<F> & X;

/** The checked options of a definition (`OptionsOf<typeof ls>`). */
export type OptionsOf<D> = D extends VerbSpec<infer F, infer A, infer X> ? Options<F, A, X> : never;

/** `perPage` → `--per-page` (commander's attribute name, backwards). */
export function flagName(key: string, spec: FlagSpec): string {
  const kebab = key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return spec.type === 'boolean' && spec.negated ? `--no-${kebab}` : `--${kebab}`;
}

/** The range a number flag takes, in words: "from 1 to 32", "≥ 0", "seconds from 1 to 600". */
export function rangeText(spec: Extract<FlagSpec, { type: 'number' }>): string {
  const range = spec.max === undefined ? `≥ ${spec.min}` : `from ${spec.min} to ${spec.max}`;
  return spec.seconds ? `seconds ${range}` : range;
}

/** The help line: the author's words, then the range and default the spec holds. */
export function flagHelp(spec: FlagSpec): string {
  const facts: string[] = [];
  if (spec.type === 'number') facts.push(rangeText(spec));
  if (spec.type === 'choice') facts.push(spec.choices.join(', '));
  if ((spec.type === 'number' || spec.type === 'choice') && spec.default !== undefined)
    facts.push(`default ${spec.default}`);
  return facts.length === 0 ? spec.help : `${spec.help} (${facts.join('; ')})`;
}

/** The definition each registered command came from, for completion and help. */
const definitions = new WeakMap<Command, AnyVerb | NounDef>();

export function definitionOf(command: Command): AnyVerb | NounDef | undefined {
  return definitions.get(command);
}

export function remember(command: Command, def: AnyVerb | NounDef): void {
  definitions.set(command, def);
}

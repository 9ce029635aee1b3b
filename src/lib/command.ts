// Glue between commander and a verb module. Kept free of runtime imports so that registering
// every noun costs nothing: the verb's module (and the HTTP, table and spinner code behind it) is
// imported only when that verb runs.
import type { Command } from 'commander';
import type * as z from 'zod/mini';
import type { Context, Dependencies } from './context.js';
import type { GlobalFlags } from './config.js';

export interface VerbModule<S extends z.ZodMiniType = z.ZodMiniType> {
  /** What the verb accepts: commander's options and positional arguments (`args`), checked. */
  Options: S;
  /** Its output is a document to read: on a terminal, long output goes through the pager. */
  paged?: boolean;
  /**
   * Which of --jq (it prints JSON with --json) and --fields (it prints a list or a record) mean
   * something to it; the other is refused, exit 2, rather than ignored.
   */
  scripting?: readonly ('jq' | 'fields')[];
  /** It may name a profile that does not exist (yet): one it creates, one it only names, or it uses none. */
  allowsNewProfile?: boolean;
  /** Does the work; returns an exit code (default 0) or throws a typed error. */
  run(opts: z.infer<S>, ctx: Context): Promise<number | void>;
  /** The verb writes a whole new config (`auth login`): a config file that is not JSON is set aside, not fatal. */
  replacesBrokenConfig?: boolean;
}

/** Set by cli.ts: turns global flags into a Context and records the verb's exit code. */
export interface Runner {
  run(load: () => Promise<VerbModule>, input: Record<string, unknown>, flags: GlobalFlags, path?: string): Promise<void>;
  deps: Dependencies;
}

/**
 * The action of a verb: gathers positional arguments (as `args`, in declaration order), options
 * and `fixed` values (e.g. which resource a shared verb serves), then lets the runner load the
 * module, check the options and run it.
 */
export function lazyAction(runner: Runner, load: () => Promise<VerbModule>, fixed: Record<string, unknown> = {}) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    // The global options are those of the root program: adding one there is all it takes.
    let root = command;
    while (root.parent) root = root.parent;
    const globalNames = new Set(root.options.map((option) => option.attributeName()));
    const flags: Record<string, unknown> = {};
    const own: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(command.optsWithGlobals())) {
      (globalNames.has(name) ? flags : own)[name] = value;
    }
    const path: string[] = [];
    for (let current: Command | null = command; current; current = current.parent) path.unshift(current.name());
    await runner.run(load, { ...own, ...fixed, args: command.processedArgs }, flags as GlobalFlags, path.join(' '));
  };
}

/** Collects a repeatable option into an array (commander's custom option parser). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

// Verb and noun definitions → commander commands. The action gathers what commander parsed and
// hands it, with the definition, to the runner (cli.ts), which checks it and runs the verb.
import { UsageError } from '../errors.js';
import { Option, type Command } from 'commander';
import type { GlobalFlags } from '../config/settings.js';
import type { Dependencies } from '../context.js';
import { flagHelp, flagName, remember, type AnyVerb, type FlagSpec, type NounDef } from './verb.js';
import { examplesHelp, helpNotes } from './help.js';
import { safeText } from '../output/text.js';

/** Set by cli.ts: turns global flags into a Context and records the verb's exit code. */
export interface Runner {
  run(def: AnyVerb, input: Record<string, unknown>, flags: GlobalFlags, path: string): Promise<void>;
  deps: Dependencies;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The commander option of one flag of a definition. */
export function commanderOption(key: string, spec: FlagSpec): Option {
  const name = flagName(key, spec);
  const value =
    spec.type === 'boolean'
      ? ''
      : spec.type === 'choice' && spec.bare !== undefined
        ? ` [${spec.value}]`
        : ` <${spec.value}>`;
  const syntax = `${spec.short ? `-${spec.short}, ` : ''}${name}${value}`;
  const option = new Option(syntax, flagHelp(spec));
  if (spec.type === 'list' || spec.type === 'repeated') option.argParser(collect);
  if (spec.type === 'string' && spec.required) option.makeOptionMandatory();
  if (spec.hidden) option.hideHelp();
  return option;
}

export function addFlags(command: Command, flags: Record<string, FlagSpec> | undefined): void {
  for (const [key, spec] of Object.entries(flags ?? {})) command.addOption(commanderOption(key, spec));
}

function addHelp(command: Command, def: { notes?: string; examples?: NounDef['examples'] }): void {
  if (def.notes) command.addHelpText('after', helpNotes(def.notes));
  if (def.examples) command.addHelpText('after', examplesHelp(def.examples));
}

export function registerVerb(parent: Command, def: AnyVerb, runner: Runner): Command {
  const command = parent.command(def.name, def.hidden ? { hidden: true } : {}).description(def.description);
  for (const alias of def.aliases ?? []) command.alias(alias);
  configureVerb(command, def, runner);
  return command;
}

/** Arguments, flags, help and the action of a verb, on its command (or on a noun that runs it). */
function configureVerb(command: Command, def: AnyVerb, runner: Runner): void {
  for (const arg of def.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    command.argument(arg.required ? `<${name}>` : `[${name}]`, arg.help);
  }
  addFlags(command, def.flags);
  if (def.allowUnknownOptions) command.helpOption(false).allowUnknownOption();
  addHelp(command, def);
  // Extra arguments are refused by checkExtraArguments, with a message of pds's own (the verb may
  // inherit commander's allowance from its noun, whose own action takes any word).
  command.allowExcessArguments(true);
  command.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    // The global options are those of the root program: adding one there is all it takes.
    let root = self;
    while (root.parent) root = root.parent;
    const globalNames = new Set(root.options.map((option) => option.attributeName()));
    const flags: Record<string, unknown> = {};
    const own: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(self.optsWithGlobals()))
      (globalNames.has(name) ? flags : own)[name] = value;
    const path: string[] = [];
    for (let current: Command | null = self; current; current = current.parent) path.unshift(current.name());
    checkExtraArguments(def, self, path.join(' '));
    await runner.run(def, { ...own, args: self.processedArgs }, flags as GlobalFlags, path.join(' '));
  });
  remember(command, def);
}

/**
 * More words than the verb takes: exit 2 naming them, never dropped in silence (a verb with a
 * variadic argument takes them all). A noun that runs a verb of its own says the word is no verb.
 */
function checkExtraArguments(def: AnyVerb, self: Command, path: string): void {
  const declared = def.args ?? [];
  if (def.allowUnknownOptions || declared.some((arg) => arg.variadic) || self.args.length <= declared.length) return;
  const extra = self.args.slice(declared.length);
  if (declared.length === 0 && self.commands.length > 0) {
    throw new UsageError(`unknown command '${extra[0]}' for '${path}'`, {
      details: [`commands of ${self.name()}: ${self.commands.map((c) => c.name()).join(', ')}`],
    });
  }
  const optional = declared.some((arg) => !arg.required);
  const shown = declared.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)).join(' ');
  const takes =
    declared.length === 0
      ? 'takes no arguments'
      : `takes ${optional ? 'at most ' : ''}${declared.length === 1 ? 'one argument' : `${declared.length} arguments`} (${shown})`;
  const details = [...(def.extraArguments?.details ?? []), `see \`${path} --help\``];
  // A token typed where no argument goes is not echoed into a terminal's scrollback or a CI log.
  if (def.extraArguments?.secret)
    throw new UsageError(`\`${path}\` ${takes} (${extra.length} given, not shown)`, { details });
  const words = extra.map((word) => `'${safeText(word)}'`).join(', ');
  throw new UsageError(`extra argument${extra.length > 1 ? 's' : ''} ${words}: \`${path}\` ${takes}`, { details });
}

export function registerNoun(program: Command, def: NounDef, runner: Runner): Command {
  const noun = program.command(def.name).description(def.description);
  if (def.ownVerb) configureVerb(noun, def.ownVerb, runner);
  else {
    addHelp(noun, def);
    // The noun alone is a question, not a mistake: its help on stdout, exit 0 (commander's own
    // answer is the help on stderr as an error). A word that is no verb of it stays an error.
    noun.allowExcessArguments(true).action((...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const [word] = self.args;
      if (word !== undefined) {
        throw new UsageError(`unknown command '${word}' for 'pds ${def.name}'`, {
          details: [
            `commands of ${def.name}: ${def.verbs
              .filter((verb) => !verb.hidden)
              .map((verb) => verb.name)
              .join(', ')}`,
          ],
        });
      }
      self.outputHelp();
    });
  }
  for (const verb of def.verbs) registerVerb(noun, verb, runner);
  if (!def.ownVerb) remember(noun, def);
  return noun;
}

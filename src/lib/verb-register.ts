// Verb and noun definitions → commander commands. The action gathers what commander parsed and
// hands it, with the definition, to the runner (cli.ts), which checks it and runs the verb.
import { Option, type Command } from 'commander';
import type { GlobalFlags } from './config.js';
import type { Dependencies } from './context.js';
import { flagHelp, flagName, remember, type AnyVerb, type FlagSpec, type NounDef } from './verb.js';
import { examplesHelp, helpNotes } from './help.js';

/** Set by cli.ts: turns global flags into a Context and records the verb's exit code. */
export interface Runner {
  run(def: AnyVerb, input: Record<string, unknown>, flags: GlobalFlags, path: string): Promise<void>;
  deps: Dependencies;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The commander option of one flag of a definition. */
export function commanderOption(key: string, spec: FlagSpec): Option {
  const name = flagName(key, spec);
  const syntax = `${spec.short ? `-${spec.short}, ` : ''}${name}${spec.type === 'boolean' ? '' : ` <${spec.value}>`}`;
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
  command.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    // The global options are those of the root program: adding one there is all it takes.
    let root = self;
    while (root.parent) root = root.parent;
    const globalNames = new Set(root.options.map((option) => option.attributeName()));
    const flags: Record<string, unknown> = {};
    const own: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(self.optsWithGlobals())) (globalNames.has(name) ? flags : own)[name] = value;
    const path: string[] = [];
    for (let current: Command | null = self; current; current = current.parent) path.unshift(current.name());
    await runner.run(def, { ...own, args: self.processedArgs }, flags as GlobalFlags, path.join(' '));
  });
  remember(command, def);
}

export function registerNoun(program: Command, def: NounDef, runner: Runner): Command {
  const noun = program.command(def.name).description(def.description);
  if (def.ownVerb) configureVerb(noun, def.ownVerb, runner);
  else addHelp(noun, def);
  for (const verb of def.verbs) registerVerb(noun, verb, runner);
  if (!def.ownVerb) remember(noun, def);
  return noun;
}

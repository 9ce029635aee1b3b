// `pds __complete -- <words…>`: the candidates for the last word, one per line. Commands, flags and
// the values pds knows come from the command tree and the verbs' definitions; project names and ids come from
// the service (a short timeout, cached for a minute, nothing at all on any failure: a Tab key must
// never print an error or hang).
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { checkPrivate, writePrivateFile } from '../../lib/config/private-files.js';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import type { Context } from '../../lib/context.js';
import { configDir, readConfig } from '../../lib/config/file.js';
import { Project, listOf } from '../../lib/schemas.js';
import { RESOURCE_NAMES, type ResourceName } from '../../lib/resources.js';
import { PROJECT_SHAPE, shapeFields } from '../../lib/api/shapes.js';
import { projectLabel } from '../projects/view.js';
import { listFields } from '../catalog/views.js';
import { safeText } from '../../lib/output/text.js';
import { GLOBAL_FLAGS } from '../../lib/verbs/global-flags.js';
import {
  definitionOf,
  flagName,
  type ArgSpec,
  type Completion,
  type FlagSpec,
  type OptionsOf,
} from '../../lib/verbs/verb.js';
import type { complete as definition } from './definitions.js';

type Options = OptionsOf<typeof definition>;

const PROJECTS_TIMEOUT_MS = 1500;
const CACHE_MS = 60_000;
const HIDDEN = new Set(['__complete']);

/** What a value may be: a fixed list, or one looked up; `list` values may be comma-separated. */
interface Values {
  candidates: () => Promise<string[]> | string[];
  list?: boolean;
}

export async function run(opts: Options, ctx: Context): Promise<void> {
  const words = opts.args[0];
  const current = words.at(-1) ?? '';
  // The program as `pds` builds it, with nothing to run: only its tree and definitions are read.
  const { buildProgram } = await import('../../program.js');
  const program = buildProgram(ctx.io, { deps: ctx.deps, run: async () => undefined }, ctx.version);
  const candidates = await complete(program, words.slice(0, -1), current, ctx);
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (candidate.startsWith(current) && !seen.has(candidate)) {
      seen.add(candidate);
      ctx.output.write(`${candidate}\n`);
    }
  }
}

async function complete(program: Command, before: string[], current: string, ctx: Context): Promise<string[]> {
  let command = program;
  let expecting: Option | undefined;
  const positionals: string[] = [];
  for (const word of before) {
    if (expecting) {
      expecting = undefined;
      continue;
    }
    if (word.startsWith('-') && word !== '-') {
      const option = word.includes('=') ? undefined : findOption(command, word);
      if (option && (option.required || option.optional)) expecting = option;
      continue;
    }
    const sub = positionals.length === 0 ? subcommand(command, word) : undefined;
    if (sub) command = sub;
    else positionals.push(word);
  }

  if (expecting) return valuesOf(valuesFor(expecting, command, ctx), current, '');
  const inline = /^(--[^=]+=)(.*)$/.exec(current);
  if (inline) {
    const option = findOption(command, (inline[1] ?? '').slice(0, -1));
    return option ? valuesOf(valuesFor(option, command, ctx), inline[2] ?? '', inline[1] ?? '') : [];
  }
  if (current.startsWith('-')) return flagsOf(command);
  if (positionals.length === 0 && visible(command).length > 0) return visible(command).map((sub) => sub.name());
  return valuesOf(argumentValues(program, command, positionals, ctx), current, '');
}

function subcommand(command: Command, word: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
}

function visible(command: Command): Command[] {
  return command.commands.filter((sub) => !HIDDEN.has(sub.name()));
}

/** The command's own options, then the global ones of the root program. */
function optionsOf(command: Command): Option[] {
  const options: Option[] = [];
  for (let current: Command | null = command; current; current = current.parent) options.push(...current.options);
  return options;
}

function findOption(command: Command, flag: string): Option | undefined {
  return optionsOf(command).find((option) => option.long === flag || option.short === flag);
}

function flagsOf(command: Command): string[] {
  return [...optionsOf(command).flatMap((option) => (option.long ? [option.long] : [])), '--help'];
}

const fixed = (values: readonly string[], list = false): Values => ({ candidates: () => [...values], list });

/** The definition's flag behind a commander option: the verb's own, or a global one. */
function specOf(option: Option, command: Command): FlagSpec | undefined {
  for (let current: Command | null = command; current; current = current.parent) {
    const def = definitionOf(current);
    const flags: Record<string, FlagSpec> = current.parent
      ? def && 'flags' in def
        ? (def.flags ?? {})
        : {}
      : GLOBAL_FLAGS;
    for (const [key, spec] of Object.entries(flags)) if (flagName(key, spec) === option.long) return spec;
  }
  return undefined;
}

function valuesFor(option: Option, command: Command, ctx: Context): Values {
  const spec = specOf(option, command);
  return spec?.completion ? completionValues(spec.completion, spec.type === 'list', command, ctx) : fixed([]);
}

function completionValues(completion: Completion, list: boolean, command: Command, ctx: Context): Values {
  if (typeof completion !== 'string') return fixed(completion, list);
  switch (completion) {
    case 'profiles':
      return { candidates: () => profiles(ctx) };
    case 'projects':
      return { candidates: () => projects(ctx, 'ids') };
    case 'projects and names':
      return { candidates: () => projects(ctx, 'ids and names') };
    case 'fields': {
      const resource = command.parent?.name() as ResourceName | undefined;
      if (resource && RESOURCE_NAMES.includes(resource)) return fixed(listFields(resource), true);
      if (command.parent?.name() === 'projects') return fixed(shapeFields(PROJECT_SHAPE), true);
      return fixed([]);
    }
  }
}

function argumentValues(program: Command, command: Command, positionals: string[], ctx: Context): Values {
  if (command.name() === 'help' && command.parent === program) {
    let target: Command | undefined = program;
    for (const word of positionals) target = target ? subcommand(target, word) : undefined;
    if (!target) return fixed([]);
    return fixed([
      ...visible(target)
        .map((sub) => sub.name())
        .filter((name) => name !== 'help'),
      ...(target === program ? ['exit-codes'] : []),
    ]);
  }
  const def = definitionOf(command);
  const args: readonly ArgSpec[] = def && 'args' in def ? (def.args ?? []) : [];
  const arg = args[Math.min(positionals.length, args.length - 1)];
  // A variadic argument takes every later word; any other takes one.
  if (!arg || (positionals.length >= args.length && !arg.variadic)) return fixed([]);
  return arg.completion ? completionValues(arg.completion, false, command, ctx) : fixed([]);
}

/** The candidates for `current`; in a comma list, for the part after the last comma. */
async function valuesOf(values: Values, current: string, prefix: string): Promise<string[]> {
  const all = await values.candidates();
  if (!values.list) return all.map((value) => prefix + value);
  const comma = current.lastIndexOf(',');
  const done = comma === -1 ? '' : current.slice(0, comma + 1);
  const taken = new Set(done.split(',').filter(Boolean));
  return all.filter((value) => !taken.has(value)).map((value) => prefix + done + value);
}

function profiles(ctx: Context): string[] {
  try {
    return Object.keys(readConfig(ctx.env).profiles);
  } catch {
    return [];
  }
}

interface ProjectsCache {
  at: number;
  apiUrl: string;
  profile: string;
  /** A digest of the token the list was fetched with (another token may reach other projects). */
  credential: string;
  projects: { id: string; name: string }[];
}

/**
 * The projects the token reaches: from a cache younger than a minute, else from the service. A name
 * or id with a control character is left out: the shell would insert it on the command line as it
 * is (an escaped copy would name no project), and a line feed would forge a second candidate.
 */
async function projects(ctx: Context, which: 'ids' | 'ids and names'): Promise<string[]> {
  const list = await cachedProjects(ctx);
  const values = which === 'ids' ? list.map((p) => p.id) : list.flatMap((p) => [p.id, p.name]);
  return values.filter((value) => safeText(value) === value);
}

async function cachedProjects(ctx: Context): Promise<{ id: string; name: string }[]> {
  const { apiUrl, profile } = ctx.settings;
  const credential = createHash('sha256')
    .update(ctx.settings.token ?? '')
    .digest('base64url');
  const file = join(configDir(ctx.env), 'completion-cache.json');
  try {
    checkPrivate(file, 'completion cache');
    const cache = JSON.parse(await readFile(file, 'utf8')) as ProjectsCache;
    if (
      cache.apiUrl === apiUrl &&
      cache.profile === profile &&
      cache.credential === credential &&
      Date.now() - cache.at < CACHE_MS &&
      Array.isArray(cache.projects)
    ) {
      return cache.projects;
    }
  } catch {
    // No cache yet, or an unreadable one: ask the service.
  }
  try {
    const answer = await ctx.api.http.data(
      { path: '/v1/projects', timeoutMs: PROJECTS_TIMEOUT_MS, retry: false },
      listOf(Project),
    );
    const items = Array.isArray(answer) ? answer : answer.items;
    const list = items.map((project) => ({ id: project.id, name: projectLabel(project) }));
    const cache: ProjectsCache = { at: Date.now(), apiUrl, profile, credential, projects: list };
    // A cache that cannot be written (a planted link, a read-only disk) costs the next Tab a request.
    await mkdir(configDir(ctx.env), { recursive: true, mode: 0o700 })
      .then(() => writePrivateFile(file, JSON.stringify(cache), 'completion cache'))
      .catch(() => undefined);
    return list;
  } catch {
    return [];
  }
}

// Tools made from CLI verbs: the verb's definition gives the tool's inputs (its arguments and flags,
// with their help as descriptions and their checks), and the verb's own `run` does the work over a
// Context that prints JSON into memory. A verb added for the service becomes a tool with a few
// lines of naming, not a second implementation.
import { Writable } from 'node:stream';
import * as z from 'zod/mini';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { checkedAs } from '../../lib/verb-check.js';
import { flagSchema } from '../../lib/verb-options.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import type { AnyVerb, ArgSpec, FlagSpec, FlagValue } from '../../lib/verb.js';
import { documentVerbs } from '../documents/index.js';
import type { Toolset } from './toolsets.js';
import { dataResult } from './results.js';
import { defineTool, type ToolDefinition } from './tool.js';

/** How a verb is offered as a tool. */
export interface VerbToolSpec {
  /** The CLI verb's definition, and how it is typed: `statements tag`. */
  verb: AnyVerb;
  command: string;
  name: string;
  title: string;
  toolset: Toolset;
  write: boolean;
  annotations: ToolAnnotations;
  /** The arguments' names as the tool takes them, in the verb's order. */
  args: readonly string[];
  /** What the verb prints: a list (structuredContent `{items, next_cursor}`) or one record. */
  output: { list: z.ZodMiniType } | { record: z.ZodMiniType };
  /** A sentence for the agent after the verb's own description. */
  more?: string;
}

export const describe = <T extends z.ZodMiniType>(schema: T, text: string): T => schema.check(z.describe(text)) as T;

/** An agent sends numbers as JSON numbers; the verb's checks take text, as commander passes it. */
export const numberOrText = z.pipe(z.union([z.number(), z.string()]), z.transform(String));

/** A flag as a tool input: the verb's own check (numbers taken as JSON numbers too). */
export function flagInput<S extends FlagSpec>(key: string, spec: S): z.ZodMiniType<FlagValue<S>> {
  return describe(flagSchema(key, spec), spec.help);
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

/** The next page's cursor in structuredContent; null on the last page. */
export const nextCursor = z.nullable(z.string());
/** A list as structuredContent: its records, the next cursor, and the total where known. */
export const listOutput = (item: z.ZodMiniType) =>
  z.object({ items: z.array(item), next_cursor: nextCursor, total: z.optional(z.number()) });

export function verbTool(spec: VerbToolSpec): ToolDefinition {
  const def = spec.verb;
  const argSpecs = def.args ?? [];
  if (argSpecs.length !== spec.args.length)
    throw new Error(`${spec.name}: ${argSpecs.length} arguments, ${spec.args.length} names`);
  const input: Record<string, z.ZodMiniType> = {};
  const argNames = argSpecs.map((arg, index) => {
    const name = spec.args[index];
    if (name === undefined) throw new Error(`${spec.name}: no name for argument ${index + 1}`);
    input[name] = argInput(arg);
    return name;
  });
  for (const [key, flag] of Object.entries(def.flags ?? {})) input[key] = flagInput(key, flag);
  const description = `${def.description[0]?.toUpperCase() ?? ''}${def.description.slice(1)} (\`pds ${spec.command}\`).${spec.more ? ` ${spec.more}` : ''}`;
  return defineTool({
    name: spec.name,
    title: spec.title,
    description,
    toolset: spec.toolset,
    write: spec.write,
    annotations: spec.annotations,
    project: true,
    input,
    output: 'list' in spec.output ? listOutput(spec.output.list) : spec.output.record,
    async run(args, call) {
      // The verb's inputs are known by name only at run time: projectId is read by its type.
      const projectId = call.project(typeof args.projectId === 'string' ? args.projectId : undefined);
      const values = argNames.map((name, index) => args[name] ?? (argSpecs[index]?.variadic ? [] : undefined));
      const flags = Object.fromEntries(Object.keys(def.flags ?? {}).map((key) => [key, args[key]]));
      const printed = await runVerb(def, { ...flags, args: values, ...def.fixed }, call.ctx, projectId, call.signal);
      const notes = printed.notes.length > 0 ? { untrustedAfter: printed.notes } : {};
      if ('list' in spec.output) {
        const items = Array.isArray(printed.data) ? printed.data : [];
        return dataResult(items, { ...notes, structured: { items, next_cursor: null } });
      }
      return dataResult(printed.data, notes);
    },
  });
}

/**
 * Runs the verb's own work over the server's settings, in JSON, into memory: what it prints on
 * stdout is the data, its stderr lines the notes (they may quote the service: they go inside the
 * markers).
 */
async function runVerb(
  def: AnyVerb,
  opts: Record<string, unknown>,
  server: Context,
  projectId: string,
  signal: AbortSignal,
): Promise<{ data: unknown; notes: string[] }> {
  const stdout = memory();
  const stderr = memory();
  const io = {
    ...server.io,
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
  };
  const ctx = server.derive({ io, signal }, { json: true, project: projectId, quiet: false, dryRun: false });
  // The tool's input schema is built from the verb's own checks (flagInput): these are checked.
  const run = await def.prepare(async (verb) => checkedAs(verb, opts));
  const code = await run(ctx);
  await ctx.output.settled();
  const notes = stderr
    .text()
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (typeof code === 'number' && code !== 0)
    throw new UsageError(notes.join('\n') || `pds ${def.name} ended with exit code ${code}`);
  const text = stdout.text();
  return { data: text.trim() === '' ? null : (JSON.parse(text) as unknown), notes };
}

function memory(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** The kinds whose `pds contracts|statements` verbs are offered as tools, contracts first. */
export const DOCUMENT_VERB_KINDS = ['contract', 'statement'] as const;

/** `pds contracts|statements <name>`: the definition the CLI registers, made by the same function. */
export function documentVerb(kind: DocumentKind, name: string): AnyVerb {
  const found = documentVerbs(kind).find((v) => v.name === name);
  if (!found) throw new Error(`no verb 'pds ${kind}s ${name}'`);
  return found;
}

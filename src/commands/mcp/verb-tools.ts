// Tools made from CLI verbs: the verb's definition gives the tool's inputs (its arguments and flags,
// with their help as descriptions and their checks), and the verb's own `run` does the work over a
// Context that prints JSON into memory (verb-run.ts). Where the agent knows the inputs by other
// names or shapes (a staging id for the verb's list of ids, perPage defaulting to --max-results),
// an input adapter hands the verb its options; an output adapter makes what the verb printed into
// the tool's result (pds's lines around the data, structuredContent, the next cursor). A verb added
// for the service becomes a tool with a few lines of naming and adapting, not a second implementation.
import type * as z from 'zod/mini';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import type { AnyVerb } from '../../lib/verbs/verb.js';
import { documentVerbs } from '../documents/index.js';
import { listOutput, verbInputs } from './inputs.js';
import { dataResult, type Notes } from './results.js';
import { argsSchema, notFound, type ArgsOf, type Call, type CursorState, type ToolDefinition } from './tool.js';
import type { Toolset } from './toolsets.js';
import { runVerb, type Printed, type VerbArg, type VerbInput } from './verb-run.js';

type Inputs = Record<string, z.ZodMiniType>;

/** One call of a tool made from a verb: its arguments typed by its inputs, and where it runs. */
export interface VerbCall<I extends Inputs> {
  args: ArgsOf<I>;
  call: Call;
  cursor: CursorState;
  /** The call's project (empty for a tool of no project). */
  projectId: string;
}

/** What an output adapter makes of what the verb printed: the data the agent reads, and pds's notes. */
export interface ToolOutput extends Notes {
  data: unknown;
}

/** How a verb is offered as a tool. */
export interface VerbToolSpec<I extends Inputs> {
  /** The CLI verb's definition, and how it is typed: `statements tag`. */
  verb: AnyVerb;
  command: string;
  name: string;
  title: string;
  /** Default: the verb's own description, with `more` after it. */
  description?: string;
  /** A sentence for the agent after the verb's own description. */
  more?: string;
  toolset: Toolset;
  write: boolean;
  annotations: ToolAnnotations;
  /** Acts on one project (default true). */
  project?: boolean;
  /** The inputs as the agent sees them: `...verbInputs(verb, names)` gives the verb's own, and `args`. */
  input: I;
  /** The inputs that are the verb's arguments, in its order (what the default input adapter hands it). */
  args?: readonly string[];
  /** What the verb prints: a list (structuredContent `{items, next_cursor}`) or one record. */
  output: { list: z.ZodMiniType } | { record: z.ZodMiniType };
  /** Input adapter: the verb's arguments and flags from the tool's (default: by `args` and the flags' keys). */
  toVerb?(at: VerbCall<I>): VerbInput;
  /** Output adapter: the result from what the verb printed (default: its data; a list on one page). */
  fromVerb?(printed: Printed, at: VerbCall<I>): ToolOutput;
  /** A 404 names what the agent asked for: what, and by which id. */
  notFound?(at: VerbCall<I>): { what: string; id: string; inProject?: boolean };
  /** Exit codes of the verb that are an answer, not a failure. */
  answers?: readonly number[];
}

/** A tool made from a verb, marked as such (`pds mcp tools --json` shows the verb; a test reads it). */
export function verbTool<I extends Inputs = Inputs>(spec: VerbToolSpec<I>): ToolDefinition {
  const def = spec.verb;
  const schema = argsSchema(spec.input);
  const takesProject = spec.project ?? true;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description ?? verbDescription(def, spec.command, spec.more),
    toolset: spec.toolset,
    write: spec.write,
    annotations: spec.annotations,
    project: takesProject,
    input: spec.input,
    output: 'list' in spec.output ? listOutput(spec.output.list) : spec.output.record,
    verb: spec.command,
    async run(checked, call, cursor) {
      const given = checked.projectId;
      const projectId = takesProject ? call.project(typeof given === 'string' ? given : undefined) : undefined;
      // The server checked the arguments with the input schema: parsed again, they come back typed.
      const at: VerbCall<I> = { args: schema.parse(checked), call, cursor, projectId: projectId ?? '' };
      const input = spec.toVerb ? spec.toVerb(at) : byName(spec, checked);
      const printed = await runVerb(def, input, call.ctx, {
        signal: call.signal,
        ...(projectId === undefined ? {} : { projectId }),
        ...(spec.answers ? { answers: spec.answers } : {}),
      }).catch((error: unknown) => {
        const named = spec.notFound?.(at);
        if (!named) throw error;
        return notFound(named.what, named.id, named.inProject === false ? undefined : projectId)(error);
      });
      const notes = printed.notes.length > 0 ? { untrustedAfter: printed.notes } : {};
      if (spec.fromVerb) {
        const { data, ...lines } = spec.fromVerb(printed, at);
        return dataResult(data, { ...notes, ...lines });
      }
      if ('list' in spec.output) {
        const items = printedItems(printed);
        return dataResult(items, { ...notes, structured: { items, next_cursor: null } });
      }
      return dataResult(printed.data, notes);
    },
  };
}

function verbDescription(def: AnyVerb, command: string, more: string | undefined): string {
  const first = `${def.description[0]?.toUpperCase() ?? ''}${def.description.slice(1)}`;
  return `${first} (\`pds ${command}\`).${more ? ` ${more}` : ''}`;
}

/** The default input adapter: the inputs named in `args` are the verb's arguments, the others its flags. */
function byName<I extends Inputs>(spec: VerbToolSpec<I>, args: Record<string, unknown>): VerbInput {
  const names = spec.args ?? [];
  const specs = spec.verb.args ?? [];
  const values = names.map((name, index) => verbArg(args[name]) ?? (specs[index]?.variadic ? [] : undefined));
  const flags = Object.fromEntries(Object.keys(spec.verb.flags ?? {}).map((key) => [key, args[key]]));
  return { args: values, flags };
}

/** A checked input as the verb's argument: its schema (verbInputs) made it a word or a list of words. */
function verbArg(value: unknown): VerbArg {
  if (value === undefined || typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((word) => typeof word === 'string')) return value;
  throw new Error(`a tool input handed to a verb as its argument is ${typeof value}, not text`);
}

/** The records of a list the verb printed (JSON: an array). */
export function printedItems(printed: Printed): unknown[] {
  return Array.isArray(printed.data) ? printed.data : [];
}

/** The kinds whose `pds contracts|statements` verbs are offered as tools, contracts first. */
export const DOCUMENT_VERB_KINDS = ['contract', 'statement'] as const;

/** `pds contracts|statements <name>`: the definition the CLI registers, made by the same function. */
export function documentVerb(kind: DocumentKind, name: string): AnyVerb {
  const found = documentVerbs(kind).find((v) => v.name === name);
  if (!found) throw new Error(`no verb 'pds ${kind}s ${name}'`);
  return found;
}

/** A document verb, its inputs and its arguments' names, for a verb tool's spec. */
export function documentVerbInputs(kind: DocumentKind, name: string, argNames: readonly string[]) {
  const verb = documentVerb(kind, name);
  return { verb, ...verbInputs(verb, argNames) };
}

// What every tool of `pds mcp` is made of: the call it runs in, its definition, the cursor of a
// paged list, and the pieces the toolsets share (inputs, the 404 that names what was asked, a page).
import * as z from 'zod/mini';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../../lib/context.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { NotFoundError } from '../../lib/errors.js';
import { uuid } from '../../lib/schemas.js';
import type { LocalUpload } from '../../lib/transfer/local-upload.js';
import { flagSchema } from '../../lib/verbs/options.js';
import type { Toolset } from './toolsets.js';
import { describe } from './inputs.js';

/** What a tool call has to work with. */
export interface Call {
  /** The Context of the server: its stdout is stderr, its signal ends with the server. */
  ctx: Context;
  /** The project of this call: the pinned one, the call's projectId, or the profile's default. */
  project(explicit: string | undefined): string;
  /** Records per call at most (`--max-results`). */
  maxResults: number;
  /** Cancelled when the client cancels the call. */
  signal: AbortSignal;
  /** Tells the client how far the call is (when it asked, with a progress token; else nothing). */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * A local file an upload may send: inside the roots, not hidden, of a format its kind takes, within
   * the limit; open, checked as it is open, and released (releaseLocalFile) once the upload is over.
   */
  localFile(path: string, kind: DocumentKind): Promise<LocalUpload>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The group `--toolsets` offers it by. */
  toolset: Toolset;
  /** Offered only with --allow-writes. */
  write: boolean;
  annotations: ToolAnnotations;
  /** Inputs besides projectId. */
  input: Record<string, z.ZodMiniType>;
  /** Acts on one project: takes projectId, unless the server pins the project. */
  project: boolean;
  /** What its structuredContent holds: an object schema (MCP asks for one), the records as --json has them. */
  output: z.ZodMiniType;
  /** The CLI verb it is made from (`artists ls`), when it is made from one (verb-tools.ts). */
  verb?: string;
  /** Lists that page take `cursor`; the decoded arguments are checked by the same schema. */
  run(args: Record<string, unknown>, call: Call, cursor: CursorState): Promise<CallToolResult>;
}

/** Where a paged call starts: the offset of offset-paged lists (search, projects, sandbox reads). */
export interface CursorState {
  offset: number;
  /** The next call's cursor: these arguments, from that offset. */
  next(args: Record<string, unknown>, offset?: number): string;
}

export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** A tool that writes, in the project's own data (never the open world): whether it may take something away, and whether a repeat changes nothing. */
export const writing = (destructiveHint: boolean, idempotentHint: boolean): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint,
  idempotentHint,
  openWorldHint: false,
});

export const wholeNumber = (name: string, min: number, max?: number) =>
  flagSchema(
    name,
    { type: 'number', value: 'n', integer: true, min, ...(max === undefined ? {} : { max }), help: '' },
    name,
  );

export const projectIdInput = describe(
  z.optional(uuid),
  "project UUID; default: the project pds is set to (PDS_PROJECT or the profile's)",
);
export const cursorInput = describe(
  z.optional(z.string()),
  'the cursor a previous call of this tool ended with, passed alone: continues the same list',
);
/**
 * A 404 names what the agent asked for: the service's own message ("artist not found") says
 * neither the id nor the project, and an agent asking for several would not know which one failed.
 * The service's message stays under it (it may say the project is unknown), with the status.
 */
export function notFound(kind: string, id: string, projectId?: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof NotFoundError)) throw error;
    const service = answered(error);
    throw new NotFoundError(`${kind} ${id} not found${projectId === undefined ? '' : ` in project ${projectId}`}`, {
      status: 404,
      cause: service,
      details: [service.message, ...service.details],
    });
  };
}

/** The service's own 404 under the CLI's wording of it (a verb names the project by its name). */
function answered(error: NotFoundError): NotFoundError {
  return error.cause instanceof NotFoundError ? answered(error.cause) : error;
}

export function nextLine(tool: string, cursor: string): string {
  return `more: call ${tool} with {"cursor": "${cursor}"}`;
}

/** A slice of at most `max` items from `offset`, with the lines that say where it is. */
export function slice<T>(
  items: T[],
  noun: string,
  tool: string,
  args: Record<string, unknown>,
  cursor: CursorState,
  max: number,
) {
  const part = items.slice(cursor.offset, cursor.offset + max);
  const end = cursor.offset + part.length;
  const next = end < items.length ? cursor.next(args, end) : null;
  return {
    part,
    before:
      part.length === 0
        ? `no ${noun} (${items.length} in all)`
        : `${noun} ${cursor.offset + 1}-${end} of ${items.length}`,
    after: [next ? nextLine(tool, next) : 'last page'],
    structured: { items: part, next_cursor: next, total: items.length },
  };
}

/** What a kind's status tool calls the id it takes: a contract upload is known by its staging id. */
export const documentIdName = (kind: DocumentKind): string => (kind === 'contract' ? 'stagingId' : 'id');

/** Inputs besides projectId, by name. */
type Inputs = Record<string, z.ZodMiniType>;

/**
 * The schema a tool's run parses its arguments with: its inputs and the projectId a project's tool
 * takes. An input some tools of a family lack (a resource's --include) is read as undefined where
 * absent, as its optional schema would give it when left out.
 */
export const argsSchema = <I extends Inputs>(input: I) =>
  z.object({ ...(input as Required<I>), projectId: z.optional(z.string()) });

/** A tool's arguments as its input schema makes them. */
export type ArgsOf<I extends Inputs> = z.output<ReturnType<typeof argsSchema<I>>>;

/** A tool as it is written: its run takes the arguments its own inputs' types say. */
export interface ToolSpec<I extends Inputs> extends Omit<ToolDefinition, 'input' | 'run'> {
  input: I;
  run(args: ArgsOf<I>, call: Call, cursor: CursorState): Promise<CallToolResult>;
}

/**
 * A tool whose run reads its arguments parsed by its own input schema, so their types come from it.
 * The server checked them with that schema already (a cursor's too): parsing the checked values
 * again gives them back (each rule takes what it makes), typed.
 */
export function defineTool<I extends Inputs>(spec: ToolSpec<I>): ToolDefinition {
  const schema = argsSchema(spec.input);
  return { ...spec, run: (args, call, cursor) => spec.run(schema.parse(args), call, cursor) };
}

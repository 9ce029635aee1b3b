// The tools of `pds mcp`, one table in the order a client lists them, each toolset in its own file:
// each tool over the same typed API, zod schemas and checks as the CLI verb it mirrors, so a tool
// accepts what the verb accepts and fails with the verb's message. Here too: how a call's arguments
// (or its cursor) become the arguments a tool runs with.
import * as z from 'zod/mini';
import { UsageError } from '../../lib/errors.js';
import { catalogTools, projectTools } from './catalog-tools.js';
import { documentTools } from './documents-tools.js';
import { knowledgeTools } from './knowledge-tools.js';
import { decodeCursor, encodeCursor } from './results.js';
import { sandboxTools } from './sandbox-tools.js';
import { searchTool } from './search-tools.js';
import { tagsTools } from './tags-tools.js';
import { projectIdInput, type CursorState, type ToolDefinition } from './tool.js';
import { uploadsTools } from './uploads-tools.js';

export type { Call, CursorState, ToolDefinition } from './tool.js';

/** Every tool, in the order a client lists them. */
export const TOOLS: ToolDefinition[] = [
  ...projectTools(),
  searchTool(),
  ...catalogTools(),
  ...documentTools(),
  ...sandboxTools(),
  ...knowledgeTools(),
  ...tagsTools(),
  ...uploadsTools(),
];

/**
 * The input object of a tool as the server offers it: its fields, `projectId` unless the project is
 * pinned, strict so that a misspelt argument is named instead of ignored.
 */
export function inputSchema(tool: ToolDefinition, pinned: boolean) {
  return z.strictObject({ ...tool.input, ...(tool.project && !pinned ? { projectId: projectIdInput } : {}) });
}

const isRequired = (schema: z.ZodMiniType): boolean => !schema.safeParse(undefined).success;

/**
 * The input object a client is shown. A tool that pages takes its cursor alone, so what it needs
 * otherwise (a statement's id, a search's query) is required only without a cursor: `resume` checks it.
 */
export function offeredSchema(tool: ToolDefinition, pinned: boolean): ReturnType<typeof inputSchema> {
  const full = inputSchema(tool, pinned);
  if (!('cursor' in tool.input)) return full;
  const fields = Object.entries(full.def.shape).map(([key, schema]) => [
    key,
    isRequired(schema) ? z.optional(schema) : schema,
  ]);
  return z.strictObject(Object.fromEntries(fields) as typeof full.def.shape);
}

/** Turns a call's arguments (or its cursor) into the arguments and offset the tool runs with. */
export function resume(
  tool: ToolDefinition,
  pinned: boolean,
  args: Record<string, unknown>,
): { args: Record<string, unknown>; offset: number } {
  if (typeof args.cursor !== 'string') {
    const missing = Object.entries(tool.input).filter(([key, schema]) => isRequired(schema) && args[key] === undefined);
    if (missing.length > 0) {
      const names = missing.map(([key]) => key).join(', ');
      throw new UsageError(`${names}: required, unless a cursor of a previous ${tool.name} call is passed alone`);
    }
    return { args, offset: 0 };
  }
  const others = Object.keys(args).filter((key) => key !== 'cursor' && args[key] !== undefined);
  if (others.length > 0) {
    throw new UsageError(
      `cursor: pass it alone (it carries the previous call's arguments), without ${others.join(', ')}`,
    );
  }
  const decoded = decodeCursor(tool.name, args.cursor);
  const parsed = inputSchema(tool, pinned).safeParse(decoded.args);
  if (!parsed.success)
    throw new UsageError(`invalid cursor: pass the cursor of the previous ${tool.name} call unchanged`);
  return { args: parsed.data, offset: decoded.offset };
}

export function cursorState(tool: ToolDefinition, pinned: boolean, offset: number): CursorState {
  return { offset, next: (args, nextOffset = 0) => encodeCursor(tool.name, strip(args, pinned), nextOffset) };
}

/** Arguments as the schema takes them back: no cursor, nothing undefined, no projectId when pinned. */
function strip(args: Record<string, unknown>, pinned: boolean): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(
      ([key, value]) => key !== 'cursor' && value !== undefined && !(pinned && key === 'projectId'),
    ),
  );
}

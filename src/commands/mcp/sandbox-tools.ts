// The sandbox's tools: bash commands run in the project's sandbox, and its files read a part at a time.
import * as z from 'zod/mini';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UsageError } from '../../lib/errors.js';
import { ExecResult } from '../../lib/schemas.js';
import { readPath, ROOT } from '../sandbox/session.js';
import { MAX_TEXT_CHARS, dataResult } from './results.js';
import {
  READ,
  cursorInput,
  defineTool,
  nextLine,
  slice,
  writing,
  type ArgsOf,
  type Call,
  type ToolDefinition,
} from './tool.js';
import { describe, nextCursor } from './inputs.js';

// Commands run in the sandbox's own copy of the project's data: they may write files there, and
// change nothing in the service.
const SANDBOX = writing(false, false);

export function sandboxTools(): ToolDefinition[] {
  return [
    defineTool({
      name: 'sandbox_exec',
      title: 'Run bash commands in the sandbox',
      description:
        "Runs bash commands, in order, in the project's sandbox: a file-system view of the project's data " +
        "(read /AGENTS.md first). Returns each command's stdout, stderr and exit code. Commands change nothing in the service.",
      toolset: 'sandbox',
      write: false,
      annotations: SANDBOX,
      project: true,
      output: z.object({ results: z.array(ExecResult) }),
      input: execInput,
      run: execInSandbox,
    }),
    defineTool({
      name: 'sandbox_read',
      title: 'Read a sandbox file or directory',
      description:
        "A file's content or a directory's entries (sub-directories end with /) in the project's sandbox. Start with / and /AGENTS.md.",
      toolset: 'sandbox',
      write: false,
      annotations: READ,
      project: true,
      output: z.object({
        type: z.enum(['file', 'directory']),
        path: z.string(),
        entries: z.optional(z.array(z.string())),
        content: z.optional(z.string()),
        next_cursor: nextCursor,
      }),
      input: {
        path: describe(z.optional(z.string()), `path in the sandbox (default ${ROOT})`),
        cursor: cursorInput,
      },
      async run(args, call, cursor) {
        const path = args.path ?? ROOT;
        const projectId = call.project(args.projectId);
        const session = await call.ctx.api.sandbox.connect(projectId);
        const entry = await readPath(call.ctx, { projectId, session }, path);
        const next = { ...args, projectId };
        if (entry.type === 'directory') {
          const { part, before, after, structured } = slice(
            entry.entries,
            `entries of ${path}`,
            'sandbox_read',
            next,
            cursor,
            call.maxResults,
          );
          const listed = { type: 'directory', path, entries: part };
          return dataResult(listed, { before, after, structured: { ...listed, next_cursor: structured.next_cursor } });
        }
        const end = Math.min(entry.content.length, cursor.offset + MAX_TEXT_CHARS);
        const content = entry.content.slice(cursor.offset, end);
        const file = { type: 'file', path, content };
        if (cursor.offset === 0 && end === entry.content.length)
          return dataResult(file, { structured: { ...file, next_cursor: null } });
        const more = end < entry.content.length ? cursor.next(next, end) : null;
        return dataResult(file, {
          before: `characters ${cursor.offset + 1}-${end} of ${entry.content.length}`,
          after: [more ? nextLine('sandbox_read', more) : 'end of file'],
          structured: { ...file, next_cursor: more },
        });
      },
    }),
  ];
}

const execInput = {
  commands: describe(z.array(z.string()), "bash commands, one per item, e.g. ['cat stats.yaml', 'ls contracts']"),
};

/**
 * sandbox_exec: the commands run in order (the work of `pds sandbox exec`: the session, then one
 * request), their output capped, with a progress tick each second from the moment they are sent.
 * Not made from the verb: that moment lies inside its run, and a cancel after it must abandon the
 * request the progress said was out.
 */
async function execInSandbox(args: ArgsOf<typeof execInput>, call: Call): Promise<CallToolResult> {
  const { commands } = args;
  if (commands.length === 0) throw new UsageError('commands: no commands to run');
  const projectId = call.project(args.projectId);
  await call.ctx.api.sandbox.connect(projectId);
  // The sandbox answers once, when every command has run: the progress is the seconds waited.
  const started = Date.now();
  call.progress(0, undefined, `${commands.length} command${commands.length === 1 ? '' : 's'} sent to the sandbox`);
  const ticker = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    call.progress(seconds, undefined, `running for ${seconds} s`);
  }, 1000);
  let results: Awaited<ReturnType<typeof call.ctx.api.sandbox.exec>>;
  try {
    results = await call.ctx.api.sandbox.exec(projectId, commands, { signal: call.signal });
  } finally {
    clearInterval(ticker);
  }
  const cuts: string[] = [];
  const capped = results.map((result, index) => {
    const stdout = cap(result.stdout);
    const stderr = cap(result.stderr);
    // The command as the service echoes it is service text: the line names it by its place.
    if (stdout.cut || stderr.cut)
      cuts.push(`output of command ${index + 1} cut at ${MAX_TEXT_CHARS} characters: narrow it (head, grep, wc)`);
    return { ...result, stdout: stdout.text, stderr: stderr.text };
  });
  return dataResult(capped, {
    before: `${results.length} command${results.length === 1 ? '' : 's'} run`,
    after: cuts,
    structured: { results: capped },
  });
}

function cap(text: string): { text: string; cut: boolean } {
  return text.length <= MAX_TEXT_CHARS ? { text, cut: false } : { text: text.slice(0, MAX_TEXT_CHARS), cut: true };
}

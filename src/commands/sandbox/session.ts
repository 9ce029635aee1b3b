// What the sandbox verbs share: the session they open, path reads with readable errors, and how
// command results reach the terminal.
import type { Context } from '../../lib/context.js';
import type { SandboxSession } from '../../lib/api/sandbox.js';
import { NotFoundError, UsageError } from '../../lib/errors.js';
import type { ExecResult, SandboxFile } from '../../lib/schemas.js';
import { safeLines, safeText } from '../../lib/output/text.js';

/** The workspace root, as the service names it. */
export const ROOT = '/';
/** The guide every workspace carries at its root. */
export const AGENTS_GUIDE = '/AGENTS.md';

export interface Sandbox {
  projectId: string;
  session: SandboxSession;
}

/**
 * Connects to the project's sandbox. Every verb does this itself (once per run): connecting is
 * idempotent on the service, and asking first is cheaper than failing, connecting and retrying.
 */
export async function openSandbox(ctx: Context): Promise<Sandbox> {
  const projectId = ctx.project();
  const session = await ctx.api.sandbox.connect(projectId);
  return { projectId, session };
}

/** A path of the sandbox; a 404 names the path, which the service's message may not. */
export async function readPath(ctx: Context, sandbox: Sandbox, path: string): Promise<SandboxFile> {
  try {
    return await ctx.api.sandbox.files(sandbox.projectId, path);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new NotFoundError(`no such file or directory in the sandbox: ${path}`, {
        status: error.status ?? 404,
        details: ['list what is there with `pds sandbox ls`'],
      });
    }
    throw error;
  }
}

/**
 * A file's content on stdout exactly as the service sent it: no newline added, so
 * `pds sandbox cat f > f` copies the file. With --json, the service's object.
 */
export async function printFile(ctx: Context, sandbox: Sandbox, path: string): Promise<void> {
  const entry = await readPath(ctx, sandbox, path);
  if (entry.type === 'directory') {
    throw new UsageError(`${path} is a directory`, { details: [`list it with \`pds sandbox ls ${path}\``] });
  }
  if (!(await ctx.output.asData(entry))) ctx.output.write(entry.content);
}

/** The exit code of a run: the last non-zero one, 0 when every command succeeded. */
export function lastFailure(results: readonly ExecResult[]): number {
  let code = 0;
  for (const result of results) if (result.exitCode !== 0) code = result.exitCode;
  return code;
}

export interface WriteOptions {
  /** A dim `$ command` line on stderr before each command's output. */
  headers: boolean;
}

/**
 * Each command's stdout to stdout and stderr to stderr, in order. The service returns the two
 * streams apart, so within one command its stdout comes first. A stream that is a terminal gets
 * the output with its escape sequences shown (a command's output is the sandbox's text, and could
 * retitle or clear the screen); redirected or piped, it stays byte for byte.
 */
export async function writeResults(ctx: Context, results: readonly ExecResult[], options: WriteOptions): Promise<void> {
  const { output, io } = ctx;
  const forStdout = io.stdoutIsTTY ? safeLines : (text: string) => text;
  const forStderr = io.stderrIsTTY ? safeLines : (text: string) => text;
  if (options.headers) await output.prepareColor();
  let openLine = false;
  for (const result of results) {
    if (options.headers) {
      // A header glued to the end of unterminated output would read as part of it.
      if (openLine) output.writeErr('\n');
      output.writeErr(`${output.paintErr('dim', `$ ${safeText(result.command)}`)}\n`);
    }
    output.write(forStdout(result.stdout));
    output.writeErr(forStderr(result.stderr));
    const last = result.stderr || result.stdout;
    if (last) openLine = !last.endsWith('\n');
  }
}

/** Whether what was last written left the cursor mid-line (the shell then ends the line). */
export function endsMidLine(results: readonly ExecResult[]): boolean {
  const last = results.at(-1);
  if (!last) return false;
  const text = last.stderr || last.stdout;
  return text !== '' && !text.endsWith('\n');
}

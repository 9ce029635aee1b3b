// `pds sandbox shell`: an interactive prompt over exec. The service keeps no shell between
// requests (each exec starts at the workspace root), so the prompt keeps the working directory
// itself and runs every line as `cd '<dir>' && <line>`.
import { errorText } from '../../lib/error-report.js';
import { clearScreenDown, createInterface, cursorTo, type Interface } from 'node:readline';
import { posix } from 'node:path';
import type { Writable } from 'node:stream';
import type { Context } from '../../lib/context.js';
import { InterruptedError, PdsError, UsageError } from '../../lib/errors.js';
import type { ExecResult, SandboxFile } from '../../lib/schemas.js';
import { safeText } from '../../lib/output/text.js';
import { endsMidLine, openSandbox, readPath, writeResults, type Sandbox } from './session.js';
import type { shell } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';
import { projectLabel } from '../projects/view.js';

type Options = OptionsOf<typeof shell>;

export interface ShellState {
  /** Absolute sandbox path lines run in; undefined for the workspace root. */
  dir: string | undefined;
  /** Where `cd -` goes back to. */
  previous: string | undefined;
  /** The root's absolute path, learnt with the first `cd`, so the prompt can show paths from it. */
  root: string | undefined;
}

/** What a line needs from the outside: the service, and the terminal. */
export interface ShellHost {
  exec(commands: string[]): Promise<ExecResult[]>;
  /** A command's output: its stdout on stdout, its stderr on stderr. */
  show(results: ExecResult[]): Promise<void>;
  /** A human line on stderr. */
  say(message: string): void;
  /** `clear`: the terminal's screen, cleared here (the sandbox has no terminal to clear). */
  clear(): void;
}

export type LineOutcome = { exit: false } | { exit: true; code: number };

const CONTINUE: LineOutcome = { exit: false };

export const newShellState = (): ShellState => ({ dir: undefined, previous: undefined, root: undefined });

/** `'it'\''s'`: any directory name as one bash word. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** The prefix that puts a command in the tracked directory. */
const inDir = (state: ShellState): string => (state.dir === undefined ? '' : `cd ${shellQuote(state.dir)} && `);

/** The directory as the prompt shows it: from the workspace root, which reads as `/`. */
export function displayDir(state: ShellState): string {
  const { dir, root } = state;
  if (dir === undefined || dir === root) return '/';
  if (root && root !== '/' && dir.startsWith(`${root}/`)) return dir.slice(root.length);
  return dir;
}

/**
 * One line of the shell. `exit [n]` leaves, a plain `cd [dir]` moves the tracked directory
 * (resolved and checked by the sandbox), anything else runs through exec in that directory.
 */
export async function handleLine(line: string, state: ShellState, host: ShellHost): Promise<LineOutcome> {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return CONTINUE;

  if (text === 'clear') {
    host.clear();
    return CONTINUE;
  }

  const exit = /^exit(?:\s+(\d+))?$/.exec(text);
  if (exit) return { exit: true, code: Number(exit[1] ?? 0) };

  // A cd chained with other commands (`cd x && ls`) only lasts for its own line, as in a subshell.
  const cd = /^cd(?:\s+(.*))?$/s.exec(text);
  if (cd && !/[;&|<>\n]/.test(cd[1] ?? '')) {
    await changeDir((cd[1] ?? '').trim(), state, host);
    return CONTINUE;
  }

  await host.show(await host.exec([`${inDir(state)}${line}`]));
  return CONTINUE;
}

async function changeDir(target: string, state: ShellState, host: ShellHost): Promise<void> {
  if (target === '') {
    moveTo(state, undefined);
    return;
  }
  if (target === '-') {
    if (state.previous === undefined && state.dir === undefined) {
      host.say('cd: no previous directory');
      return;
    }
    moveTo(state, state.previous);
    return;
  }
  // `pwd` at the root tells where the root is; asked once, in the same request.
  const commands = state.root === undefined ? ['pwd'] : [];
  commands.push(`${inDir(state)}cd ${target} && pwd`);
  const results = await host.exec(commands);
  if (state.root === undefined && results.length > 1 && results[0]?.exitCode === 0) {
    state.root = lastLine(results[0].stdout);
  }
  const result = results.at(-1);
  if (!result) return;
  const resolved = lastLine(result.stdout);
  if (result.exitCode !== 0 || !resolved.startsWith('/')) {
    // The old directory stays; the sandbox's own words say why.
    await host.show([{ ...result, stdout: '' }]);
    if (!result.stderr) host.say(`cd: ${target}: not a directory`);
    return;
  }
  moveTo(state, resolved === state.root ? undefined : resolved);
}

function moveTo(state: ShellState, dir: string | undefined): void {
  state.previous = state.dir;
  state.dir = dir;
}

function lastLine(text: string): string {
  return text.replace(/\n+$/, '').split('\n').at(-1) ?? '';
}

/**
 * Tab: the last word of the line completed as a workspace path, from the directory it names
 * (relative to the shell's directory; `/` is the workspace root). Directories end with `/`.
 */
export async function completePath(
  line: string,
  state: ShellState,
  list: (path: string) => Promise<SandboxFile>,
): Promise<[string[], string]> {
  const word = /(\S*)$/.exec(line)?.[1] ?? '';
  const slash = word.lastIndexOf('/');
  const dirPart = word.slice(0, slash + 1);
  const prefix = word.slice(slash + 1);
  const base = dirPart.startsWith('/') ? dirPart : posix.join(displayDir(state), dirPart);
  try {
    const entry = await list(base);
    const names = entry.type === 'directory' ? entry.entries : [];
    return [names.filter((name) => name.startsWith(prefix)).map((name) => `${dirPart}${name}`), word];
  } catch {
    // Nothing to offer (no such directory, the service did not answer): Tab does nothing.
    return [[], word];
  }
}

/** Ctrl-C while a line ran: its request was aborted (the sandbox may still finish the commands). */
class Cancelled extends Error {}

export async function run(_opts: Options, ctx: Context): Promise<number> {
  const { io } = ctx;
  if (!io.stdinIsTTY) {
    throw new UsageError('`pds sandbox shell` needs a terminal on stdin', {
      details: ['to run commands from a file or a pipe: pds sandbox exec - < commands.txt'],
    });
  }
  const projectId = ctx.project();
  const [sandbox, project] = await Promise.all([openSandbox(ctx), ctx.api.projects.get(projectId)]);
  await ctx.output.prepareColor();

  const prompt = promptTarget(ctx);
  const { stream: promptStream, terminal, paint } = prompt;

  const state = newShellState();
  // readline keeps the history (Up, Down) and asks this for Tab: the workspace paths that fit.
  const rl = createInterface({
    input: io.stdin,
    output: promptStream,
    terminal,
    historySize: 1000,
    removeHistoryDuplicates: true,
    completer: (line: string, done: (error: null, result: [string[], string]) => void) => {
      void completePath(line, state, (path) => readPath(ctx, sandbox, path)).then((result) => done(null, result));
    },
  });
  // Asked for before any line can arrive, so none is missed.
  const lines = rl[Symbol.asyncIterator]();

  // The request of the line running now; Ctrl-C aborts it instead of cancelling typed text.
  const lineRequest: LineRequest = { running: undefined };
  // Ctrl-C at an empty prompt leaves (exit 130): with nothing to cancel, it means "stop".
  let leftWithCtrlC = false;
  rl.on('SIGINT', () => {
    if (lineRequest.running) lineRequest.running.abort();
    else if (rl.line === '') {
      leftWithCtrlC = true;
      promptStream.write('^C\n');
      rl.close();
    } else cancelLine(rl, promptStream);
  });
  const onAbort = () => rl.close();
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  const host = terminalHost(ctx, sandbox, prompt, lineRequest);

  ctx.output.info(
    `sandbox of ${projectLabel(project)}: each line runs with bash; \`cat AGENTS.md\` describes the files, \`exit\` or Ctrl-D leaves`,
    'dim',
  );
  let code = 0;
  try {
    for (;;) {
      rl.setPrompt(paint(`pds:${safeText(projectLabel(project))}:${safeText(displayDir(state))}$ `));
      rl.prompt();
      const next = await lines.next();
      if (next.done) {
        // Ctrl-D leaves the cursor after the prompt.
        if (terminal && !leftWithCtrlC) promptStream.write('\n');
        break;
      }
      const outcome = await handleLine(next.value, state, host).catch((error: unknown) => reportLineError(error, ctx));
      if (outcome.exit) {
        code = outcome.code;
        break;
      }
    }
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    rl.close();
  }
  if (ctx.signal.aborted || leftWithCtrlC) throw new InterruptedError();
  await ctx.api.sandbox.disconnect(sandbox.projectId);
  ctx.output.info('sandbox disconnected', 'dim');
  return code;
}

interface PromptTarget {
  stream: Writable;
  /** Whether that stream is a terminal (readline then edits lines and redraws the prompt). */
  terminal: boolean;
  paint: (text: string) => string;
}

/** The prompt and the echo go where a person sees them; stdout stays the commands' data. */
function promptTarget(ctx: Context): PromptTarget {
  const { io } = ctx;
  const toStderr = io.stderrIsTTY || !io.stdoutIsTTY;
  return {
    stream: toStderr ? io.stderr : io.stdout,
    terminal: toStderr ? io.stderrIsTTY : io.stdoutIsTTY,
    paint: (text) => (toStderr ? ctx.output.paintErr('cyan', text) : ctx.output.paint('cyan', text)),
  };
}

/** The request of the line running now, if any. */
interface LineRequest {
  running: AbortController | undefined;
}

/** The shell's outside: exec in the sandbox (abortable through `line`), output on the terminal. */
function terminalHost(ctx: Context, sandbox: Sandbox, prompt: PromptTarget, line: LineRequest): ShellHost {
  const { stream, terminal } = prompt;
  return {
    exec: async (commands) => {
      const controller = new AbortController();
      line.running = controller;
      try {
        return await execConnected(ctx, sandbox, commands, controller.signal);
      } catch (error) {
        if (controller.signal.aborted && !ctx.signal.aborted) throw new Cancelled();
        throw error;
      } finally {
        line.running = undefined;
      }
    },
    show: async (results) => {
      await writeResults(ctx, results, { headers: false });
      // readline redraws the prompt from column 0, which would wipe an unterminated last line.
      if (terminal && endsMidLine(results)) stream.write('\n');
    },
    say: (message) => ctx.io.stderr.write(`${message}\n`),
    clear: () => {
      if (!terminal) return;
      // As clear(1) does: the scrollback too (ESC [ 3 J), then the screen from the top.
      stream.write('\u001b[3J');
      cursorTo(stream, 0, 0);
      clearScreenDown(stream);
    },
  };
}

/** A line that failed: said on stderr, and the shell goes on; an interruption or a bug still ends it. */
function reportLineError(error: unknown, ctx: Context): LineOutcome {
  if (error instanceof Cancelled) {
    ctx.io.stderr.write('^C (stopped waiting; the sandbox may still finish the command)\n');
    return CONTINUE;
  }
  if (error instanceof InterruptedError || !(error instanceof PdsError)) throw error;
  ctx.io.stderr.write(errorText(error, false));
  return CONTINUE;
}

/** Ctrl-C at the prompt: the typed text stays visible with `^C`, and a fresh prompt follows. */
function cancelLine(rl: Interface, stream: Writable): void {
  rl.write(null, { ctrl: true, name: 'e' });
  stream.write('^C\n');
  // Deleting to the start of the line redraws the (now empty) prompt on the new row.
  rl.write(null, { ctrl: true, name: 'u' });
}

/**
 * Exec in the session; when the session was ended meanwhile (`pds sandbox disconnect` elsewhere),
 * the service refuses with 400 before running anything, so reconnecting and asking again is safe.
 */
async function execConnected(
  ctx: Context,
  sandbox: Sandbox,
  commands: string[],
  signal: AbortSignal,
): Promise<ExecResult[]> {
  try {
    return await ctx.api.sandbox.exec(sandbox.projectId, commands, { signal });
  } catch (error) {
    if (!(error instanceof UsageError && error.status === 400 && /not connected/i.test(error.message))) throw error;
    await ctx.api.sandbox.connect(sandbox.projectId);
    return ctx.api.sandbox.exec(sandbox.projectId, commands, { signal });
  }
}

// A CLI verb run for a tool: its own `run`, over the server's settings, in JSON, into memory. What
// it prints on stdout is the data, its stderr lines the notes (they may quote the service: they go
// inside the markers), and the pages of a list it printed say what JSON leaves out (the total).
import { Readable, Writable } from 'node:stream';
import type { Context } from '../../lib/context.js';
import type { PageSeen } from '../../lib/output/list-writers.js';
import { PdsError } from '../../lib/errors.js';
import { checkOptions } from '../../lib/verbs/check.js';
import type { AnyVerb } from '../../lib/verbs/verb.js';

/** One page of a list the verb printed, as the service sent it. */
export type PrintedPage = PageSeen;

/** What a verb printed. */
export interface Printed {
  /** Its JSON on stdout, parsed (null when it printed nothing). */
  data: unknown;
  /** Its lines on stderr. */
  notes: string[];
  pages: PrintedPage[];
}

/**
 * A verb that ended with a code no tool's spec takes as an answer. The first line is pds's; the
 * notes are the verb's stderr, which may quote the service, so the tool's error carries them inside
 * the untrusted-data markers, never as pds's own words.
 */
export class VerbFailed extends PdsError {
  override readonly exitCode: number;
  constructor(
    name: string,
    code: number,
    readonly notes: readonly string[],
  ) {
    super(`pds ${name} ended with exit code ${code}`);
    this.exitCode = code;
  }
}

/** An argument of a verb as commander hands it over: a word, the words of a variadic one, or none. */
export type VerbArg = string | readonly string[] | undefined;

/** The verb's arguments and flags as a tool hands them over (checked again by the verb's own rules). */
export interface VerbInput {
  args: readonly VerbArg[];
  flags?: Readonly<Record<string, unknown>>;
}

export interface RunOptions {
  /** The project the verb works in; none for a verb of no project (`projects ls`). */
  projectId?: string;
  signal: AbortSignal;
  /** Exit codes that are an answer, not a failure (`status`: 7, the upload failed). */
  answers?: readonly number[];
}

export async function runVerb(verb: AnyVerb, input: VerbInput, server: Context, options: RunOptions): Promise<Printed> {
  const stdout = memory();
  const stderr = memory();
  const io = {
    ...server.io,
    // The server's stdin is the protocol's: a verb that reads stdin (`-`) finds it empty.
    stdin: Readable.from([]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
  };
  const project = options.projectId === undefined ? {} : { project: options.projectId };
  // The pages of the lists the verb prints, as they pass to the output: their JSON is the records
  // alone, and a tool tells the agent where the page lies in the whole list.
  const pages: PrintedPage[] = [];
  const ctx = server.derive(
    { io, signal: options.signal, traceTo: server.io.stderr, pageSeen: (page) => pages.push(page) },
    { json: true, ...project, quiet: false, dryRun: false },
  );
  // The verb's own rules check what the tool hands over (the tool's schema wraps the same rules).
  const run = await verb.prepare(async (def) => checkOptions(def, { ...input.flags, args: input.args }));
  const code = await run(ctx);
  await ctx.output.settled();
  const notes = stderr
    .text()
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (typeof code === 'number' && code !== 0 && !options.answers?.includes(code))
    throw new VerbFailed(verb.name, code, notes);
  const text = stdout.text();
  return { data: text.trim() === '' ? null : JSON.parse(text), notes, pages };
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

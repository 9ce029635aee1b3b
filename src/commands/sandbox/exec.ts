// `pds sandbox exec <command...>`: bash commands in the project's sandbox, in one request.
import type { Readable } from 'node:stream';
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { lastFailure, openSandbox, writeResults } from './session.js';
import type { exec } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof exec>;

export async function run(opts: Options, ctx: Context): Promise<number> {
  const commands = await commandList(opts.args[0] ?? [], ctx);
  if (commands.length === 0) {
    throw new UsageError('no commands to run', {
      details: [
        "pass each command as one argument: pds sandbox exec 'cat stats.yaml' 'ls contracts'",
        'or `-` to read them from stdin, one per line',
      ],
    });
  }
  const sandbox = await openSandbox(ctx);
  const results = await ctx.api.sandbox.exec(sandbox.projectId, commands, { parallel: opts.parallel === true });
  if (!(await ctx.output.asData(results))) {
    // Headers only help a person reading both streams interleaved on one screen.
    const headers = results.length > 1 && ctx.io.stdoutIsTTY && ctx.io.stderrIsTTY && !ctx.settings.quiet;
    await writeResults(ctx, results, { headers });
  }
  return lastFailure(results);
}

async function commandList(args: string[], ctx: Context): Promise<string[]> {
  if (!args.includes('-')) return args;
  if (args.length > 1) {
    throw new UsageError('`-` reads the commands from stdin and must be the only argument');
  }
  if (ctx.io.stdinIsTTY) ctx.output.info('reading commands from stdin, one per line; end with Ctrl-D');
  return parseCommandLines(await readAll(ctx.io.stdin));
}

/** One command per line; blank lines and `#` comments are skipped, as a script would. */
export function parseCommandLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => {
      const trimmed = line.trim();
      return trimmed !== '' && !trimmed.startsWith('#');
    });
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<unknown>) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

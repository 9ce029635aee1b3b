// `pds statements lines <id> [-o FILE]`: the lines of a processed statement, as the deployed service
// exports them: `GET /v1/statements/{id}?detailed=true` names a signed CSV link (`detailed.csv_url`),
// fetched as downloads fetch theirs (src/lib/transfer/download.ts: no credential, bounded, streamed, a file
// written under a temporary name and renamed when complete, Ctrl-C leaves nothing behind).
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import {
  StorageDeniedError,
  saveToFile,
  saveToStream,
  storageOptions,
  type SaveOptions,
  type Saved,
} from '../../lib/transfer/download.js';
import { maxSizeOf } from '../../lib/transfer/sizes.js';
import { formatBytes, safeLines } from '../../lib/output/text.js';
import { checkResourceId } from '../catalog/get.js';
import type { LinesOptions } from './definitions.js';
import { LINES_ACCEPT, linesOf } from './lines-link.js';

export async function run(opts: LinesOptions, ctx: Context): Promise<number> {
  const many = await import('./lines-run.js');
  if (many.isManyLines(opts, ctx)) return many.run(opts, ctx);
  const id = checkResourceId('statements', opts.args[0]?.[0] as string);
  const target = await targetOf(opts, ctx);
  const maxBytes = maxSizeOf(opts.maxSize);
  const projectId = ctx.project();
  ctx.requireToken();
  const lines = await linesOf(ctx, projectId, id);
  if (ctx.settings.dryRun) {
    ctx.output.info(
      `would ${target === undefined ? 'print' : `save to ${target}`} the lines of statement ${id}; nothing was fetched (--dry-run)`,
    );
    return 0;
  }
  const options: SaveOptions = {
    ...storageOptions(ctx, opts.force === true, maxBytes),
    pdf: false,
    accept: LINES_ACCEPT,
  };
  const stdout = target === undefined ? await many.warningOfFormulas(ctx, stdoutFor(ctx)) : undefined;
  const fetchOnce = (url: string): Promise<Saved> =>
    stdout === undefined ? saveToFile(url, target as string, options) : saveToStream(url, stdout.stream, options);
  let saved: Saved;
  try {
    saved = await fetchOnce(lines.url);
  } catch (error) {
    if (!(error instanceof StorageDeniedError)) throw error;
    // A signed link that expired (or was refused) is asked for again, once, as downloads do.
    saved = await fetchOnce((await linesOf(ctx, projectId, id)).url);
  }
  if (stdout !== undefined) {
    await stdout.finish();
    return 0;
  }
  const record = { id: Number(id), file: target, bytes: saved.bytes, up_to_date: saved.upToDate };
  if (await ctx.output.asData(record)) return 0;
  if (ctx.output.mode === 'ids') ctx.output.write(`${target}\n`);
  ctx.output.info(
    saved.upToDate
      ? `${target} is up to date (${formatBytes(saved.bytes)})`
      : `saved the lines of statement ${id} to ${target} (${formatBytes(saved.bytes)})`,
  );
  return 0;
}

/** The file to save to, or undefined for stdout; checked before anything is asked of the service. */
async function targetOf(opts: LinesOptions, ctx: Context): Promise<string | undefined> {
  const output = opts.output;
  if (output === undefined || output === '-') {
    // The CSV is the output: a data format would have to hold it whole, and says nothing more.
    if (ctx.output.isData)
      throw new UsageError(
        `the lines are CSV, printed as they are: drop --format ${ctx.output.mode}, or save them with -o <file>`,
      );
    return undefined;
  }
  if (output.trim() === '') throw new UsageError('invalid -o: empty');
  const info = await stat(output).catch(() => undefined);
  if (info?.isDirectory())
    throw new UsageError(
      `-o ${output} is a directory: give a file name, e.g. -o ${output.replace(/\/+$/, '')}/lines.csv`,
    );
  const parent = dirname(output);
  const parentInfo = await stat(parent).catch(() => undefined);
  if (!parentInfo?.isDirectory())
    throw new UsageError(`cannot write ${output}: the directory ${parent} does not exist`);
  return output;
}

/**
 * stdout as the CSV goes to it: the bytes as they come into a pipe or a file; on a terminal, text
 * with every control character shown as an escape (a CSV is the service's data, and a terminal
 * would act on an escape sequence in it).
 */
function stdoutFor(ctx: Context): Writable {
  const stdout = ctx.io.stdout;
  if (!ctx.io.stdoutIsTTY) return stdout;
  const decoder = new StringDecoder('utf8');
  // A CSV's CRLF line ends are line ends on a terminal too, not escaped carriage returns; a CR at the
  // end of a chunk waits for the next one to tell which it is.
  let pendingCr = '';
  return new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      let text = pendingCr + decoder.write(chunk);
      pendingCr = text.endsWith('\r') ? '\r' : '';
      if (pendingCr) text = text.slice(0, -1);
      if (stdout.write(safeLines(text.replace(/\r\n/g, '\n')))) done();
      else stdout.once('drain', () => done());
    },
  });
}

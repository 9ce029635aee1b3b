// `pds upload`'s plan: the file arguments expanded and checked before any byte is sent, the
// same file given twice marked, and the context flags as the service takes them.
import { basename } from 'node:path';
import { addAbortSignal } from 'node:stream';
import type { Context } from '../../lib/context.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { InterruptedError, type PdsError, UsageError, asPdsError } from '../../lib/errors.js';
import { EXTRACTIONS } from '../../lib/schemas.js';
import { matchWord } from '../../lib/vocabulary.js';
import { LocalFileError, checkFile, readStdin, type LocalUpload } from '../../lib/transfer/local-upload.js';
import { buildContext, formatOf } from '../../lib/transfer/formats.js';
import type { UploadEntry as Entry } from '../documents/upload-display.js';
import { expandArgs } from './batch.js';
import { pool } from '../../lib/transfer/pool.js';
import { commaList } from '../../lib/output/text.js';
import { shortExtraction } from '../documents/processes.js';
import type { UploadOptions } from './definitions.js';

type Options = UploadOptions;

/** Local checks open files; this many at once is plenty and stays far from the fd limit. */
const CHECK_CONCURRENCY = 16;

/**
 * One file goes once: an argument that reaches a file an earlier one did (another spelling, a
 * glob, a symbolic or a hard link: the same device and inode) is skipped as the same file.
 */
export function markSameFiles(entries: Entry[]): void {
  const first = new Map<string, string>();
  for (const entry of entries) {
    const identity = entry.error ? undefined : entry.file.identity;
    if (identity === undefined) continue;
    const earlier = first.get(identity);
    if (earlier === undefined) first.set(identity, entry.file.arg);
    else {
      entry.sameAs = earlier;
      entry.skipped = { id: '', label: `the same file as ${earlier}` };
    }
  }
}

/** A file in a directory of a kind the service does not take: skipped, with why. */
export function unsupportedEntry(path: string, kind: DocumentKind): Entry {
  const fileName = basename(path);
  const format = formatOf(kind, fileName);
  const why = typeof format === 'string' ? format : `not a ${kind} file`;
  return {
    file: { arg: path, fileName, fileType: '', size: 0, source: { kind: 'file', path } },
    sending: false,
    sent: 0,
    total: 0,
    skipped: { id: '', label: `unsupported: ${why}` },
    unsupported: why,
  };
}

/** The file arguments, directories expanded; a directory that gives nothing is said, not fatal. */
export async function filesOf(opts: Options, ctx: Context): Promise<{ files: string[]; unsupported: string[] }> {
  const given = checkArgs(opts, ctx);
  const { files, empty, unsupported } = await expandArgs(given, opts.kind, {
    recursive: opts.recursive === true,
    include: opts.include,
    exclude: opts.exclude,
  });
  for (const dir of empty)
    ctx.output.warn(
      `${dir}: no ${opts.kind} files to upload in it${opts.recursive ? '' : ' (--recursive takes its subdirectories too)'}`,
    );
  if (files.length === 0) throw new UsageError('no files to upload');
  if (opts.fileName !== undefined && files.length > 1)
    throw new UsageError('--file-name names one upload: stdin (-), or a single file');
  return { files, unsupported };
}

/** The upload context as the service takes it. */
export type UploadContext = { context?: Record<string, unknown>; folderName?: string };

/** The context flags of an upload (`pds upload`, the upload tools of `pds mcp`). */
export type ContextOptions = Pick<
  Options,
  | 'kind'
  | 'accountingPeriod'
  | 'targetPeriod'
  | 'currencyRoyalty'
  | 'currencyTransaction'
  | 'payee'
  | 'payor'
  | 'scenario'
  | 'targetFamily'
  | 'tag'
  | 'folder'
>;

/** The context flags as the service takes them (`context`, `folderName`), checked before anything is sent. */
export function uploadContext(opts: ContextOptions): UploadContext {
  const { context, problems } = buildContext(opts.kind, {
    ...(opts.accountingPeriod === undefined ? {} : { accountingPeriod: opts.accountingPeriod }),
    ...(opts.targetPeriod === undefined ? {} : { targetPeriod: opts.targetPeriod }),
    ...(opts.currencyRoyalty === undefined ? {} : { currencyRoyalty: opts.currencyRoyalty }),
    ...(opts.currencyTransaction === undefined ? {} : { currencyTransaction: opts.currencyTransaction }),
    ...(opts.payee === undefined ? {} : { payee: opts.payee }),
    ...(opts.payor === undefined ? {} : { payor: opts.payor }),
    ...(opts.scenario === undefined ? {} : { scenario: opts.scenario }),
    ...(opts.targetFamily === undefined ? {} : { targetFamily: opts.targetFamily }),
    tags: opts.tag,
  });
  if (problems.length === 1) throw new UsageError(problems[0] as string);
  if (problems.length > 1)
    throw new UsageError(`${problems.length} problems with the upload context; nothing was sent`, {
      details: problems,
    });
  return { ...(context ? { context } : {}), ...(opts.folder === undefined ? {} : { folderName: opts.folder }) };
}

/** `--extract royalties,extract-splits --extract dates` → the spec's full names, checked. */
export function extractionNames(values: string[] | undefined): string[] | undefined {
  const given = commaList(values);
  if (given.length === 0) return undefined;
  const names: string[] = [];
  const unknown: string[] = [];
  for (const raw of given) {
    const lower = raw.toLowerCase();
    const name = matchWord(lower.startsWith('extract-') ? lower : `extract-${lower}`, EXTRACTIONS);
    if (name === undefined) unknown.push(raw);
    else if (!names.includes(name)) names.push(name);
  }
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown extraction${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')}`,
      {
        details: [
          `valid extractions: ${EXTRACTIONS.map(shortExtraction).join(', ')} (with or without the extract- prefix)`,
        ],
      },
    );
  }
  return names;
}

export function checkArgs(opts: Options, ctx: Context): string[] {
  const args = opts.args[0];
  const stdin = args.filter((a) => a === '-').length;
  if (stdin > 1) throw new UsageError('stdin (-) can be read only once');
  if (opts.fileName !== undefined) {
    const name = opts.fileName.trim();
    if (name === '' || /[\\/]/.test(name))
      throw new UsageError(`invalid --file-name '${opts.fileName}': expected a file name without a directory`);
    if (stdin === 0 && args.length > 1)
      throw new UsageError('--file-name names one upload: stdin (-), or a single file');
  }
  if (stdin === 1) {
    if (opts.fileName === undefined) {
      throw new UsageError('reading a PDF from stdin (-) needs --file-name <name>', {
        details: [`e.g. \`cat doc.pdf | pds upload ${opts.kind} - --file-name doc.pdf\``],
      });
    }
    if (ctx.io.stdinIsTTY) throw new UsageError('stdin is a terminal: pipe a PDF into pds to upload it from stdin (-)');
  }
  return args;
}

/**
 * Every file is checked before any byte is sent. A file that fails is reported and left out; with
 * --fail-fast (or when it is the only one) it stops the whole command before anything is sent.
 */
export async function checkAll(
  args: string[],
  kind: DocumentKind,
  fileName: string | undefined,
  failFast: boolean,
  ctx: Context,
): Promise<Entry[]> {
  const name = fileName?.trim();
  const results = new Array<LocalUpload | LocalFileError>(args.length);
  await pool(
    args.map((arg, index) => ({ arg, index })),
    CHECK_CONCURRENCY,
    ctx.signal,
    async ({ arg, index }) => {
      try {
        // Ctrl-C destroys stdin: a producer that has not finished must not hold pds open.
        results[index] =
          arg === '-'
            ? await readStdin(addAbortSignal(ctx.signal, ctx.io.stdin), name as string, kind)
            : await checkFile(arg, kind, args.length === 1 ? name : undefined);
      } catch (error) {
        if (!(error instanceof LocalFileError)) throw error;
        results[index] = error;
      }
    },
  );
  if (ctx.signal.aborted) throw new InterruptedError();
  const bad = results.filter((r): r is LocalFileError => r instanceof LocalFileError);
  if (bad.length === 1 && args.length === 1) throw new UsageError((bad[0] as LocalFileError).message);
  if (bad.length > 0 && failFast) {
    throw new UsageError(`${bad.length} of ${args.length} files cannot be uploaded; nothing was sent (--fail-fast)`, {
      details: bad.map((e) => e.message),
    });
  }
  return results.map((result) => {
    if (!(result instanceof LocalFileError)) return { file: result, sending: false, sent: 0, total: result.size };
    const file: LocalUpload = {
      arg: result.arg,
      fileName: name ?? basename(result.arg),
      fileType: 'application/octet-stream',
      size: 0,
      source: { kind: 'file', path: result.arg },
    };
    return { file, sending: false, sent: 0, total: 0, error: new UsageError(result.problem) };
  });
}

/** A failure of one file as a PdsError: a local file check is a usage error (exit 2). */
export function failure(error: unknown): PdsError {
  return error instanceof LocalFileError ? new UsageError(error.problem) : asPdsError(error);
}

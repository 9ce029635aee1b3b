// `pds contracts download` and `pds statements download`: the original PDF of each record, fetched
// from the signed URL the service hands out (src/lib/transfer/download.ts saves it). One module for both
// kinds; `kind` comes from the registration.
import { notFoundIn } from '../../lib/not-found.js';
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Context } from '../../lib/context.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { NotFoundError, type PdsError, UsageError } from '../../lib/errors.js';
import {
  StorageDeniedError,
  saveToFile,
  saveToStream,
  storageOptions,
  isPdf,
  type SaveOptions,
} from '../../lib/transfer/download.js';
import { maxSizeOf } from '../../lib/transfer/sizes.js';
import { DownloadDisplay, type DownloadEntry } from './download-display.js';
import { NameClaims, safeFileName } from '../../lib/transfer/file-names.js';
import { checkResourceId } from '../catalog/get.js';
import { BatchRun } from './batch-run.js';
import { safeText } from '../../lib/output/text.js';
import type { DownloadOptions } from './definitions.js';

type Options = DownloadOptions;
type Entry = DownloadEntry;

/** Where the files go: one named file, a directory (names from the service), or stdout. */
type Destination = { to: 'file'; path: string } | { to: 'dir'; dir: string } | { to: 'stdout' };

/** The service has no download endpoint: the whole command stops, whatever the number of ids. */
class NoDownloadsError extends NotFoundError {}

const NOUN = { contract: 'contracts', statement: 'statements' } as const;

export async function run(opts: Options, ctx: Context): Promise<number> {
  const kind: DocumentKind = opts.kind;
  const ids = checkIds(kind, opts);
  const destination = await destinationOf(opts, ids, ctx);
  const projectId = ctx.project();
  ctx.requireToken(); // exit 3 now, before any listing
  const entries: Entry[] = (ids ?? (await everyId(ctx, kind, projectId))).map((id) => ({ id, received: 0 }));
  if (entries.length === 0) {
    if (!(await ctx.output.asData([]))) ctx.output.info(`no ${NOUN[kind]} in this project`);
    return 0;
  }
  const dryRun = ctx.settings.dryRun;
  if (destination.to === 'dir' && !dryRun) await mkdir(destination.dir, { recursive: true });

  const save = storageOptions(ctx, opts.force === true, maxSizeOf(opts.maxSize));
  const view = await DownloadDisplay.create(ctx, kind, destination.to === 'stdout');
  const batch: Batch = { ctx, kind, projectId, destination, save, view };
  if (!dryRun) for (const entry of entries) view.queued(entry);
  const run = new BatchRun(ctx, opts.concurrency);
  const noDownloads = await downloadEach(batch, run, entries);
  run.throwIfStopped();
  if (noDownloads) throw noDownloads;
  const [only] = entries;
  if (entries.length === 1 && only?.error) throw only.error;
  view.errors(entries);
  if (dryRun) printPlan(ctx, kind, entries, destination);
  else await printResults(ctx, entries, destination);
  if (entries.length > 1) ctx.output.info(summary(entries));
  return entries.some((e) => e.error) ? 1 : 0;
}

/**
 * Each entry's link asked for and its file fetched (or, with --dry-run, only named), a few at a
 * time; each entry ends with its path or its error. The service without downloads stops them all.
 */
async function downloadEach(batch: Batch, run: BatchRun, entries: Entry[]): Promise<NoDownloadsError | undefined> {
  const { ctx, kind, projectId, destination, view } = batch;
  const dryRun = ctx.settings.dryRun;
  const claims = new NameClaims();
  // Names are claimed in the order of the ids, whatever order the links arrive in, so the same
  // records get the same names on every run (which lets a rerun skip what is up to date).
  let previousClaim: Promise<void> = Promise.resolve();
  let noDownloads: NoDownloadsError | undefined;
  try {
    await run.each(entries, async (entry) => {
      const earlier = previousClaim;
      let claimed!: () => void;
      previousClaim = new Promise<void>((resolve) => (claimed = resolve));
      try {
        const link = await linkOf(ctx, kind, projectId, entry.id);
        await earlier;
        entry.path = targetOf(
          destination,
          typeof link.fileName === 'string' ? link.fileName : undefined,
          kind,
          entry.id,
          claims,
        );
        claimed();
        if (dryRun) {
          entry.planned = true;
          return;
        }
        await fetchEntry(batch, entry, link);
      } catch (error) {
        claimed();
        if (error instanceof NoDownloadsError) {
          // No other download can work: none is started.
          noDownloads ??= error;
          run.stop();
        }
        entry.error = run.failure(error);
      }
      view.finished(entry);
    });
  } finally {
    view.close();
  }
  return noDownloads;
}

/** What every download of one run shares. */
interface Batch {
  ctx: Context;
  kind: DocumentKind;
  projectId: string;
  destination: Destination;
  save: Omit<SaveOptions, 'onBytes'>;
  view: DownloadDisplay;
}

/** One entry's file, fetched to its path (or stdout) with its progress shown. */
async function fetchEntry(batch: Batch, entry: Entry, link: Awaited<ReturnType<typeof linkOf>>): Promise<void> {
  const { ctx, kind, projectId, destination, view } = batch;
  view.started(entry);
  const options: SaveOptions = {
    ...batch.save,
    // Statements come in 25 formats (docs/service.md): only a PDF is checked for its magic.
    pdf: kind === 'contract' || isPdf(link),
    onBytes: (received, total) => {
      entry.received = received;
      entry.total = total;
      view.progress(entry);
    },
  };
  const fetchFile = (url: string) =>
    destination.to === 'stdout'
      ? saveToStream(url, ctx.io.stdout, options)
      : saveToFile(url, entry.path as string, options);
  try {
    entry.saved = await fetchFile(link.url);
  } catch (error) {
    if (!(error instanceof StorageDeniedError)) throw error;
    // A signed URL that expired (or was refused) is asked for again, once.
    const fresh = await linkOf(ctx, kind, projectId, entry.id);
    entry.saved = await fetchFile(fresh.url);
  }
}

function checkIds(kind: DocumentKind, opts: Options): string[] | undefined {
  const given = opts.args[0].map((id) => id.trim());
  if (opts.all && given.length > 0) throw new UsageError('give ids or --all, not both');
  if (opts.all) return undefined;
  if (given.length === 0) throw new UsageError(`give at least one ${kind} id, or --all`);
  for (const id of opts.args[0]) checkResourceId(kind === 'statement' ? 'statements' : 'contracts', id);
  return [...new Set(given)];
}

async function destinationOf(opts: Options, ids: string[] | undefined, ctx: Context): Promise<Destination> {
  const output = opts.output;
  const single = ids !== undefined && ids.length === 1;
  if (output === undefined) return { to: 'dir', dir: '.' };
  if (/[/\\]$/.test(output)) {
    await checkDirectory(output);
    return { to: 'dir', dir: output };
  }
  if (output === '') throw new UsageError('invalid -o: empty');
  if (output === '-') {
    if (!single) throw new UsageError('-o - writes one file to stdout: give exactly one id');
    if (ctx.output.isData)
      throw new UsageError(
        `-o - writes the file to stdout, where --format ${ctx.output.mode} would go: use one of them`,
      );
    // As curl does: a PDF's bytes on a terminal are noise, and may be read as control sequences.
    if (ctx.io.stdoutIsTTY)
      throw new UsageError(
        'refusing to write a binary file to the terminal: redirect stdout to a file or a pipe to use -o -',
      );
    return { to: 'stdout' };
  }
  if (await isDirectory(output)) {
    await checkDirectory(output);
    return { to: 'dir', dir: output };
  }
  if (!single)
    throw new UsageError(`-o ${output} names one file: give a directory (ending with /) for several downloads`);
  const parent = join(output, '..');
  if (!(await isDirectory(parent)))
    throw new UsageError(`cannot write ${output}: the directory ${parent} does not exist`);
  return { to: 'file', path: output };
}

/**
 * A directory to save into (made when missing): the nearest part of its path that exists must be
 * a directory pds may write in. Checked before anything is asked of the service.
 */
async function checkDirectory(dir: string): Promise<void> {
  for (let path = resolve(dir); ; path = dirname(path)) {
    let isDir: boolean;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing (made later), or a file on the way (said when the walk reaches it).
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(path) !== path) continue;
      throw new UsageError(`cannot write to ${dir}: ${code ?? String(error)}`);
    }
    if (!isDir) throw new UsageError(`cannot write to ${dir}: ${path} is a file, not a directory`);
    try {
      await access(path, constants.W_OK);
    } catch {
      throw new UsageError(`cannot write to ${dir}: no permission to write in ${path}`);
    }
    return;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function everyId(ctx: Context, kind: DocumentKind, projectId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of ctx.api.catalog.allPages(NOUN[kind], { projectId, page: 1, perPage: 100 })) {
    for (const item of page.items) ids.push(String(item.id));
  }
  return ids;
}

/**
 * The signed URL of one record. The endpoint is not in the spec: a 404 may mean that the record
 * does not exist or that the service has no such endpoint, and the record itself tells which.
 */
async function linkOf(ctx: Context, kind: DocumentKind, projectId: string, id: string) {
  try {
    return await ctx.api.documents.download(kind, projectId, id);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const exists = await ctx.api.catalog.get(NOUN[kind], projectId, id).then(
      () => true,
      (lookup: unknown) => (lookup instanceof NotFoundError ? false : undefined),
    );
    if (exists === true) {
      throw new NoDownloadsError('this service does not offer downloads', {
        details: [`${ctx.settings.apiUrl} has no GET /v1/${NOUN[kind]}/{id}/download endpoint`],
        status: 404,
      });
    }
    if (exists === false) throw await notFoundIn(ctx.api, kind, id, projectId, error);
    throw error;
  }
}

function targetOf(
  destination: Destination,
  fileName: string | null | undefined,
  kind: DocumentKind,
  id: string,
  claims: NameClaims,
): string {
  if (destination.to === 'file') return destination.path;
  if (destination.to === 'stdout') return '-';
  const name = claims.claim(safeFileName(fileName, `${kind}-${safeFileName(id, 'file')}`));
  return destination.dir === '.' ? name : join(destination.dir, name);
}

/** stdout: the paths for -q, one record a file in a data format; nothing otherwise (the files are the data). */
async function printResults(ctx: Context, entries: Entry[], destination: Destination): Promise<void> {
  if (destination.to === 'stdout') return;
  const records = entries.map((entry) => {
    if (entry.saved)
      return { id: entry.id, file: entry.path, bytes: entry.saved.bytes, up_to_date: entry.saved.upToDate };
    const error = entry.error as PdsError;
    return {
      id: entry.id,
      error: { message: error.message, ...(error.status === undefined ? {} : { status: error.status }) },
    };
  });
  if (await ctx.output.asData(records)) return;
  if (ctx.output.mode === 'ids') for (const entry of entries) if (entry.saved) ctx.output.write(`${entry.path}\n`);
}

/** --dry-run: where each file would go; on stderr when the file itself would have been stdout. */
function printPlan(ctx: Context, kind: DocumentKind, entries: Entry[], destination: Destination): void {
  if (ctx.output.mode === 'json') {
    ctx.output.json(
      entries.map((e) =>
        e.planned
          ? { id: e.id, file: e.path, would: 'download' }
          : { id: e.id, would: 'fail', error: { message: e.error?.message } },
      ),
    );
    return;
  }
  for (const entry of entries) {
    if (!entry.planned) continue;
    const line = `would download ${kind} ${entry.id} to ${destination.to === 'stdout' ? 'stdout' : entry.path}`;
    if (destination.to === 'stdout') ctx.output.info(line);
    else ctx.output.write(`${safeText(line)}\n`);
  }
}

function summary(entries: Entry[]): string {
  const planned = entries.filter((e) => e.planned).length;
  if (planned > 0)
    return `dry run: ${planned} would download${entries.length > planned ? `, ${entries.length - planned} would fail` : ''}`;
  const downloaded = entries.filter((e) => e.saved && !e.saved.upToDate).length;
  const upToDate = entries.filter((e) => e.saved?.upToDate).length;
  const failed = entries.filter((e) => e.error).length;
  const parts = [`${downloaded} downloaded`];
  if (upToDate > 0) parts.push(`${upToDate} up to date`);
  if (failed > 0) parts.push(`${failed} failed`);
  return parts.join(', ');
}

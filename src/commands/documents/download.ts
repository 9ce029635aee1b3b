// `pds contracts download` and `pds statements download`: the original PDF of each record, fetched
// from the signed URL the service hands out (src/lib/download.ts saves it). One module for both
// kinds; `kind` comes from the registration.
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Context } from '../../lib/context.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { InterruptedError, NotFoundError, PdsError, UsageError } from '../../lib/errors.js';
import { NameClaims, StorageDeniedError, safeFileName, saveToFile, saveToStream, type SaveOptions, type Saved } from '../../lib/download.js';
import { createTransport } from '../../lib/transport.js';
import { formatBytes } from '../../lib/upload.js';
import { BatchDisplay } from './batch-display.js';
import { pool } from '../../lib/pool.js';
import type { DownloadOptions } from './index.js';

type Options = DownloadOptions;

/** Where the files go: one named file, a directory (names from the service), or stdout. */
type Destination = { to: 'file'; path: string } | { to: 'dir'; dir: string } | { to: 'stdout' };

interface Entry {
  id: string;
  line?: number;
  path?: string;
  received: number;
  total?: number;
  saved?: Saved;
  error?: PdsError;
}

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
    if (ctx.output.mode === 'json') ctx.output.json([]);
    else ctx.output.info(`no ${NOUN[kind]} in this project`);
    return 0;
  }
  if (destination.to === 'dir') await mkdir(destination.dir, { recursive: true });

  const save: Omit<SaveOptions, 'onBytes'> = {
    transport: createTransport(ctx.env),
    signal: ctx.signal,
    idleTimeoutMs: ctx.settings.timeoutMs,
    userAgent: `pds/${ctx.version} node/${process.versions.node}`,
    force: opts.force === true,
    ...(ctx.settings.verbose ? { trace: (line: string) => ctx.io.stderr.write(`${line}\n`) } : {}),
  };
  const view = await Display.create(ctx, kind, destination.to === 'stdout');
  for (const entry of entries) view.queued(entry);
  const claims = new NameClaims();
  // Names are claimed in the order of the ids, whatever order the links arrive in, so the same
  // records get the same names on every run (which lets a rerun skip what is up to date).
  let previousClaim: Promise<void> = Promise.resolve();
  let noDownloads: NoDownloadsError | undefined;
  // Stops starting downloads on Ctrl-C, or once the service turned out to have no download endpoint.
  const stopBatch = new AbortController();

  try {
    await pool(entries, opts.concurrency, AbortSignal.any([ctx.signal, stopBatch.signal]), async (entry) => {
      const earlier = previousClaim;
      let claimed!: () => void;
      previousClaim = new Promise<void>((resolve) => (claimed = resolve));
      try {
        let link = await linkOf(ctx, kind, projectId, entry.id);
        await earlier;
        entry.path = targetOf(destination, link.fileName, kind, entry.id, claims);
        claimed();
        view.started(entry);
        const options: SaveOptions = {
          ...save,
          onBytes: (received, total) => {
            entry.received = received;
            entry.total = total;
            view.progress(entry);
          },
        };
        const fetchFile = (url: string) => (destination.to === 'stdout' ? saveToStream(url, ctx.io.stdout, options) : saveToFile(url, entry.path as string, options));
        try {
          entry.saved = await fetchFile(link.url);
        } catch (error) {
          if (!(error instanceof StorageDeniedError)) throw error;
          // A signed URL that expired (or was refused) is asked for again, once.
          link = await linkOf(ctx, kind, projectId, entry.id);
          entry.saved = await fetchFile(link.url);
        }
      } catch (error) {
        claimed();
        if (error instanceof NoDownloadsError) {
          noDownloads ??= error;
          stopBatch.abort();
        }
        entry.error = ctx.signal.aborted ? new InterruptedError() : asPdsError(error);
      }
      view.finished(entry);
    });
  } finally {
    view.close();
  }

  if (ctx.signal.aborted) throw new InterruptedError();
  if (noDownloads) throw noDownloads;
  const [only] = entries;
  if (entries.length === 1 && only?.error) throw only.error;
  view.errors(entries);
  printResults(ctx, entries, destination);
  if (entries.length > 1) ctx.output.info(summary(entries));
  return entries.some((e) => e.error) ? 1 : 0;
}

function checkIds(kind: DocumentKind, opts: Options): string[] | undefined {
  const given = opts.args[0].map((id) => id.trim());
  if (opts.all && given.length > 0) throw new UsageError('give ids or --all, not both');
  if (opts.all) return undefined;
  if (given.length === 0) throw new UsageError(`give at least one ${kind} id, or --all`);
  for (const [index, id] of given.entries()) {
    if (kind === 'statement' ? !/^\d{1,15}$/.test(id) : id === '' || /[/\\?#\s]/.test(id)) {
      throw new UsageError(`invalid ${kind} id '${opts.args[0][index]}'${kind === 'statement' ? ': statement ids are whole numbers' : ''}`);
    }
  }
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
    if (ctx.settings.json) throw new UsageError('-o - writes the file to stdout, where --json would go: use one of them');
    if (ctx.io.stdoutIsTTY) throw new UsageError('stdout is a terminal: redirect it to a file or a pipe to use -o -');
    return { to: 'stdout' };
  }
  if (await isDirectory(output)) {
    await checkDirectory(output);
    return { to: 'dir', dir: output };
  }
  if (!single) throw new UsageError(`-o ${output} names one file: give a directory (ending with /) for several downloads`);
  const parent = join(output, '..');
  if (!(await isDirectory(parent))) throw new UsageError(`cannot write ${output}: the directory ${parent} does not exist`);
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
    if (exists === false) throw new NotFoundError(`${kind} ${id} not found in project ${projectId}`, { status: 404 });
    throw error;
  }
}

function targetOf(destination: Destination, fileName: string | null | undefined, kind: DocumentKind, id: string, claims: NameClaims): string {
  if (destination.to === 'file') return destination.path;
  if (destination.to === 'stdout') return '-';
  const name = claims.claim(safeFileName(fileName, `${kind}-${safeFileName(id, 'file')}`));
  return destination.dir === '.' ? name : join(destination.dir, name);
}

function asPdsError(error: unknown): PdsError {
  if (error instanceof PdsError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  // A local file system failure (a full disk, no permission) is said as such.
  return new PdsError(error instanceof Error ? error.message : String(error), code ? { details: [code] } : {});
}

/** stdout: the paths for -q, an array for --json; nothing otherwise (the files are the data). */
function printResults(ctx: Context, entries: Entry[], destination: Destination): void {
  if (destination.to === 'stdout') return;
  if (ctx.output.mode === 'json') {
    ctx.output.json(
      entries.map((entry) => {
        if (entry.saved) return { id: entry.id, file: entry.path, bytes: entry.saved.bytes, up_to_date: entry.saved.upToDate };
        const error = entry.error as PdsError;
        return { id: entry.id, error: { message: error.message, ...(error.status === undefined ? {} : { status: error.status }) } };
      }),
    );
    return;
  }
  if (ctx.output.mode === 'ids') for (const entry of entries) if (entry.saved) ctx.output.write(`${entry.path}\n`);
}

function summary(entries: Entry[]): string {
  const downloaded = entries.filter((e) => e.saved && !e.saved.upToDate).length;
  const upToDate = entries.filter((e) => e.saved?.upToDate).length;
  const failed = entries.filter((e) => e.error).length;
  const parts = [`${downloaded} downloaded`];
  if (upToDate > 0) parts.push(`${upToDate} up to date`);
  if (failed > 0) parts.push(`${failed} failed`);
  return parts.join(', ');
}

/** What a download says of each file, through the display every batch of files shares. */
class Display {
  private constructor(
    private readonly ctx: Context,
    private readonly kind: DocumentKind,
    private readonly batch: BatchDisplay,
  ) {}

  /** With `-o -` the file is the output: a piped stderr gets no line for it. */
  static async create(ctx: Context, kind: DocumentKind, toStdout: boolean): Promise<Display> {
    return new Display(ctx, kind, await BatchDisplay.create(ctx, { piped: !toStdout }));
  }

  queued(entry: Entry): void {
    entry.line = this.batch.add('·', `${this.kind} ${entry.id}  waiting`);
  }

  started(entry: Entry): void {
    this.progress(entry);
  }

  progress(entry: Entry): void {
    const total = entry.total === undefined ? '' : ` / ${formatBytes(entry.total)}  ${entry.total > 0 ? Math.floor((entry.received * 100) / entry.total) : 100}%`;
    this.batch.set(entry.line, '↓', `${this.kind} ${entry.id} → ${entry.path}  ${formatBytes(entry.received)}${total}`);
  }

  finished(entry: Entry): void {
    if (entry.error instanceof InterruptedError) return;
    const name = `${this.kind} ${entry.id}`;
    if (this.batch.isLive) {
      if (entry.error) this.batch.settle(entry.line, '✗', `${name}  ${this.reason(entry)}`);
      else if (entry.saved?.upToDate) this.batch.settle(entry.line, '=', `${name} → ${entry.path}  up to date`);
      else if (entry.saved) this.batch.settle(entry.line, '✓', `${name} → ${entry.path}  ${formatBytes(entry.saved.bytes)}`);
      return;
    }
    if (entry.error) return; // said by errors() (several) or by the error handler (one)
    if (entry.saved?.upToDate) this.batch.say(`${name}: ${entry.path} is up to date`);
    else if (entry.saved) this.batch.say(`${name}: saved ${entry.path} (${formatBytes(entry.saved.bytes)})`);
  }

  close(): void {
    this.batch.close();
  }

  /** Why a file failed, beside the record's name: without that name again at its start. */
  private reason(entry: Entry): string {
    const message = entry.error?.message ?? '';
    const subject = `${this.kind} ${entry.id} `;
    return message.startsWith(subject) ? message.slice(subject.length) : message;
  }

  /** The failures of a batch, with their details, after the lines. */
  errors(entries: Entry[]): void {
    if (this.ctx.settings.json) return;
    for (const entry of entries) if (entry.error) this.batch.problem(`${this.kind} ${entry.id}`, this.reason(entry), entry.error.details);
  }
}

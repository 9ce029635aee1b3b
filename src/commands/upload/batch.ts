// What makes `pds upload` a batch a CI job can re-run: directories expanded into the
// files the kind accepts, the project's existing records to skip what is already there, and the
// counts and reports the end of a batch gives. The upload itself stays in upload.ts.
import { STATEMENT_EXTENSIONS } from '../../lib/transfer/formats.js';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../../lib/context.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { isPdf, saveToStream, storageOptions, TooLargeError } from '../../lib/transfer/download.js';
import { UsageError } from '../../lib/errors.js';
import { refuseLinkedReport } from '../../lib/ci/report.js';
import type { LocalUpload } from '../../lib/transfer/local-upload.js';

export interface Selection {
  recursive: boolean;
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * The files a directory gives for a kind: contracts their PDFs, statements every format the
 * service takes (docs/service.md); a name without an extension is left out of a directory (named on
 * the command line, checkFile takes it as an opaque file).
 */
function kindAccepts(kind: DocumentKind, name: string): boolean {
  const ext = extname(name).toLowerCase().slice(1);
  return kind === 'contract' ? ext === 'pdf' : STATEMENT_EXTENSIONS.includes(ext);
}

/**
 * The files to upload, in the order given; a directory becomes the files in it that the kind
 * accepts and the globs select (matched against the path below the directory, or the base name
 * for a glob without `/`), sorted by path, hidden files and directories left out. Returns also the
 * directories that gave nothing, for a warning.
 */
export async function expandArgs(
  args: readonly string[],
  kind: DocumentKind,
  selection: Selection,
): Promise<{ files: string[]; empty: string[]; unsupported: string[] }> {
  const select = await globFilter(selection);
  const files: string[] = [];
  const empty: string[] = [];
  const unsupported: string[] = [];
  for (const arg of args) {
    const isDirectory =
      arg !== '-' &&
      (await stat(arg).then(
        (info) => info.isDirectory(),
        () => false,
      ));
    if (!isDirectory) {
      // A file named on the command line is taken as it is; its check says what is wrong with it.
      files.push(arg);
      continue;
    }
    const selected = (await walk(arg, selection.recursive)).filter((path) =>
      select(relative(arg, path).split(sep).join('/')),
    );
    const found = selected.filter((path) => kindAccepts(kind, path));
    found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (found.length === 0) empty.push(arg);
    files.push(...found);
    // Files of a kind the service does not take are said (skipped, with why), never dropped silently.
    unsupported.push(...selected.filter((path) => !kindAccepts(kind, path)).sort());
  }
  return { files, empty, unsupported };
}

async function walk(dir: string, recursive: boolean): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    // A symbolic link counts as what it points to; one that points nowhere is left to checkFile.
    const isDirectory =
      entry.isDirectory() ||
      (entry.isSymbolicLink() &&
        (await stat(path).then(
          (info) => info.isDirectory(),
          () => false,
        )));
    if (isDirectory) {
      if (recursive) found.push(...(await walk(path, true)));
    } else {
      found.push(path);
    }
  }
  return found;
}

/** The include/exclude test; picomatch is loaded only when a glob is given. */
async function globFilter(selection: Selection): Promise<(path: string) => boolean> {
  if (selection.include.length === 0 && selection.exclude.length === 0) return () => true;
  const { default: picomatch } = await import('picomatch');
  // A glob with a `/` is matched against the path below the directory, one without against the
  // base name (as .gitignore does); picomatch's own `basename` option fails the former.
  const matcher = (globs: readonly string[]) => {
    const tests = globs.map((glob) => {
      const test = picomatch(glob);
      return glob.includes('/') ? test : (path: string) => test(path.slice(path.lastIndexOf('/') + 1));
    });
    return (path: string) => tests.some((test) => test(path));
  };
  const include = selection.include.length === 0 ? () => true : matcher(selection.include);
  const exclude = matcher(selection.exclude);
  return (path) => include(path) && !exclude(path);
}

/** A record the project has (or that this command created) under a file name. */
interface Known {
  /** What the lines say: `statement 123`, or `staging id 45` for an upload of this command. */
  label: string;
  id: string;
  /** Only a statement's record reports its size. */
  size?: number;
  /** The record's file to compare bytes with; none for one this command created (its hash is known). */
  fetch?: { kind: DocumentKind; id: string };
  /** The hash of a file this command uploaded. */
  sha256?: Promise<string>;
  /** The record's file's hash, by the most bytes read of it (undefined: it was longer than that). */
  remote?: Map<number, Promise<string | undefined>>;
  /** The statement's context as the listing reports it (a field it does not report is not there). */
  context?: StatementContext;
  /** The staging id of a statement the service paused (a quota): retried, never sent again. */
  paused?: number;
}

/**
 * Why a file goes: `changed` (its size or bytes differ), or a record of its name belongs to another
 * statement (`same name as statement 40141 of 2026Q1`); absent: no record has its name. `retry`:
 * the project has it paused (a quota), under this staging id: its upload is retried, not sent again.
 */
export type Decision = { skip: true; id: string; label: string } | { skip: false; changed?: string; retry?: number };

/** The context fields a statement's record reports, by the listing's names; what a match must agree on. */
const CONTEXT_FIELDS = ['accounting_period', 'payor', 'payee', 'currency_royalty', 'currency_transaction'] as const;
export type StatementContext = Partial<Record<(typeof CONTEXT_FIELDS)[number], string>>;

/** The context an upload gives (the service's `context`), by the listing's names: what a record must agree on. */
export function givenContext(context: Record<string, unknown> | undefined): StatementContext {
  if (!context) return {};
  const period = context.accountingPeriod as { value?: unknown } | undefined;
  const given: Record<string, unknown> = {
    accounting_period: period?.value,
    payor: context.payor,
    payee: context.payee,
    currency_royalty: context.currencyRoyalty,
    currency_transaction: context.currencyTransaction,
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => typeof value === 'string')) as StatementContext;
}

/** The fields of a record that a given context disagrees with, the record's values: none when it agrees. */
function disagreements(given: StatementContext, known: Known): StatementContext {
  const differing: StatementContext = {};
  for (const field of CONTEXT_FIELDS) {
    const mine = given[field];
    const theirs = known.context?.[field];
    // A field the listing does not report cannot tell two statements apart.
    if (mine !== undefined && theirs !== undefined && !sameValue(mine, theirs)) differing[field] = theirs;
  }
  return differing;
}

/** `statement 40141 of 2026Q1`, `statement 40143 (payor North Music, currency royalty EUR)`. */
function otherStatement(known: Known, differing: StatementContext): string {
  const { accounting_period: period, ...rest } = differing;
  const others = Object.entries(rest).map(([field, value]) => `${field.replace(/_/g, ' ')} ${value}`);
  return `${known.label}${period === undefined ? '' : ` of ${period}`}${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
}

const sameValue = (a: string, b: string): boolean => a.trim().toUpperCase() === b.trim().toUpperCase();

function contextOf(record: Record<string, unknown>): StatementContext {
  const context: StatementContext = {};
  for (const field of CONTEXT_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') context[field] = value;
  }
  return context;
}

/**
 * The project's records of one kind by file name, listed once per command (every page), and the
 * uploads this command made, so that a file given twice is uploaded once.
 */
export class ExistingRecords {
  private readonly byName = new Map<string, Known[]>();

  private constructor(
    private readonly ctx: Context,
    private readonly projectId: string,
    private readonly content: boolean,
    private readonly given: StatementContext,
  ) {}

  /** `given`: the statement context of this upload, which a record must agree on to count as this file. */
  static async load(
    ctx: Context,
    kind: DocumentKind,
    projectId: string,
    content: boolean,
    given: StatementContext = {},
  ): Promise<ExistingRecords> {
    const records = new ExistingRecords(ctx, projectId, content, given);
    const resource = kind === 'contract' ? 'contracts' : 'statements';
    for await (const page of ctx.api.catalog.allPages(resource, { projectId, page: 1, perPage: 100 })) {
      for (const item of page.items) {
        const record = item as { id: string | number; file_name?: unknown; file_size?: unknown };
        if (typeof record.file_name !== 'string' || processingFailed(item)) continue;
        const id = String(record.id);
        const paused = pausedStaging(item);
        records.add(record.file_name, {
          label: `${kind} ${id}`,
          id,
          ...(typeof record.file_size === 'number' ? { size: record.file_size } : {}),
          fetch: { kind, id },
          context: contextOf(item),
          ...(paused === undefined ? {} : { paused }),
        });
      }
    }
    return records;
  }

  private add(fileName: string, known: Known): void {
    const list = this.byName.get(fileName) ?? [];
    list.push(known);
    this.byName.set(fileName, list);
  }

  /** An upload of this command (a dry run's would-be upload has no id yet). */
  uploaded(file: LocalUpload, stagingId: string | undefined): void {
    this.add(file.fileName, {
      label: stagingId === undefined ? `${file.arg} in this batch` : `staging id ${stagingId}`,
      id: stagingId ?? '',
      size: file.size,
      context: this.given,
      ...(this.content ? { sha256: sha256Of(file) } : {}),
    });
  }

  /**
   * Whether `file` is there already: a record with its name (and size, where reported) that agrees
   * with the statement context given (period, payor, payee, currencies, where the listing reports
   * them), and with `content` the same SHA-256. A name that matches without the rest is uploaded,
   * with why. A paused record that matches (name, size, context: its bytes are not compared) and no
   * other is retried: a re-run during a quota must not add another paused upload of the file.
   */
  async decide(file: LocalUpload): Promise<Decision> {
    const named = this.byName.get(file.fileName) ?? [];
    if (named.length === 0) return { skip: false };
    const sized = named.filter((known) => known.size === undefined || known.size === file.size);
    // A record of another period, payor, payee or currency is another statement, whatever its bytes.
    const candidates = sized.filter((known) => Object.keys(disagreements(this.given, known)).length === 0);
    if (candidates.length === 0) {
      const other = sized[0];
      if (other === undefined) return { skip: false, changed: 'changed' };
      return { skip: false, changed: `same name as ${otherStatement(other, disagreements(this.given, other))}` };
    }
    const kept = candidates.filter((known) => known.paused === undefined);
    const paused = candidates.find((known) => known.paused !== undefined)?.paused;
    const retry =
      paused === undefined ? { skip: false as const, changed: 'changed' } : { skip: false as const, retry: paused };
    if (!this.content) return kept.length > 0 ? skipping(kept[0] as Known) : retry;
    const local = await sha256Of(file);
    for (const known of kept) {
      if ((await this.hashOf(known, file.size)) === local) return skipping(known);
    }
    return retry;
  }

  /**
   * The hash of a record's file, read to at most the size the listing reported (else the local
   * file's): a longer body is not the same file, so reading stops there and it is a mismatch.
   */
  private hashOf(known: Known, localSize: number): Promise<string | undefined> {
    if (known.sha256) return known.sha256;
    const limit = known.size ?? localSize;
    known.remote ??= new Map();
    let hash = known.remote.get(limit);
    if (!hash) {
      hash = this.remoteSha256(known, limit);
      known.remote.set(limit, hash);
    }
    return hash;
  }

  /** The record's file through the download endpoint, hashed as it streams (nothing is kept); undefined when longer than `limit`. */
  private async remoteSha256(known: Known, limit: number): Promise<string | undefined> {
    const { kind, id } = known.fetch as { kind: DocumentKind; id: string };
    const link = await this.ctx.api.documents.download(kind, this.projectId, id);
    const hash = createHash('sha256');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done();
      },
    });
    // Only a PDF's first bytes are checked: a statement may be any of the service's formats. The
    // limit is no setting of this command's: no --max-size hint.
    const { maxSizeHint: _none, ...options } = storageOptions(this.ctx, false, Math.max(limit, 1));
    try {
      await saveToStream(link.url, sink, { ...options, pdf: kind === 'contract' || isPdf(link) });
    } catch (error) {
      if (error instanceof TooLargeError) return undefined;
      throw error;
    }
    return hash.digest('hex');
  }
}

/**
 * A record whose processing failed (or ran out of time) is no upload to keep: red stays red, and a
 * re-run sends the file again rather than skipping it as "already uploaded".
 */
function processingFailed(record: Record<string, unknown>): boolean {
  const stage = record.extraction_stage ?? record.processing_status;
  return stage === 'failed' || stage === 'timed_out';
}

/** The staging id of a statement the service holds paused (a quota), which a retry resumes. */
function pausedStaging(record: Record<string, unknown>): number | undefined {
  if ((record.extraction_stage ?? record.processing_status) !== 'paused') return undefined;
  const id = Number(record.staging_id);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const skipping = (known: Known): Decision => ({ skip: true, id: known.id, label: known.label });

/** SHA-256 of a local upload, read as a stream: memory stays flat whatever the size. */
async function sha256Of(file: LocalUpload): Promise<string> {
  const hash = createHash('sha256');
  if (file.source.kind === 'buffer') return hash.update(file.source.data).digest('hex');
  await pipeline(createReadStream(file.source.path), hash);
  return hash.digest('hex');
}

/** Work with the same file name goes one after the other (so a record made by the first is seen by the next); the rest runs in parallel. */
export function byFileName<T extends { file: { fileName: string } }>(entries: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const entry of entries) {
    const group = groups.get(entry.file.fileName) ?? [];
    group.push(entry);
    groups.set(entry.file.fileName, group);
  }
  return [...groups.values()];
}

export type ReportFormat = 'junit' | 'json';

/** `--report junit=out.xml --report json=out.json` → where each report goes; checked before anything is read. */
export function parseReports(values: readonly string[]): { format: ReportFormat; path: string }[] {
  return values.map((value) => {
    const match = /^(junit|json)=(.+)$/.exec(value);
    if (!match) throw new UsageError(`invalid --report '${value}': expected junit=<file> or json=<file>`);
    refuseLinkedReport(match[2] as string);
    return { format: match[1] as ReportFormat, path: match[2] as string };
  });
}

/** `0.4s`, `12.3s`, `1m04s`, `2h03m09s`: the summary line's duration. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  return h > 0 ? `${h}h${pad(m)}m${pad(s)}s` : `${m}m${pad(s)}s`;
}

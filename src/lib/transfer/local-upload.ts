// A file to upload, checked before anything is sent (docs/service.md, "Uploads"): it exists, is a
// regular file, is neither empty nor over the limit, and its name and first bytes are a format the
// kind takes. The body built from it is upload-body.ts's; the service's answer, upload-answer.ts's.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { HEAD_BYTES, formatOf, magicProblem, type DocumentKind } from './formats.js';
import { formatBytes } from '../output/text.js';

/** docs/service.md, "Two forms" says "50 MB"; the service (and its emulator) read it as MiB. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** A file that passed the local checks, ready to be sent. */
export interface LocalUpload {
  /** What the user typed: a path, or `-` for stdin. */
  arg: string;
  /** The name the service is told (the base name, or --file-name). */
  fileName: string;
  /** The MIME type its extension names (docs/service.md), sent as `fileType`. */
  fileType: string;
  size: number;
  /** The file's device and inode (`dev:ino`): the same file reached by two paths, or two links, has one. */
  identity?: string;
  /**
   * `handle`: the file already open, checked as it is open (checkOpenFile, for pds mcp): the upload
   * reads it and never the path, and whoever opened it closes it.
   */
  source: { kind: 'file'; path: string; handle?: FileHandle } | { kind: 'buffer'; data: Buffer };
}

/** Why a file cannot be uploaded; one line, prefixed by the file when shown. */
export class LocalFileError extends Error {
  constructor(
    readonly arg: string,
    readonly problem: string,
  ) {
    super(`${arg}: ${problem}`);
  }
}

/** Why a size cannot be uploaded (empty, or over the limit); undefined when it can. */
export function sizeProblem(size: number): string | undefined {
  if (size === 0) return 'the file is empty';
  if (size > MAX_UPLOAD_BYTES) {
    return `${formatBytes(size)} (${size} bytes) is over the 50 MiB upload limit (${MAX_UPLOAD_BYTES} bytes)`;
  }
  return undefined;
}

/** A file system error, said for a person. */
export function fsProblem(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a file';
  return error instanceof Error ? error.message : String(error);
}

/** The format a name has for a kind, and whether the first bytes are that format's; throws LocalFileError. */
function checkFormat(arg: string, kind: DocumentKind, fileName: string, head: Uint8Array): string {
  const format = formatOf(kind, fileName);
  if (typeof format === 'string') throw new LocalFileError(arg, format);
  const problem = magicProblem(format, head);
  if (problem) throw new LocalFileError(arg, arg === '-' ? problem.replace('the file', 'stdin') : problem);
  return format.type;
}

/** Checks a file on disk (exists, regular file, size, format by name and first bytes); throws LocalFileError. */
export async function checkFile(path: string, kind: DocumentKind, fileName?: string): Promise<LocalUpload> {
  const name = fileName ?? basename(path);
  // The name first: a refused extension needs no disk access.
  if (typeof formatOf(kind, name) === 'string') checkFormat(path, kind, name, new Uint8Array());
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    throw new LocalFileError(path, fsProblem(error));
  }
  if (info.isDirectory()) throw new LocalFileError(path, 'is a directory, not a file');
  if (!info.isFile()) throw new LocalFileError(path, 'is not a regular file');
  const tooBig = sizeProblem(info.size);
  if (tooBig) throw new LocalFileError(path, tooBig);
  let handle: FileHandle | undefined;
  const head = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
  try {
    handle = await open(path, 'r');
    await handle.read(head, 0, head.length, 0);
  } catch (error) {
    throw new LocalFileError(path, fsProblem(error));
  } finally {
    await handle?.close();
  }
  const fileType = checkFormat(path, kind, name, head);
  return {
    arg: path,
    fileName: name,
    fileType,
    size: info.size,
    identity: `${info.dev}:${info.ino}`,
    source: { kind: 'file', path },
  };
}

/**
 * Checks a file already open (regular, size, format by name and first bytes), reading only from
 * `handle`: the upload then reads the same handle, so what is sent is what was checked.
 */
export async function checkOpenFile(
  handle: FileHandle,
  arg: string,
  kind: DocumentKind,
  fileName: string,
): Promise<LocalUpload> {
  if (typeof formatOf(kind, fileName) === 'string') checkFormat(arg, kind, fileName, new Uint8Array());
  const info = await handle.stat();
  if (info.isDirectory()) throw new LocalFileError(arg, 'is a directory, not a file');
  if (!info.isFile()) throw new LocalFileError(arg, 'is not a regular file');
  const tooBig = sizeProblem(info.size);
  if (tooBig) throw new LocalFileError(arg, tooBig);
  const head = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
  await handle.read(head, 0, head.length, 0);
  const fileType = checkFormat(arg, kind, fileName, head);
  return { arg, fileName, fileType, size: info.size, source: { kind: 'file', path: arg, handle } };
}

/**
 * Reads one file from stdin. It is read whole (at most 50 MiB, refused beyond) so that it can be
 * checked like a file before anything is sent and be sent with a known length; a pipe cannot be
 * rewound. So a stdin upload holds the document in memory, unlike a file upload.
 */
export async function readStdin(stream: Readable, fileName: string, kind: DocumentKind): Promise<LocalUpload> {
  if (typeof formatOf(kind, fileName) === 'string') checkFormat('-', kind, fileName, new Uint8Array());
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_UPLOAD_BYTES) {
      stream.destroy();
      throw new LocalFileError('-', `stdin holds more than the 50 MiB upload limit (${MAX_UPLOAD_BYTES} bytes)`);
    }
    chunks.push(buffer);
  }
  const data = Buffer.concat(chunks);
  const tooSmall = sizeProblem(data.length);
  if (tooSmall) throw new LocalFileError('-', tooSmall.replace('the file', 'stdin'));
  const fileType = checkFormat('-', kind, fileName, data.subarray(0, HEAD_BYTES));
  return { arg: '-', fileName, fileType, size: data.length, source: { kind: 'buffer', data } };
}

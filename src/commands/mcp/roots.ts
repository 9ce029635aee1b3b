// Which local files the upload tools may read: only files under the server's roots (`--root`,
// default the working directory) and, when the client announces MCP roots, under one of those too;
// never a hidden file or a file in a hidden directory (`.ssh`, `.env`), even inside a root. Paths
// are checked as given and again with symlinks resolved, so a link cannot lead out of a root.
// The file is then opened once, and the open file is what is checked and what is uploaded: a name
// swapped for a link in between, or a second name (a hard link) outside the roots, reads nothing.
import { constants } from 'node:fs';
import { lstat, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../lib/errors.js';
import { LocalFileError, checkOpenFile, type LocalUpload } from '../../lib/transfer/local-upload.js';
import type { DocumentKind } from '../../lib/api/documents.js';

/** A root as given (resolved) and with its symlinks resolved: a path is checked against both forms. */
export interface Root {
  shown: string;
  real: string;
}

/** The client's roots as directories; undefined when the client announces none (no narrowing). */
export type ClientRoots = () => Promise<string[] | undefined>;

/** The `--root` directories, each an existing directory; the working directory when none is given. */
export async function serverRoots(dirs: string[] | undefined, cwd: string): Promise<Root[]> {
  const given = dirs && dirs.length > 0 ? dirs : [cwd];
  return Promise.all(
    given.map(async (dir) => {
      const shown = resolve(cwd, dir);
      let real: string;
      try {
        real = await realpath(shown);
        if (!(await stat(real)).isDirectory()) throw new Error('not a directory');
      } catch {
        throw new UsageError(`--root ${dir}: not a directory`);
      }
      return { shown, real };
    }),
  );
}

/** `path` relative to `root` when it is inside it (the root itself: ''), else undefined. */
function inside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? undefined : rel;
}

/** The first hidden name on the way from a root to `rel`, if any. */
const hiddenPart = (rel: string): string | undefined => rel.split(sep).find((part) => part.startsWith('.'));

/** Checks `path` against the roots in one of its forms; throws the refusal. */
function confine(arg: string, path: string, roots: string[], named: string): void {
  const rels = roots.map((root) => inside(root, path)).filter((rel): rel is string => rel !== undefined);
  if (rels.length === 0) {
    throw new UsageError(`${arg}: outside the directories pds mcp may read files from`, {
      details: [`${named}: ${roots.join(', ')}`],
    });
  }
  const hidden = rels.map(hiddenPart).find((part) => part !== undefined);
  if (hidden !== undefined) throw new UsageError(`${arg}: hidden files and directories (${hidden}) are not read`);
}

/** `path` with its symlinks resolved; a file that is not there is said so. */
async function realPath(arg: string, path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(`${arg}: ${code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
  }
}

/** Opened once: a link in the last place is not followed, and a FIFO does not block. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The file an upload tool may send: `arg` resolved from `cwd`, inside the roots before and after
 * its symlinks are resolved, opened once, and the open file checked: a regular file with one name
 * (a hard link could be a second name of a file outside the roots), which is still the file its
 * real path names (a link put in its place after the path was resolved is not followed; a directory
 * on the way swapped for a link leads to a file whose real path is outside, or not this file).
 * Then checked as the CLI checks an upload (a format the kind takes, within the limit), read from
 * the open file. The upload reads that same open file; the caller closes it (releaseLocalFile).
 */
export async function confinedFile(
  arg: string,
  kind: DocumentKind,
  cwd: string,
  roots: Root[],
  clientRoots: ClientRoots,
): Promise<LocalUpload> {
  const announced = await clientRoots();
  const clientReal =
    announced === undefined ? undefined : await Promise.all(announced.map((dir) => realpath(dir).catch(() => dir)));
  const lexical = resolve(cwd, arg);
  confine(arg, lexical, [...new Set(roots.flatMap((root) => [root.shown, root.real]))], 'roots');
  const underRoots = (path: string): void => {
    confine(
      arg,
      path,
      roots.map((root) => root.real),
      'roots',
    );
    if (clientReal === undefined) return;
    if (clientReal.length === 0) throw new UsageError(`${arg}: the client's roots allow no file`);
    confine(arg, path, clientReal, "the client's roots");
  };
  const real = await realPath(arg, lexical);
  underRoots(real);
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_FLAGS);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ELOOP') throw new UsageError(`${arg}: became a symbolic link while pds checked it; not read`);
    throw new UsageError(`${arg}: ${code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
  }
  try {
    await checkOpenedFile(arg, handle, real, underRoots);
    return await checkOpenFile(handle, arg, kind, basename(lexical));
  } catch (error) {
    await handle.close();
    throw error instanceof LocalFileError ? new UsageError(`${arg}: ${error.problem}`) : error;
  }
}

/** The open file is a regular file with one name, under the roots: the file its real path names now. */
async function checkOpenedFile(
  arg: string,
  handle: FileHandle,
  real: string,
  underRoots: (path: string) => void,
): Promise<void> {
  const info = await handle.stat();
  if (info.isDirectory()) throw new UsageError(`${arg}: is a directory, not a file`);
  if (!info.isFile()) throw new UsageError(`${arg}: is not a regular file`);
  const changed = new UsageError(`${arg}: changed while pds checked it; not read`);
  // No name left: it was removed, or another file renamed over it, since it was opened.
  if (info.nlink === 0) throw changed;
  if (info.nlink !== 1) {
    throw new UsageError(
      `${arg}: the file has ${info.nlink} names (hard links); pds mcp reads only a file with one, whose one name is under its roots`,
      {
        details: [
          'a hard link is the same file as its other names, which may be anywhere: copy the file into a root instead',
        ],
      },
    );
  }
  // Its one name is its real path, resolved again now, unless the file was moved or swapped
  // meanwhile: then the file found there is another (another device and inode), and is refused.
  const now = await realPath(arg, real);
  underRoots(now);
  const there = await lstat(now).catch(() => undefined);
  if (!there || there.dev !== info.dev || there.ino !== info.ino) throw changed;
}

/** Releases the file an upload tool opened, once the upload is over (sent or not). */
export async function releaseLocalFile(file: LocalUpload): Promise<void> {
  if (file.source.kind === 'file') await file.source.handle?.close();
}

/** The directories of the client's `file://` roots (others name no local directory). */
export function rootDirectories(roots: { uri: string }[]): string[] {
  return roots.filter((root) => root.uri.startsWith('file://')).map((root) => fileURLToPath(root.uri));
}

// Which local files the upload tools may read: only files under the server's roots (`--root`,
// default the working directory) and, when the client announces MCP roots, under one of those too;
// never a hidden file or a file in a hidden directory (`.ssh`, `.env`), even inside a root. Paths
// are checked as given and again with symlinks resolved, so a link cannot lead out of a root.
import { realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../lib/errors.js';
import { LocalFileError, checkFile, type LocalUpload } from '../../lib/upload.js';
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
    throw new UsageError(`${arg}: outside the directories pds mcp may read files from`, { details: [`${named}: ${roots.join(', ')}`] });
  }
  const hidden = rels.map(hiddenPart).find((part) => part !== undefined);
  if (hidden !== undefined) throw new UsageError(`${arg}: hidden files and directories (${hidden}) are not read`);
}

/**
 * The file an upload tool may send: `arg` resolved from `cwd`, inside the roots before and after
 * its symlinks are resolved, then checked like the CLI checks an upload (a format the kind takes, within the limit).
 */
export async function confinedFile(arg: string, kind: DocumentKind, cwd: string, roots: Root[], clientRoots: ClientRoots): Promise<LocalUpload> {
  const announced = await clientRoots();
  const lexical = resolve(cwd, arg);
  const allowed = [...new Set(roots.flatMap((root) => [root.shown, root.real]))];
  confine(arg, lexical, allowed, 'roots');
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(`${arg}: ${code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
  }
  confine(arg, real, roots.map((root) => root.real), 'roots');
  if (announced !== undefined) {
    const clientReal = await Promise.all(announced.map((dir) => realpath(dir).catch(() => dir)));
    if (clientReal.length === 0) throw new UsageError(`${arg}: the client's roots allow no file`);
    confine(arg, real, clientReal, "the client's roots");
  }
  try {
    return await checkFile(real, kind, basename(lexical));
  } catch (error) {
    throw error instanceof LocalFileError ? new UsageError(`${arg}: ${error.problem}`) : error;
  }
}

/** The directories of the client's `file://` roots (others name no local directory). */
export function rootDirectories(roots: { uri: string }[]): string[] {
  return roots.filter((root) => root.uri.startsWith('file://')).map((root) => fileURLToPath(root.uri));
}

// Where `-o` points, for a download: nothing yet, a regular file (replaced only with --force, "up to
// date" only when it holds the same bytes), or a FIFO, character device or descriptor written into as
// it is. A symbolic link, a block device or a socket is refused.
import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { link, lstat, readlink, realpath, rename, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PdsError, UsageError } from '../errors.js';
import { formatBytes } from '../output/text.js';

/** A local failure to create the file, said once, of the file asked for (not of its temporary). */
export function cannotWrite(target: string, error: unknown): PdsError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const meaning = error instanceof Error ? /^[A-Z]+: ([^,]+)/.exec(error.message)?.[1] : undefined;
  return new PdsError(`cannot write ${target}${code ? `: ${code}` : ''}${meaning ? ` (${meaning})` : ''}`, {
    cause: error,
  });
}

export function exists(target: string, size: number, remote: number, sameSize = false): UsageError {
  const what = sameSize
    ? `the download is as long, ${formatBytes(remote)}, with other content`
    : `the download is ${formatBytes(remote)}`;
  return new UsageError(`${target} exists (${formatBytes(size)}; ${what})`, { details: ['--force replaces it'] });
}

/** Whether two files hold the same bytes (by their SHA-256). */
export async function sameContent(one: string, other: string): Promise<boolean> {
  const digest = async (path: string) => {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  };
  const [a, b] = await Promise.all([digest(one), digest(other)]);
  return a === b;
}

/**
 * What `-o` names: nothing yet, a regular file (its size), or something written into as it is (a
 * FIFO, a character device, a descriptor). A directory, a block device, a socket or a symbolic link
 * that is not a descriptor is refused: pds never writes through a link, nor replaces what is not a
 * regular file.
 */
export async function targetKind(path: string): Promise<'new' | 'stream' | { size: number }> {
  let info: Stats;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'new';
    throw error;
  }
  if (info.isSymbolicLink()) {
    if (!(await isDescriptor(path)))
      throw new UsageError(`refusing to write ${path}: it is a symbolic link, and pds does not write through one`);
    info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${path} is a directory`);
    return 'stream';
  }
  if (info.isFile()) return { size: info.size };
  if (info.isDirectory()) throw new UsageError(`${path} is a directory`);
  if (info.isFIFO() || info.isCharacterDevice()) return 'stream';
  throw new UsageError(
    `refusing to write ${path}: it is ${info.isBlockDevice() ? 'a block device' : 'a socket'}, not a file, a FIFO or a character device`,
  );
}

/** `/dev/fd/N`, `/dev/stdout` and their kin: a process's open descriptor, by the name the system gives it. */
async function isDescriptor(path: string): Promise<boolean> {
  const descriptor = /^\/proc\/(self|\d+)\/fd(\/\d+)?$/;
  const parent = await realpath(dirname(resolve(path))).catch(() => '');
  if (descriptor.test(parent)) return true;
  const to = await readlink(path).catch(() => '');
  return descriptor.test(resolve(dirname(path), to));
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${path} is a directory`);
    return info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Gives the complete temporary file the target's name. Without --force a hard link does it, which
 * fails if a file appeared at the target meanwhile instead of replacing it; where links are not
 * supported, a rename after one more check.
 */
export async function place(temporary: string, target: string, force: boolean, bytes: number): Promise<void> {
  if (force) {
    await rename(temporary, target);
    return;
  }
  try {
    await link(temporary, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw exists(target, (await sizeOf(target)) ?? 0, bytes);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
  }
  const appeared = await sizeOf(target);
  if (appeared !== undefined) throw exists(target, appeared, bytes);
  await rename(temporary, target);
}

// The files that hold a credential or steer where it goes (config.json, its lock, the completion
// cache) and their directory. As ssh does with keys, pds refuses them when another user could have
// written them (another owner, or writable by group or others): a planted config could send the
// token to any server. And nothing is written through a symbolic link: a link planted where pds
// writes would otherwise have it write (the token, with mode 0600 or not) wherever it points; the
// CI reports of `pds upload --report` are written the same way (writeReplacing).
import { lstatSync, statSync, type Stats } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AuthError } from '../errors.js';

/** A config file or directory another user could have written (exit 3, as for a bad credential). */
export class UnsafeFileError extends AuthError {}

type What = 'config file' | 'config directory' | 'config lock' | 'completion cache';

/** Throws UnsafeFileError unless `path` is missing, or ours (or root's) and writable by us alone. */
export function checkPrivate(path: string, what: What): void {
  // Windows has no owner and mode bits in this sense; its profile directory is per user already.
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return;
  let info: Stats;
  try {
    info = lstatSync(path);
    // A directory may be a link (dotfiles managers make them): what it points to is judged.
    if (info.isSymbolicLink() && what === 'config directory') info = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const directory = what === 'config directory';
  if (info.isSymbolicLink()) {
    throw new UnsafeFileError(
      `refusing the ${what} ${path}: it is a symbolic link, and pds does not read or write through one`,
      {
        details: [`remove it (\`rm '${path}'\`), or put the file itself in its place`],
      },
    );
  }
  const uid = process.getuid();
  if (info.uid !== uid && info.uid !== 0) {
    throw new UnsafeFileError(
      `refusing the ${what} ${path}: it belongs to another user (uid ${info.uid}), who could have written it`,
      {
        details: [`if it is yours: \`chown ${uid} '${path}'\`; otherwise remove it`],
      },
    );
  }
  const writable = [info.mode & 0o020 ? 'group' : '', info.mode & 0o002 ? 'others' : ''].filter(Boolean);
  if (writable.length > 0) {
    throw new UnsafeFileError(
      `refusing the ${what} ${path}: it is writable by ${writable.join(' and ')} (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}), who could have changed it`,
      { details: [`fix: \`chmod ${directory ? '700' : '600'} '${path}'\``] },
    );
  }
}

/**
 * Writes `text` to `path` with mode 0600, atomically (writeReplacing). A symbolic link at `path` is
 * refused, not replaced.
 */
export async function writePrivateFile(path: string, text: string, what: What): Promise<void> {
  checkPrivate(path, what);
  await writeReplacing(path, text, 0o600);
}

/**
 * Writes `text` to `path` atomically and through no link: a new file beside it (created
 * exclusively, so no link is followed), then renamed over it. A link put at `path` meanwhile is
 * replaced by the rename, never written through; `mode` is that of the new file (less the umask).
 */
export async function writeReplacing(path: string, text: string, mode: number): Promise<void> {
  // node:crypto is loaded here, by a write: every command reads the config, few write it.
  const { randomBytes } = await import('node:crypto');
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
    await handle.close();
    await rename(temporary, path);
  } finally {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
  }
}

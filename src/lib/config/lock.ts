// The config file's lock: one writer at a time, across processes, so concurrent `pds config set` /
// `use` / `auth login` lose nothing (proper-lockfile, with the holder's pid kept beside the lock).
import { mkdir, chmod, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { checkPrivate, writePrivateFile } from './private-files.js';
import { PdsError } from '../errors.js';
import { checkConfigPrivate, configDir, configPath } from './file.js';

/**
 * The directory that holds the token: created 0700. An existing default directory (…/pds, ours by
 * name) is tightened to 0700; a PDS_CONFIG_DIR that already exists is the user's choice and is left
 * as it is.
 */
async function prepareConfigDir(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = configDir(env);
  const created = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (created === undefined && !env.PDS_CONFIG_DIR) await chmod(dir, 0o700);
  checkConfigPrivate(env);
  return dir;
}

/** A lock not refreshed for this long belongs to a process that died: it is taken over. */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for a live holder before it gives up (a little over STALE_LOCK_MS). */
const LOCK_WAIT_MS = STALE_LOCK_MS + 1_000;

/**
 * Runs `work` holding the config file's lock: one writer at a time, across processes. The lock is
 * a directory beside the file (config.json.lock), so the file need not exist yet; the holder's pid
 * and host are kept beside it (config.json.lock-pid; the lock itself must stay empty to be
 * removed), to be named to whoever waits, and to tell a holder that is gone from one at work.
 */
export async function withConfigLock<T>(
  env: NodeJS.ProcessEnv,
  work: () => Promise<T>,
  warn?: (line: string) => void,
): Promise<T> {
  await prepareConfigDir(env);
  const lockDir = `${configPath(env)}.lock`;
  const pidFile = `${lockDir}-pid`;
  checkPrivate(lockDir, 'config lock');
  const release = await acquireConfigLock(configPath(env), lockDir, warn);
  try {
    await writePrivateFile(pidFile, `${process.pid}\n${hostname()}\n`, 'config lock');
    return await work();
  } finally {
    await rm(pidFile, { force: true });
    await release();
  }
}

/**
 * Takes the lock, waiting for a live holder (said at once, with its pid when known) up to
 * LOCK_WAIT_MS. A holder on this host whose pid is no longer alive is gone: its lock is taken over
 * at once. A holder that left no pid (or is on another host) is waited for until its lock goes
 * stale (not refreshed for STALE_LOCK_MS), when proper-lockfile takes it over.
 */
async function acquireConfigLock(
  path: string,
  lockDir: string,
  warn?: (line: string) => void,
): Promise<() => Promise<void>> {
  // CommonJS: its functions hang off the default export once bundled.
  const { default: lockfile } = await import('proper-lockfile');
  const deadline = Date.now() + LOCK_WAIT_MS;
  let waiting: LockHolder | undefined;
  let pause = 10;
  for (;;) {
    const seen = await lockHolder(lockDir);
    if (
      seen?.pid !== undefined &&
      seen.host === hostname() &&
      !processAlive(seen.pid) &&
      (await takeOverLock(lockDir, seen.pid))
    ) {
      warn?.(`took over the config lock of pid ${seen.pid}, which stopped without releasing it`);
    }
    try {
      return await lockfile.lock(path, { realpath: false, stale: STALE_LOCK_MS, retries: 0 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const holder = (await lockHolder(lockDir)) ?? seen;
    if (waiting === undefined || (holder?.pid !== undefined && holder.pid !== waiting.pid)) {
      warn?.(`waiting for the config lock, held by ${describeHolder(holder)}`);
      waiting = holder ?? {};
    }
    if (Date.now() >= deadline) {
      throw new PdsError(
        `another pds is writing the config${holder?.pid ? ` (pid ${holder.pid})` : ''}; waited ${LOCK_WAIT_MS / 1000} s`,
        {
          details: [`if no pds is running, remove the lock: \`rm -r '${lockDir}'\``],
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(250, Math.ceil(pause * 1.3));
  }
}

interface LockHolder {
  pid?: string;
  host?: string;
}

function describeHolder(holder: LockHolder | undefined): string {
  if (holder?.pid === undefined)
    return `a process that did not say its pid (taken over if it does not refresh it within ${STALE_LOCK_MS / 1000} s)`;
  return `pid ${holder.pid}${holder.host !== undefined && holder.host !== hostname() ? ` on ${holder.host}` : ''}`;
}

/** Who holds the lock (its pid and host, when it said: the first two lines of the pid file); undefined when nobody does. */
async function lockHolder(lockDir: string): Promise<LockHolder | undefined> {
  try {
    await stat(lockDir);
  } catch {
    return undefined;
  }
  const [pid, host] = await readFile(`${lockDir}-pid`, 'utf8').then(
    (text) => text.split('\n').map((line) => line.trim()),
    () => [],
  );
  // A pid file without a host was written by an earlier pds, on this host.
  return pid !== undefined && /^\d+$/.test(pid) ? { pid, host: host || hostname() } : {};
}

function processAlive(pid: string): boolean {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    // EPERM: it is alive, and another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the lock of `pid`, which is gone. Of several processes that find it so at once, one takes
 * it over: the one that moves its pid file aside (a rename succeeds once); the others wait as for
 * any holder, and find the lock free or held by the winner.
 */
async function takeOverLock(lockDir: string, pid: string): Promise<boolean> {
  const claim = `${lockDir}-pid.${process.pid}`;
  try {
    await rename(`${lockDir}-pid`, claim);
  } catch {
    return false;
  }
  const [claimed] = (await readFile(claim, 'utf8').catch(() => '')).split('\n');
  try {
    // Another process's pid moved aside by mistake (it took the lock between the look and the
    // rename) goes back: only the dead pid's lock is removed.
    if (claimed?.trim() !== pid) {
      await rename(claim, `${lockDir}-pid`);
      return false;
    }
    // The lock is an empty directory (proper-lockfile's): rmdir, as proper-lockfile removes a stale one.
    await rmdir(lockDir).catch(() => undefined);
    return true;
  } finally {
    await rm(claim, { force: true });
  }
}

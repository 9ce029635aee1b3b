// The config file on disk: where it is, and reading it. A config file that cannot be used (a
// directory, unreadable, not JSON) stops every command with a BrokenConfigError that names the file
// and a command that works; one another user could have written stops it with an UnsafeFileError
// (src/lib/config/private-files.ts).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { formatBytes } from '../output/text.js';
import { checkPrivate } from './private-files.js';
import { checkOf, isPlainObject, keyedByText } from '../shape.js';
import { PROFILES_SHAPE, type ConfigFile } from './shapes.js';
import { UsageError } from '../errors.js';

/**
 * The config file as JSON.parse gives it, checked by the shapes of config-shapes.ts (without zod:
 * every command reads the file): its profiles ({} when it has none), or undefined when it does not
 * hold pds profiles.
 */
export function configFrom(json: unknown): ConfigFile | undefined {
  if (!isPlainObject(json)) return undefined;
  // Profiles are keyed by their names, which are the user's text: `__proto__` is a name like any.
  if (json.profiles === undefined) return { ...json, profiles: keyedByText() };
  if (!checkOf(PROFILES_SHAPE)(json.profiles)) return undefined;
  return { ...(json as ConfigFile), profiles: keyedByText((json as ConfigFile).profiles) };
}

export function configDir(env: NodeJS.ProcessEnv): string {
  return env.PDS_CONFIG_DIR || defaultConfigDir(env);
}

function defaultConfigDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'pds');
}

export const configPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'config.json');

/** A directory, a FIFO or device, a file far too large: none can be read as a config, only moved away. */
export type BrokenConfigKind = 'directory' | 'not a file' | 'too large' | 'unreadable' | 'corrupt';

/** The config file exists but cannot be used; the message names it, the details a way out. */
export class BrokenConfigError extends UsageError {
  constructor(
    readonly path: string,
    readonly kind: BrokenConfigKind,
    problem: string,
  ) {
    super(`the config file ${path} ${problem}`, { details: brokenConfigHelp(path, kind) });
  }
}

function brokenConfigHelp(path: string, kind: BrokenConfigKind): string[] {
  const aside = `mv '${path}' '${path}.old'`;
  if (kind === 'corrupt')
    return ['`pds auth login` replaces it (the broken file is kept beside it)', `or move it away: \`${aside}\``];
  if (kind === 'directory' || kind === 'not a file' || kind === 'too large')
    return [`move it away: \`${aside}\`, then \`pds auth login\``];
  return [`make it readable: \`chmod u+rw '${path}'\`, or move it away: \`${aside}\``];
}

export type ConfigRead = { file: ConfigFile } | { broken: BrokenConfigError };

function parseConfig(path: string, text: string): ConfigRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { broken: new BrokenConfigError(path, 'corrupt', 'is not valid JSON') };
  }
  const file = configFrom(json);
  if (!file) return { broken: new BrokenConfigError(path, 'corrupt', 'does not hold pds profiles (unexpected shape)') };
  return { file };
}

/** A config file is a few hundred bytes; one over this is no config file, and is not read into memory. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** What a file that is not a regular file is, for the message. */
function fileKind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The config file's text, from the file opened once and checked open: a FIFO (which would hold every
 * command until something wrote to it), a device (which may never end), a directory or a file over
 * MAX_CONFIG_BYTES is refused at once. Opened without blocking, so a FIFO does not wait for a writer,
 * and never as a controlling terminal.
 */
function readConfigText(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new BrokenConfigError(path, 'directory', 'is a directory, not a file');
    if (!info.isFile()) throw new BrokenConfigError(path, 'not a file', `is ${fileKind(info)}, not a regular file`);
    const tooLarge = (size: string) =>
      new BrokenConfigError(
        path,
        'too large',
        `is ${size}, far more than a config file holds (pds reads at most ${formatBytes(MAX_CONFIG_BYTES)})`,
      );
    if (info.size > MAX_CONFIG_BYTES) throw tooLarge(formatBytes(info.size));
    // Read to the end, not to the size fstat gave: the file may grow meanwhile, within the bound.
    const buffer = Buffer.allocUnsafe(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, length);
    if (length > MAX_CONFIG_BYTES) throw tooLarge(`over ${formatBytes(MAX_CONFIG_BYTES)}`);
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

function readError(path: string, error: unknown): ConfigRead {
  if (error instanceof BrokenConfigError) return { broken: error };
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { file: { profiles: keyedByText() } };
  if (code === 'EISDIR') return { broken: new BrokenConfigError(path, 'directory', 'is a directory, not a file') };
  if (code === 'EACCES' || code === 'EPERM')
    return { broken: new BrokenConfigError(path, 'unreadable', 'cannot be read: permission denied') };
  return { broken: new BrokenConfigError(path, 'unreadable', `cannot be read: ${(error as Error).message}`) };
}

export interface ConfigReading {
  /**
   * A file that is not JSON reads as no profiles (`pds auth login`, which replaces it when it
   * writes its new profile) instead of throwing.
   */
  corruptAsEmpty?: boolean;
  /** A keychain that cannot be read gives the profile without its credential (`auth logout`). */
  keychainUnreadableAsEmpty?: boolean;
}

/** The profiles on disk; no file is no profiles; a file that cannot be used throws BrokenConfigError. */
export function readConfig(env: NodeJS.ProcessEnv, reading: ConfigReading = {}): ConfigFile {
  const path = configPath(env);
  checkConfigPrivate(env);
  let read: ConfigRead;
  try {
    read = parseConfig(path, readConfigText(path));
  } catch (error) {
    read = readError(path, error);
  }
  if ('broken' in read) {
    if (reading.corruptAsEmpty && read.broken.kind === 'corrupt') return { profiles: keyedByText() };
    throw read.broken;
  }
  return read.file;
}

/** The config directory and file are ours alone, or refused (UnsafeFileError). */
export function checkConfigPrivate(env: NodeJS.ProcessEnv): void {
  checkPrivate(configDir(env), 'config directory');
  checkPrivate(configPath(env), 'config file');
}

export async function readConfigAsync(path: string): Promise<ConfigRead> {
  try {
    return parseConfig(path, readConfigText(path));
  } catch (error) {
    return readError(path, error);
  }
}

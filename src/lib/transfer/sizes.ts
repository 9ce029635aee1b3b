// How large a download may be: --max-size read as a size (`500M`, `2G`), and the limit without it.
import { UsageError } from '../errors.js';

/** The largest file a download takes unless --max-size says: far beyond any contract, short of a full disk. */
export const DEFAULT_MAX_BYTES = 1024 ** 3;

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** A size in bytes: `1048576`, `512K`, `100M`, `1G` (binary units; `MiB`, `MB` and `M` alike). */
export function parseSize(flag: string, value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(value);
  const bytes = match ? Math.floor(Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1)) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(`invalid ${flag} '${value}': expected a size such as 500M or 2G`);
  return bytes;
}

/** The limit --max-size sets (a size such as 500M), or the default one without it. */
export function maxSizeOf(flag: string | undefined): number {
  return flag === undefined ? DEFAULT_MAX_BYTES : parseSize('--max-size', flag);
}

// Option parsers shared by verbs: commander hands over strings, these check and convert them.
import * as z from 'zod/mini';

/** A whole number ≥ min (and ≤ max), from the string commander passes. */
export function positiveInt(flag: string, min = 1, max?: number) {
  const range = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
  return z.pipe(
    z.string(),
    z.transform((value, ctx) => {
      const n = Number(value);
      if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
        ctx.issues.push({ code: 'custom', input: value, message: `invalid ${flag} '${value}': expected a whole number ${range}` });
        return z.NEVER;
      }
      return n;
    }),
  );
}

/** `--include a,b --include c` → ['a', 'b', 'c']. */
export function commaList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** A size in bytes: `1048576`, `512K`, `100M`, `1G` (binary units; `MiB`, `MB` and `M` alike). */
export function byteSize(flag: string) {
  return z.pipe(
    z.string(),
    z.transform((value, ctx) => {
      const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(value);
      const bytes = match ? Math.floor(Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1)) : NaN;
      if (!Number.isSafeInteger(bytes) || bytes < 1) {
        ctx.issues.push({ code: 'custom', input: value, message: `invalid ${flag} '${value}': expected a size such as 500M or 2G` });
        return z.NEVER;
      }
      return bytes;
    }),
  );
}

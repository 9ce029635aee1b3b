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

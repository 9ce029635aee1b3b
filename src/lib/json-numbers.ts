// The exact text of the JSON numbers a double cannot hold. JSON.parse reads every number as a double:
// 1e400 becomes Infinity, 1e-400 becomes 0, 12345678901234567890123 loses its last digits, and
// nothing says so. Node 20's JSON.parse cannot show a reviver the source text, so parseJson parses
// as usual and then scans the text once for number tokens whose double is not the number written
// (its shortest decimal differs from the token's value); each such token's text is kept beside the
// object that holds it. An amount is then read from that text (money/amount.ts: exactly, or
// unreadable past its precision limit), never from the double. Everything else reads the parsed
// value as before.

/** Per object, the text of each of its numbers that JSON.parse could not read exactly, by key. */
const sources = new WeakMap<object, Map<string, string>>();

/** The text the service wrote for `container[key]`, when that number was not read exactly; else undefined. */
export function numberText(container: object, key: string | number): string | undefined {
  return sources.get(container)?.get(String(key));
}

/**
 * What a number that may not be read exactly looks like, after the `:`, `,` or `[` before a value:
 * 16 or more digits (and points), or an exponent. Text with none (most answers) is not scanned; a
 * match inside a string only costs the scan, which is what decides.
 */
const MAYBE_INEXACT = /[:,[]\s*-?\d(?:[\d.]{15}|[\d.]*[eE])/;

/** JSON.parse, keeping the text of every number it could not read exactly (numberText). */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'object' && value !== null && MAYBE_INEXACT.test(text)) keepInexactNumbers(text, value);
  return value;
}

/** A number written in JSON's grammar as sign, significant digits and exponent (`-125e-2`); '0' for zero. */
export function canonicalNumber(token: string): string | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', power = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  const exponent = BigInt(power) - BigInt(fraction.length) + BigInt(trailing);
  return `${sign}${digits}e${exponent}`;
}

/** Whether a number token's double is the number written (its shortest decimal has the same value). */
function readExactly(token: string): boolean {
  return canonicalNumber(token) === canonicalNumber(String(Number(token)));
}

/** Where the scan is: in an object (at the key between keyStart and keyEnd) or an array (at index). */
interface Frame {
  object: boolean;
  keyStart: number;
  keyEnd: number;
  index: number;
}

/**
 * One pass over text JSON.parse accepted: strings are skipped with indexOf, and only a number token
 * of more than 15 characters or with an exponent (no shorter one can lose a digit) is looked at.
 */
function keepInexactNumbers(text: string, root: object): void {
  const frames: Frame[] = [];
  let expectKey = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      const top = frames[frames.length - 1];
      if (expectKey && top !== undefined) {
        top.keyStart = i;
        top.keyEnd = end;
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      frames.push({ object: c === 0x7b, keyStart: 0, keyEnd: 0, index: 0 });
      expectKey = c === 0x7b;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
      expectKey = false;
      i++;
    } else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.object) expectKey = true;
      else if (top !== undefined) top.index++;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      let exponent = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x65 || d === 0x45) exponent = true;
        else if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x2b || d === 0x2d)) break;
      }
      if (exponent || j - i > 15) {
        const token = text.slice(i, j);
        if (!readExactly(token)) keep(text, root, frames, token);
      }
      i = j;
    } else i++;
  }
}

/** The index just past the string that opens at `start` (its closing quote is one no backslash escapes). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** Keeps `token` beside the object that holds it, found from the root by the frames' keys. */
function keep(text: string, root: object, frames: readonly Frame[], token: string): void {
  const keyOf = (frame: Frame): string =>
    frame.object ? (JSON.parse(text.slice(frame.keyStart, frame.keyEnd)) as string) : String(frame.index);
  let container: unknown = root;
  for (const frame of frames.slice(0, -1)) {
    if (typeof container !== 'object' || container === null) return;
    container = (container as Record<string, unknown>)[keyOf(frame)];
  }
  const last = frames[frames.length - 1];
  if (last === undefined || typeof container !== 'object' || container === null) return;
  const key = keyOf(last);
  // A key given twice keeps its last value (JSON.parse's): the text is kept only for the value there.
  if (!Object.is((container as Record<string, unknown>)[key], Number(token))) return;
  const kept = sources.get(container) ?? new Map<string, string>();
  sources.set(container, kept);
  kept.set(key, token);
}

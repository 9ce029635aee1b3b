// JSON text of any depth the JSON parser accepted. V8's JSON.stringify recurses, and a field nested
// some 10,000 levels deep (which JSON.parse reads) overflows its stack: an unused field would fail
// every data format. The usual case keeps JSON.stringify (fast); only when it overflows is the value
// written again by a loop with a stack of its own, to the same JSON (indented to INDENTED_DEPTH).
import { UsageError } from '../errors.js';

/** JSON.stringify(value, null, indent), at any depth. */
export function jsonText(value: unknown, indent = 0): string {
  try {
    return JSON.stringify(value, null, indent === 0 ? undefined : indent);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return deepJsonText(value, indent);
}

/** How deep text written by the loop is indented (JSON.stringify's own text is indented throughout). */
const INDENTED_DEPTH = 100;

interface Frame {
  array: boolean;
  entries: [string, unknown][];
  index: number;
  depth: number;
  wrote: boolean;
}

/** A value JSON writes as such, or undefined for one it leaves out of an object (null in an array). */
function scalarText(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return undefined;
}

export function deepJsonText(root: unknown, indent: number): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  // Past INDENTED_DEPTH levels the text goes on compact: indenting every level would make its size
  // grow with the square of the depth (10,000 levels: 100 MB of spaces).
  const indented = (depth: number) => indent !== 0 && depth <= INDENTED_DEPTH;
  const newline = (depth: number) => (indented(depth) ? `\n${' '.repeat(indent * depth)}` : '');
  const open = (value: unknown, depth: number): void => {
    let own = value;
    if (own !== null && typeof own === 'object' && typeof (own as { toJSON?: unknown }).toJSON === 'function')
      own = (own as { toJSON(): unknown }).toJSON();
    if (own === null || typeof own !== 'object') {
      parts.push(scalarText(own) ?? 'null');
      return;
    }
    const array = Array.isArray(own);
    const entries = array
      ? (own as unknown[]).map((item, index): [string, unknown] => [String(index), item])
      : Object.entries(own);
    parts.push(array ? '[' : '{');
    stack.push({ array, entries, index: 0, depth, wrote: false });
  };
  open(root, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const next = frame.entries[frame.index++];
    if (next === undefined) {
      stack.pop();
      parts.push(`${frame.wrote ? newline(frame.depth) : ''}${frame.array ? ']' : '}'}`);
      continue;
    }
    const [key, value] = next;
    const leftOut = value === undefined || typeof value === 'function' || typeof value === 'symbol';
    if (leftOut && !frame.array) continue;
    parts.push(`${frame.wrote ? ',' : ''}${newline(frame.depth + 1)}`);
    if (!frame.array) parts.push(`${JSON.stringify(key)}${indented(frame.depth + 1) ? ': ' : ':'}`);
    frame.wrote = true;
    open(leftOut ? null : value, frame.depth + 1);
  }
  return parts.join('');
}

/**
 * The first field of `value` nested deeper than `limit` levels, as a path (`0.deep.a.a…`) with its
 * depth; undefined when none is. Walked with a stack of its own, so any depth is measured.
 */
export function tooDeep(value: unknown, limit: number): { path: string; depth: number } | undefined {
  interface Node {
    value: unknown;
    key: string;
    depth: number;
    parent: Node | undefined;
  }
  const stack: Node[] = [{ value, key: '', depth: 0, parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.value === null || typeof node.value !== 'object') continue;
    if (node.depth >= limit) {
      let depth = node.depth;
      for (let inner: unknown = node.value; inner !== null && typeof inner === 'object'; depth++)
        inner = Object.values(inner)[0];
      const keys: string[] = [];
      for (let up: Node | undefined = node; up?.parent; up = up.parent) keys.push(up.key);
      keys.reverse();
      return { path: `${keys.slice(0, 4).join('.')}${keys.length > 4 ? '.…' : ''}`, depth };
    }
    for (const [key, inner] of Object.entries(node.value))
      stack.push({ value: inner, key, depth: node.depth + 1, parent: node });
  }
  return undefined;
}

/** Refuses a value a recursive writer (YAML, jq) cannot take, naming its deepest field and its depth. */
export function checkDepth(value: unknown, limit: number, writer: string): void {
  const deep = tooDeep(value, limit);
  if (!deep) return;
  throw new UsageError(
    `the answer's field ${deep.path} is nested ${deep.depth.toLocaleString('en-US')} levels deep, more than ${writer} takes (${limit.toLocaleString('en-US')})`,
    { details: ['--json and the other formats write it, or leave it out with --fields'] },
  );
}

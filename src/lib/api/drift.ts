// `--verbose` on answers that differ from the documents. pds checks only what a command needs of a
// record (its id); every other field may come in another form and is shown as it came. Those
// differences are said here, once per resource and field in a command, so a person (or a bug report)
// sees where the service left its documented forms (api/shapes.ts), without any command failing.
import { checkOf, isPlainObject, type Shape } from '../shape.js';
import { safeText } from '../output/text.js';

type ObjectShape = { object: { readonly [field: string]: Shape } };

/** A value's JSON kind, for the line that says what came instead. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array of ${kindOf(value[0])}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A function that looks over records of a documented shape and traces each field, once, that is
 * not in its documented form or is not documented at all. Without a trace (no --verbose) it is
 * never called: looking costs a pass over every field of every record.
 */
export function driftNotes(trace: (line: string) => void) {
  const said = new Set<string>();
  const say = (key: string, line: string) => {
    if (said.has(key)) return;
    said.add(key);
    trace(line);
  };
  return (resource: string, documented: ObjectShape, records: readonly unknown[]): void => {
    for (const record of records) {
      if (!isPlainObject(record)) continue;
      for (const [key, value] of Object.entries(record)) {
        const shape = documented.object[key];
        const field = safeText(key);
        if (shape === undefined)
          say(
            `${resource}\0${field}`,
            `* ${resource}: field '${field}' is not in the documented forms (kept as received)`,
          );
        else if (!checkOf(shape)(value)) {
          say(
            `${resource}\0${field}`,
            `* ${resource}: field '${field}' is ${kindOf(value)}, not its documented form (shown as received)`,
          );
        }
      }
    }
  };
}

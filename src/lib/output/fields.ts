// `--fields id,name,created_at` on lists and gets: which fields of the records to show, in that
// order, in the table, the TSV and the JSON. The names are the JSON field names of the resource:
// every field it documents, and any other its records hold (a name the documentation lacks is
// checked against the first page, or the record, when it arrives). A dotted name reaches inside a
// nested value (`financials.licensor_revenue`, `score.summary.score`); its first part is checked.
import { UsageError } from '../errors.js';
import { isPlainObject, keyedByText } from '../shape.js';

/** `--fields` as given: comma-separated, blanks ignored, duplicates dropped. */
export function parseFields(value: string): string[] {
  const names = [
    ...new Set(
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) throw new UsageError('--fields needs at least one field name, e.g. --fields id,name');
  return names;
}

/** The fields a zod object schema declares (a loose schema may carry more; those are not offered). */
export function schemaFields(schema: unknown, extra: readonly string[] = []): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return [...new Set([...Object.keys(shape), ...extra])];
}

/**
 * `--fields` against the fields a resource documents (`known`) and those its records hold
 * (`seen`): a name in neither is exit 2, listing both.
 */
export function checkFields(
  requested: readonly string[],
  known: readonly string[],
  noun: string,
  seen: readonly string[] = [],
): void {
  const fields = [...new Set([...known, ...seen])];
  const unknown = requested.find((name) => !fields.includes(name) && !fields.includes(topField(name)));
  if (unknown !== undefined) {
    throw new UsageError(`unknown field '${unknown}' for ${noun}`, {
      details: [`fields of ${noun}: ${fields.join(', ')}`],
    });
  }
}

/** The record's own field of a name: `financials` of `financials.currency`. */
const topField = (name: string): string => name.split('.')[0] ?? name;

/**
 * A field's value: the record's own field of that name, else the dotted path followed through
 * nested objects (and lists, by index); undefined where the path ends.
 */
export function fieldValue(record: object, name: string): unknown {
  const source = record as Record<string, unknown>;
  if (Object.hasOwn(source, name) || !name.includes('.')) return source[name];
  let value: unknown = source;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * The record with only those fields, in that order; a field the record lacks is null (a blank
 * cell). A dotted name keeps its nesting (`financials.currency` → `{financials: {currency}}`), so
 * the JSON of a pick reads as the record does; CSV spreads it back into a dotted column.
 */
export function pickFields(record: object, fields: readonly string[]): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  // Keyed by field names the user or the service chose: `__proto__` is a field like any.
  const picked = keyedByText<unknown>();
  for (const name of fields) {
    const value = fieldValue(source, name) ?? null;
    if (Object.hasOwn(source, name) || !name.includes('.')) {
      picked[name] = value;
      continue;
    }
    const parts = name.split('.');
    const last = parts.pop() as string;
    let into: Record<string, unknown> | undefined = picked;
    for (const part of parts) {
      if (!Object.hasOwn(into, part)) into[part] = keyedByText();
      const next: unknown = into[part];
      // The whole of the parent was asked for too (and is not an object): nothing to add to it.
      into = isPlainObject(next) ? next : undefined;
      if (!into) break;
    }
    if (into) into[last] = value;
  }
  return picked;
}

/** The fields as one flat record, a dotted name as its own key: the rows of a record's view. */
export function pickFlat(record: object, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((name) => [name, fieldValue(record, name) ?? null]));
}

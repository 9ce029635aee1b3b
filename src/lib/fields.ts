// `--fields id,name,created_at` on lists and gets: which fields of the records to show, in that
// order, in the table, the TSV and the JSON. The names are the JSON field names of the resource:
// every field it documents, and any other its records hold (a name the documentation lacks is
// checked against the first page, or the record, when it arrives).
import { UsageError } from './errors.js';

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
  const unknown = requested.find((name) => !fields.includes(name));
  if (unknown !== undefined) {
    throw new UsageError(`unknown field '${unknown}' for ${noun}`, {
      details: [`fields of ${noun}: ${fields.join(', ')}`],
    });
  }
}

/** The record with only those fields, in that order; a field the record lacks is null (a blank cell). */
export function pickFields(record: object, fields: readonly string[]): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  return Object.fromEntries(fields.map((name) => [name, source[name] ?? null]));
}

// `--fields id,name,created_at` on lists and gets: which fields of the records to show, in that
// order, in the table, the TSV and the JSON. The names are the JSON field names of the resource.
import { UsageError } from './errors.js';

/** `--fields` as given: comma-separated, blanks ignored, duplicates dropped. */
export function parseFields(value: string): string[] {
  const names = [...new Set(value.split(',').map((name) => name.trim()).filter(Boolean))];
  if (names.length === 0) throw new UsageError('--fields needs at least one field name, e.g. --fields id,name');
  return names;
}

/** The fields a zod object schema declares (a loose schema may carry more; those are not offered). */
export function schemaFields(schema: unknown, extra: readonly string[] = []): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return [...new Set([...Object.keys(shape), ...extra])];
}

export function checkFields(requested: readonly string[], known: readonly string[], noun: string): void {
  const unknown = requested.find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new UsageError(`unknown field '${unknown}' for ${noun}`, { details: [`fields of ${noun}: ${known.join(', ')}`] });
  }
}

/** The record with only those fields, in that order; a field the record lacks is null (a blank cell). */
export function pickFields(record: object, fields: readonly string[]): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  return Object.fromEntries(fields.map((name) => [name, source[name] ?? null]));
}

// How one value from the service becomes one line of terminal-safe text: a table cell, a record
// field's value. A list reads item by item, an object by its label, a timestamp as a local date.
import { safeText } from './text.js';
import { jsonText } from './deep-json.js';

/** A value as one line of terminal-safe text: a list item by item, an object by its label. */
export function textCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return safeText(value.map(labelOf).join(', '));
  return safeText(labelOf(value));
}

/**
 * What names a value in a cell: an object (an artist, an identifier, a tag) by its `name`, `value`
 * or `tag`, whichever it has; any other object as JSON, which escapes C0 controls (safeText then
 * handles C1 controls and bidi overrides).
 */
export function labelOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  for (const key of ['name', 'value', 'tag']) {
    const label = record[key];
    if (typeof label === 'string' || typeof label === 'number') return String(label);
  }
  return jsonText(value);
}

const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function looksLikeTimestamp(value: unknown): value is string {
  return typeof value === 'string' && TIMESTAMP_RE.test(value);
}

/** `2026-01-15 10:00` in the local time zone; anything that is not a timestamp as is. */
export function readableDate(value: unknown): string {
  if (!looksLikeTimestamp(value)) return textCell(value);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return textCell(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A non-empty list of objects: drawn as a table of its own in a record. */
export function isRecordArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'object' && v !== null);
}

/** Every key of the records, in the order first seen. */
export function recordKeys(records: readonly object[]): string[] {
  return [...new Set(records.flatMap((record) => Object.keys(record)))];
}

/**
 * A value as a person reads it on a terminal: like textCell, but an object with no name, value or
 * tag reads as its `key value` pairs (nothing empty), never as JSON. Only terminal views use it:
 * TSV keeps textCell's form.
 */
export function personText(value: unknown): string {
  return safeText(personLabel(value));
}

function personLabel(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value))
    return value
      .map(personLabel)
      .filter((text) => text !== '')
      .join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  for (const key of ['name', 'value', 'tag']) {
    const label = record[key];
    if (typeof label === 'string' || typeof label === 'number') return String(label);
  }
  return Object.entries(record)
    .map(([key, inside]) => [words(key), personLabel(inside)] as const)
    .filter(([, text]) => text !== '')
    .map(([key, text]) => `${key} ${text}`)
    .join('; ');
}

/** A field's or a code's name in words: `calculation_base` → `calculation base`. */
export function words(name: string): string {
  return name.replace(/[_-]+/g, ' ').trim();
}

// A record's field as a person reads it on a terminal: its name in words (`file_type` → `File
// type`, `created_at` → `Created`), its value in units (`616 B`, `2:51`, `PDF`), and whether it is
// plumbing (an internal uuid, the project or organization it belongs to, a schema's metadata, a
// field the service marks as experimental) that a person sees only with --verbose. The data
// formats and --fields keep every field as it came.
import { STATEMENT_EXTENSIONS, STATEMENT_FORMATS } from '../transfer/formats.js';
import { looksLikeTimestamp } from './cell-text.js';
import { formatBytes } from './text.js';

/** Words written in capitals wherever they appear in a field's name. */
const CAPITALS: Record<string, string> = {
  id: 'ID',
  ids: 'IDs',
  isrc: 'ISRC',
  iswc: 'ISWC',
  upc: 'UPC',
  url: 'URL',
  csv: 'CSV',
  uuid: 'UUID',
  pdf: 'PDF',
};

/** Names whose words say less than a person reads (a timestamp's `_at`, a duration's unit). */
const LABELS: Record<string, string> = {
  duration_ms: 'Duration',
  file_name: 'File',
  file_size: 'Size',
  statement_desc: 'Description',
  meanScore: 'Mean score',
};

/**
 * A field's name in words, its first letter capitalized: `file_type` → `File type`, `created_at`
 * → `Created`, `meanScore` → `Mean score`, `x-rate` → `X rate`. A name that is not an identifier
 * is the service's text as it came. Not yet terminal-safe: the view escapes every label it draws.
 */
export function fieldLabel(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(key)) return key;
  const spaced = key
    .replace(/_at$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  const words = (spaced === '' ? key : spaced).split(' ').map((word) => CAPITALS[word] ?? word);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A section's or a list's title in words: `accounting-periods` → `Accounting periods`. */
export const titleOf = fieldLabel;

/** `2:51` from milliseconds; `1:02:03` past an hour. */
export function formatDuration(ms: unknown): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined;
  const total = Math.round(ms / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/** A MIME type by the name of its file format (`application/pdf` → `PDF`); any other as it came. */
export function formatFileType(type: unknown): unknown {
  if (typeof type !== 'string') return type;
  const wanted = type.toLowerCase().split(';')[0]?.trim();
  const extension = STATEMENT_EXTENSIONS.find((ext) => STATEMENT_FORMATS[ext]?.type === wanted);
  return extension && wanted !== 'application/octet-stream' ? extension.toUpperCase() : type;
}

/** A field's value in the unit a person reads it in, by the field's name; undefined when it has none. */
export function valueInUnits(key: string, value: unknown): string | undefined {
  if ((key === 'file_size' || key.endsWith('_bytes')) && typeof value === 'number' && value >= 0)
    return formatBytes(value);
  if (key.endsWith('_ms') && key !== 'duration_ms') return undefined;
  if (key === 'duration_ms') return formatDuration(value);
  if (key === 'file_type' || key === 'mime_type' || key === 'content_type') {
    const shown = formatFileType(value);
    return typeof shown === 'string' ? shown : undefined;
  }
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The service's bookkeeping, by name: what a record is keyed by inside the service, not what it says. */
const PLUMBING_KEYS = new Set([
  'internal_uuid',
  'project_id',
  'organization_id',
  'user_id',
  'meta',
  'triggered_rules',
  'normalized',
  'normalized_data',
  'contract_group_id',
  'source_key',
  'source_ordinal',
]);

/**
 * Whether a field is plumbing, shown only with --verbose: the keys above, an unknown field the
 * service prefixes `x_` (its experiments), and any other record's id that is a uuid (a person
 * copies the ids a list shows, not those; a record's own `id` always shows).
 */
export function isPlumbing(key: string, value: unknown): boolean {
  if (PLUMBING_KEYS.has(key) || /^x[_-]/i.test(key)) return true;
  return (key.endsWith('_id') || key.endsWith('_uuid')) && typeof value === 'string' && UUID.test(value);
}

/** A timestamp field: shown as a local `YYYY-MM-DD HH:MM`, like every date on a terminal. */
export const isTimestamp = looksLikeTimestamp;

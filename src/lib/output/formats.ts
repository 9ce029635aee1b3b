// The output formats `--format` (and PDS_FORMAT) names, and how a value becomes a CSV cell, a CSV
// row or a YAML document; how a record with nested values becomes one row of flat columns. The
// renderer (output.ts) decides what is a row; this only encodes.
import { UsageError } from '../errors.js';
import { isPlainNumber } from '../money/amount.js';
import { checkDepth, jsonText } from './deep-json.js';
import { isPlainObject, keyedByText } from '../shape.js';

/** xlsx and parquet are files (lib/output/table-file.ts): written only with -o, by the verbs that take it. */
export const FORMATS = ['table', 'tsv', 'csv', 'json', 'ndjson', 'yaml', 'xlsx', 'parquet'] as const;
export type Format = (typeof FORMATS)[number];

/** `--format` or PDS_FORMAT as given, checked; `where` names it in the error. */
export function parseFormat(value: string, where: string): Format {
  const format = value.trim().toLowerCase();
  if ((FORMATS as readonly string[]).includes(format)) return format as Format;
  throw new UsageError(`invalid ${where} '${value}': expected one of ${FORMATS.join(', ')}`);
}

export interface CsvOptions {
  /** `--csv-raw`: cells that start like a formula are written as they are. */
  raw: boolean;
  /** On a terminal: each cell's text made safe (safeText) before it is quoted. */
  safe?: (text: string) => string;
}

// A spreadsheet runs a cell that starts with one of these as a formula (OWASP's list).
const FORMULA_START = /^[=+\-@\t\r]/;
// A regular expression written in a function is a new object on every call: a cell each.
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

/** One value as a CSV field (RFC 4180): nested values as compact JSON, quoted when needed. */
export function csvCell(value: unknown, options: CsvOptions): string {
  let text = value === undefined || value === null ? '' : typeof value === 'object' ? jsonText(value) : String(value);
  // A plain number (a refund's -5.25) is no formula: prefixed, a spreadsheet would read it as text.
  if (!options.raw && FORMULA_START.test(text) && !isPlainNumber(text)) text = `'${text}`;
  if (options.safe) text = options.safe(text);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}

const MAX_SPREAD_DEPTH = 16;

/**
 * A record as the flat columns of a spreadsheet: a nested object spread into dotted columns
 * (`financials.currency`, `financials.period`, …, 16 levels deep), a list of scalars joined with
 * `; ` (its items may hold commas: a summary's sentences), a list of objects kept whole (a cell of
 * JSON), every other value as it is.
 */
export function spreadRecord(item: object): Record<string, unknown> {
  // Any record is read by its fields' names: what a spreadsheet's columns are.
  const record = item as Record<string, unknown>;
  // Already flat: its own spread. A copy per record (a map without a prototype, the slow kind of
  // object in V8) was most of what CSV allocated, and its heap grew with the list.
  if (hasScalarsOnly(record)) return record;
  const flat = keyedByText<unknown>();
  const put = (key: string, value: unknown, depth = 1): void => {
    // Past a spreadsheet's use, a deeper object stays one cell of JSON (jsonText takes any depth).
    if (isPlainObject(value) && Object.keys(value).length > 0 && depth <= MAX_SPREAD_DEPTH) {
      for (const [inner, nested] of Object.entries(value)) put(`${key}.${inner}`, nested, depth + 1);
    } else if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) {
      flat[key] = value.map((item) => item ?? '').join('; ');
    } else {
      flat[key] = value;
    }
  };
  for (const [key, value] of Object.entries(record)) put(key, value);
  return flat;
}

function hasScalarsOnly(record: Record<string, unknown>): boolean {
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'object' && value !== null) return false;
  }
  return true;
}

/**
 * A column's value in a spread record: its own field only, so a column named `constructor` or
 * `__proto__` that a record lacks is empty (a flat record is spread as itself, prototype and all).
 */
export const spreadValue = (record: Record<string, unknown>, column: string): unknown =>
  Object.hasOwn(record, column) ? record[column] : undefined;

/**
 * The columns of spread records for the fields `keys` names: a field the records spread becomes
 * its dotted columns, in the order they first appear; any other stays one column.
 */
export function spreadKeys(keys: readonly string[], spread: readonly Record<string, unknown>[]): string[] {
  // Each record's columns are read once, filed under every dotted prefix they have: looking through
  // every column for each key was quadratic (two records of 20,000 fields never finished).
  const byPrefix = new Map<string, Set<string>>();
  for (const record of spread) {
    for (const column of Object.keys(record)) {
      for (let dot = column.indexOf('.'); dot > 0; dot = column.indexOf('.', dot + 1)) {
        const prefix = column.slice(0, dot);
        const under = byPrefix.get(prefix) ?? new Set<string>();
        if (under.size === 0) byPrefix.set(prefix, under);
        under.add(column);
      }
    }
  }
  const columns = new Set<string>();
  for (const key of keys) {
    const before = columns.size;
    for (const column of byPrefix.get(key) ?? []) columns.add(column);
    if (columns.size === before) columns.add(key);
  }
  return [...columns];
}

/** One CSV record, ended by CRLF as RFC 4180 says. */
export function csvRow(values: readonly unknown[], options: CsvOptions): string {
  return `${values.map((value) => csvCell(value, options)).join(',')}\r\n`;
}

/** Excel reads a CSV file as UTF-8 only when it starts with this mark (`--csv-bom`). */
export const UTF8_BOM = '\uFEFF';

/** How deep YAML output goes: well within what the yaml package's recursion survives (some 2,000). */
const YAML_MAX_DEPTH = 1_000;

/** The value as one YAML document; the `yaml` package is loaded only when YAML is asked for. */
export async function yamlDocument(value: unknown): Promise<string> {
  // `yaml` is CommonJS on Node: its exports are the import's `default`. A named import works under
  // Node and vitest (which guess CommonJS's names) but not in the bundle, whose chunk for it
  // exports `default` alone (esbuild guesses no names): `--format yaml` failed there.
  // The yaml package writes by recursion: a field nested deeper than this is refused by name, not
  // by a stack overflow.
  checkDepth(value, YAML_MAX_DEPTH, 'YAML output');
  const { default: yaml } = await import('yaml');
  return yaml.stringify(value ?? null, { lineWidth: 0 });
}

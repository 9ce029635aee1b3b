// The output formats `--format` (and PDS_FORMAT) names, and how a value becomes a CSV cell, a CSV
// row or a YAML document. The renderer (output.ts) decides what is a row; this only encodes.
import { UsageError } from './errors.js';
import { checkDepth, jsonText } from './deep-json.js';

export const FORMATS = ['table', 'tsv', 'csv', 'json', 'ndjson', 'yaml'] as const;
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

/** One value as a CSV field (RFC 4180): nested values as compact JSON, quoted when needed. */
export function csvCell(value: unknown, options: CsvOptions): string {
  let text = value === undefined || value === null ? '' : typeof value === 'object' ? jsonText(value) : String(value);
  if (!options.raw && FORMULA_START.test(text)) text = `'${text}`;
  if (options.safe) text = options.safe(text);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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

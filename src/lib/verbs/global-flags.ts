// The options every command accepts, before or after the verb: declared once, here. program.ts
// registers them, config.ts resolves them (flag > environment > profile > default), completion
// and help read them.
import type { FlagSpec } from './verb.js';
import { FORMATS } from '../output/formats.js';

export const GLOBAL_FLAGS = {
  project: {
    type: 'string',
    short: 'p',
    value: 'id',
    help: 'project UUID or exact name (default: PDS_PROJECT, then the profile)',
    completion: 'projects',
  },
  profile: {
    type: 'string',
    value: 'name',
    help: 'config profile (default: PDS_PROFILE, then "default")',
    completion: 'profiles',
  },
  apiUrl: {
    type: 'string',
    value: 'url',
    help: 'service base URL without /v1 (default: PDS_API_URL, then the profile)',
  },
  format: {
    type: 'choice',
    value: 'format',
    choices: FORMATS,
    help: 'how data is printed (default: PDS_FORMAT, else table on a terminal, tsv piped)',
    completion: FORMATS,
  },
  json: { type: 'boolean', help: 'print data as JSON (the same as --format json)' },
  csvBom: { type: 'boolean', help: 'csv: start with a UTF-8 byte order mark (for Excel)' },
  csvRaw: {
    type: 'boolean',
    help: "csv: leave cells that start with = + - @ as they are (no ' prefix against formula injection)",
  },
  quiet: { type: 'boolean', short: 'q', help: 'lists print ids only; actions print nothing but errors' },
  color: { type: 'boolean', negated: true, help: 'no ANSI colors (also NO_COLOR)' },
  verbose: { type: 'boolean', help: 'log each HTTP request and response on stderr (the token is never printed)' },
  timeout: {
    type: 'string',
    value: 'seconds',
    help: 'per-request timeout, 0.1 s to 1 h, in seconds or as 90s, 5m (default 30)',
  },
  retryBudget: {
    type: 'string',
    value: 'seconds',
    help: 'total time to wait between retries, for the whole command, in seconds or as 90s, 5m, 1h; 0: no retries (default 60)',
  },
  allowHttp: {
    type: 'boolean',
    help: 'allow plain http to a host that is not loopback: the token, and signed upload and download URLs',
  },
  jq: {
    type: 'string',
    value: 'expression',
    help: 'filter the JSON output with a jq expression (implies --json; strings print raw)',
  },
  jqTimeout: {
    type: 'string',
    value: 'seconds',
    help: 'stop a --jq expression that runs longer than this, exit 2 (default 10)',
  },
  fields: {
    type: 'string',
    value: 'names',
    help: 'lists and gets: the fields to show, in order, comma-separated (e.g. id,name,created_at)',
    completion: 'fields',
  },
  pager: { type: 'boolean', negated: true, help: 'never page long output on a terminal (also PDS_PAGER set empty)' },
  dryRun: {
    type: 'boolean',
    help: 'commands that write: do the local checks and the reads, say what would be done, send no write and write no file',
  },
} as const satisfies Record<string, FlagSpec>;

/** What commander hands over for the global options: booleans, and strings checked later. */
export type GlobalFlags = {
  -readonly [K in keyof typeof GLOBAL_FLAGS]?: (typeof GLOBAL_FLAGS)[K]['type'] extends 'boolean' ? boolean : string;
};

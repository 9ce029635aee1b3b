// `pds upload contract|statement`: one module for both kinds. The definitions: plain data, no code
// (index.ts joins them to the module).
import { verb, type NounDef, type OptionsOf } from '../../lib/verbs/verb.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { EXTRACTION_NAMES } from '../../lib/vocabulary.js';
import { SCENARIO_FAMILIES, TARGET_FAMILIES } from '../../lib/transfer/formats.js';
import { WATCH_FLAGS } from '../documents/definitions.js';
import { STATEMENT_FIELD_FLAGS } from '../statements/definitions.js';

/** The noun: what `pds upload --help` says of it (index.ts adds its two verbs). */
export const noun = {
  name: 'upload',
  description: 'upload contracts (PDF) or statements (25 formats), max 50 MiB each, for processing',
  examples: [
    ['pds upload statement statements/*.pdf'],
    ['pds upload contract deal.pdf --extract royalties,splits --wait'],
  ],
} satisfies Omit<NounDef, 'verbs'>;

/** The upload context (docs/service.md): a statement's fields, families, tags and folder. */
export const CONTEXT_FLAGS = {
  ...STATEMENT_FIELD_FLAGS,
  scenario: {
    type: 'string',
    value: 'family',
    help: 'the scenario family (with --target-family), e.g. dsp.spotify',
    completion: SCENARIO_FAMILIES,
  },
  targetFamily: {
    type: 'string',
    value: 'family',
    help: 'the target family (with --scenario), e.g. recording_dsp_usage',
    completion: TARGET_FAMILIES,
  },
  tag: { type: 'repeated', value: 't', help: 'a tag for the uploaded record; repeat for more' },
  folder: { type: 'string', value: 'name', nonEmpty: true, help: 'the folder to file the upload under' },
} as const;

/** Context flags only statements take: a contract's context is its tags and folder. */
export const STATEMENT_ONLY: readonly string[] = [...Object.keys(STATEMENT_FIELD_FLAGS), 'scenario', 'targetFamily'];

export const UPLOAD_FLAGS = {
  extract: {
    type: 'list',
    value: 'names',
    help: 'contracts: extractions to run, comma-separated or repeated (royalties,splits,… with or without extract-)',
    completion: EXTRACTION_NAMES,
  },
  fileName: { type: 'string', value: 'name', help: 'the name to send for stdin (-) or for a single file' },
  concurrency: { type: 'number', value: 'n', integer: true, min: 1, max: 32, default: 4, help: 'uploads at once' },
  wait: {
    type: 'boolean',
    help: 'wait until processing completed or failed (exit 7 if it failed or the service paused it)',
  },
  ...WATCH_FLAGS,
  // The statement-only ones are dropped from `upload contract`.
  ...CONTEXT_FLAGS,
  // Batches: directories, re-runs, keeping going, reports a CI system reads.
  skipExisting: {
    type: 'choice',
    value: 'how',
    choices: ['name', 'content'],
    bare: 'name',
    help: 'skip a file the project has already: by name (alone, the default) its file name and, where the service reports it, size; by content also its bytes (SHA-256)',
  },
  failFast: {
    type: 'boolean',
    help: 'stop at the first failure (every local check still runs before anything is sent)',
  },
  recursive: { type: 'boolean', help: 'directories: also the files in their subdirectories' },
  batchTimeout: {
    type: 'number',
    value: 'duration',
    min: 1,
    max: 7 * 24 * 3600,
    seconds: true,
    help: 'end the batch after this long (90s, 20m, 1h): files not started or still uploading then fail as "batch timeout", waits end, the reports are written',
  },
  include: { type: 'repeated', value: 'glob', help: "directories: only the files matching (e.g. '*.pdf'; repeatable)" },
  exclude: { type: 'repeated', value: 'glob', help: 'directories: leave out the files matching (repeatable)' },
  report: {
    type: 'repeated',
    value: 'junit=file|json=file',
    help: 'also write a report: JUnit XML or JSON (repeatable)',
  },
} as const;

const withoutStatementOnly = <T extends Record<string, unknown>>(flags: T): T =>
  Object.fromEntries(Object.entries(flags).filter(([key]) => !STATEMENT_ONLY.includes(key))) as T;

/** `pds upload contract` or `pds upload statement`. */
export function uploadVerb(kind: DocumentKind) {
  // --extract is the contracts' only: statements run no extractions.
  const { extract, ...common } = UPLOAD_FLAGS;
  return verb({
    name: kind,
    dryRun: 'honoured',
    description:
      kind === 'contract'
        ? "upload contract PDFs; prints each file's staging id"
        : "upload statements (CSV, XLSX, GZ, PDF and 21 more formats); prints each file's staging id",
    args: [
      kind === 'contract'
        ? {
            name: 'files',
            help: 'PDF files or directories; - reads one PDF from stdin (needs --file-name)',
            required: true,
            variadic: true,
          }
        : {
            name: 'files',
            help: 'statement files or directories (csv tsv txt xlsx xls ods xml gz pdf …); - reads one from stdin (needs --file-name)',
            required: true,
            variadic: true,
          },
    ],
    flags:
      kind === 'contract'
        ? { extract: { ...extract, help: extract.help.replace(/^contracts: /, '') }, ...withoutStatementOnly(common) }
        : common,
    fixed: { kind },
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [
            ['pds upload contract deal.pdf --extract royalties,splits,dates --wait'],
            ['cat deal.pdf | pds upload contract - --file-name deal.pdf'],
          ]
        : [
            [
              'pds upload statement sales.csv --accounting-period 2026Q1 --currency-royalty EUR --scenario dsp.spotify --target-family recording_dsp_usage --tag q1',
            ],
            ['pds upload statement q1.xlsx --wait --json'],
            [
              'pds upload statement statements/ --recursive --skip-existing --report junit=pds.xml',
              'a re-runnable batch',
            ],
          ],
  });
}

export type UploadOptions = OptionsOf<ReturnType<typeof uploadVerb>>;

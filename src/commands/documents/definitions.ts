// The verbs contracts and statements share (status, download, retry, tag): one module each serves
// both kinds. The definitions: plain data, no code (index.ts joins each to its module).
import { verb, type OptionsOf } from '../../lib/verbs/verb.js';
import type { DocumentKind } from '../../lib/api/documents.js';

/** --interval and --wait-timeout: how `upload --wait` and `status --watch` poll. */
export const WATCH_FLAGS = {
  interval: {
    type: 'number',
    value: 'seconds',
    min: 0.1,
    max: 3600,
    seconds: true,
    default: 2,
    help: 'first polling interval; it backs off',
  },
  waitTimeout: {
    type: 'number',
    value: 'seconds',
    min: 1,
    max: 7 * 24 * 3600,
    seconds: true,
    default: 600,
    help: 'give up waiting after this long, exit 1',
  },
} as const;

const STATUS_FLAGS = {
  watch: {
    type: 'boolean',
    short: 'w',
    help: 'poll until processing completed, failed or paused (exit 7 if it failed or paused; Ctrl-C stops)',
  },
  failPending: {
    type: 'boolean',
    help: 'a gate: exit 1 while an upload is still queued or running, 7 when paused (without --watch, which waits)',
  },
  ...WATCH_FLAGS,
} as const;

const DOWNLOAD_FLAGS = {
  all: { type: 'boolean', help: 'every document of the project' },
  output: {
    type: 'string',
    short: 'o',
    value: 'path',
    help: 'a file (one id), a directory (ending with / or existing), or - for stdout (default: the current directory)',
  },
  force: { type: 'boolean', help: 'replace existing files' },
  // At most the connections the transport keeps per host: a download queued inside it would have
  // its idle clock running while it waits.
  concurrency: { type: 'number', value: 'n', integer: true, min: 1, max: 8, default: 4, help: 'downloads at once' },
  maxSize: { type: 'string', value: 'size', help: 'refuse a file larger than this, e.g. 500M or 2G (default 1G)' },
} as const;

/** `pds contracts|statements tag`: the complete list by default, or a change to it. */
const TAG_FLAGS = {
  add: {
    type: 'boolean',
    help: "add these tags to the current ones (read first: refused where the service's record shows none)",
  },
  remove: {
    type: 'boolean',
    help: "remove these tags from the current ones (read first: refused where the service's record shows none)",
  },
  clear: { type: 'boolean', help: 'remove every tag (no tags given)' },
} as const;

export type Kind = { kind: DocumentKind };

/** `pds contracts|statements status`: the processing of uploads, each id in turn. */
export const statusVerb = (kind: DocumentKind) =>
  verb({
    name: 'status',
    description: `processing status of ${kind} uploads, each id in turn: stages, ${kind === 'contract' ? 'extractions' : 'processing'}, why one failed or paused; exit 7 if any failed`,
    args: [
      kind === 'contract'
        ? {
            name: 'staging-ids',
            help: 'the staging_id an upload printed; several are shown in turn',
            required: true,
            variadic: true,
          }
        : {
            name: 'ids',
            help: 'a staging_id from an upload, or a statement id; several are shown in turn',
            required: true,
            variadic: true,
          },
    ],
    flags: STATUS_FLAGS,
    fixed: { kind },
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [
            [
              "pds upload contract deal.pdf --jq '.[0].upload.staging_id' | xargs pds contracts status",
              'the staging id an upload printed',
            ],
            [
              "pds upload contract deal.pdf --jq '.[0].upload.staging_id' | xargs pds contracts status --watch",
              'until processing ends',
            ],
          ]
        : [
            ['pds statements status 40001', 'a statement id, or the staging id of an upload'],
            [
              'pds statements status 40001 40002',
              'each in turn; the exit code is the worst of them (7: one failed), a gate for CI',
            ],
            ["pds upload statement q1.pdf --jq '.[0].upload.staging_id' | xargs pds statements status --watch"],
          ],
  });

export type StatusOptions = OptionsOf<ReturnType<typeof statusVerb>>;

/** `pds contracts|statements download`: the original files. */
export const downloadVerb = (kind: DocumentKind) =>
  verb({
    name: 'download',
    description: `download the original files of ${kind}s; never overwrites a file without --force`,
    args: [{ name: 'ids', help: `${kind} ids`, variadic: true }],
    flags: DOWNLOAD_FLAGS,
    fixed: { kind },
    dryRun: 'honoured',
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [['pds contracts download 20001'], ['pds contracts download --all -o contracts/']]
        : [['pds statements download 40001 -o -', 'to stdout'], ['pds statements download --all -o statements/']],
  });

export type DownloadOptions = OptionsOf<ReturnType<typeof downloadVerb>>;

/** `pds contracts|statements retry`: a paused upload queued again. */
export const retryVerb = (kind: DocumentKind) =>
  verb({
    name: 'retry',
    description: `queue a paused ${kind} upload again (never retried automatically); prints its new status`,
    args: [{ name: 'staging-id', help: 'the staging id the paused upload printed', required: true }],
    fixed: { kind },
    dryRun: 'honoured',
    scripting: ['jq'],
    examples: [
      [
        `pds ${kind}s retry 1001`,
        'the staging id a paused upload printed',
        'a paused upload (an emulator started with --pause-uploads)',
      ],
    ],
  });

export type RetryOptions = OptionsOf<ReturnType<typeof retryVerb>>;

/** `pds contracts|statements tag`: the tags of one record. */
export const tagVerb = (kind: DocumentKind) =>
  verb({
    name: 'tag',
    description:
      kind === 'contract'
        ? "replace the tags of a contract with the complete list given (the service keeps only that list), or --clear them; --add and --remove only where the service's contract records show their tags (the deployed service's do not)"
        : 'replace the tags of a statement with the complete list given, or --add, --remove (read, changed and written back) or --clear them',
    args: [
      { name: 'id', help: `the ${kind} id`, required: true },
      { name: 'tags', help: 'tags', variadic: true },
    ],
    flags: TAG_FLAGS,
    fixed: { kind },
    dryRun: 'honoured',
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [
            ['pds contracts tag 20001 urgent review signed', 'these three become its tags, and only these'],
            ['pds contracts tag 20001 --clear'],
          ]
        : [['pds statements tag 40001 q1 spotify'], ['pds statements tag 40001 --clear']],
  });

export type TagOptions = OptionsOf<ReturnType<typeof tagVerb>>;

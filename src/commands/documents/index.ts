// The verbs contracts and statements share (status, download): one module each serves both kinds.
import { verb, type AnyVerb, type OptionsOf, type VerbDef } from '../../lib/verb.js';
import type { DocumentKind } from '../../lib/api/documents.js';


/** --interval and --wait-timeout: how `upload --wait` and `status --watch` poll. */
export const WATCH_FLAGS = {
  interval: { type: 'number', value: 'seconds', min: 0.1, max: 3600, seconds: true, default: 2, help: 'first polling interval; it backs off' },
  waitTimeout: { type: 'number', value: 'seconds', min: 1, max: 7 * 24 * 3600, seconds: true, default: 600, help: 'give up waiting after this long, exit 1' },
} as const;

const STATUS_FLAGS = {
  watch: { type: 'boolean', short: 'w', help: 'poll until processing completed or failed (exit 7 if it failed; Ctrl-C stops)' },
  ...WATCH_FLAGS,
} as const;

const DOWNLOAD_FLAGS = {
  all: { type: 'boolean', help: 'every document of the project' },
  output: { type: 'string', short: 'o', value: 'path', help: 'a file (one id), a directory (ending with / or existing), or - for stdout (default: the current directory)' },
  force: { type: 'boolean', help: 'replace existing files' },
  // At most the connections the transport keeps per host: a download queued inside it would have
  // its idle clock running while it waits.
  concurrency: { type: 'number', value: 'n', integer: true, min: 1, max: 8, default: 4, help: 'downloads at once' },
} as const;


export type Kind = { kind: DocumentKind };
export type StatusOptions = OptionsOf<VerbDef<typeof STATUS_FLAGS, [{ name: 'id'; help: ''; required: true }], Kind>>;
export type DownloadOptions = OptionsOf<VerbDef<typeof DOWNLOAD_FLAGS, [{ name: 'ids'; help: ''; variadic: true }], Kind>>;

/** `pds contracts status|download`, `pds statements status|download`. */
export function documentVerbs(kind: DocumentKind): AnyVerb[] {
  const noun = `${kind}s`;
  const status = verb({
    name: 'status',
    description: `processing status of a ${kind} upload: stages, ${kind === 'contract' ? 'extractions' : 'processing'}, failure details`,
    args: [
      kind === 'contract'
        ? { name: 'staging-id', help: 'the staging_id an upload printed', required: true }
        : { name: 'id', help: 'a staging_id from an upload, or a statement id', required: true },
    ],
    flags: STATUS_FLAGS,
    fixed: { kind },
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [
            ["pds upload contract deal.pdf --jq '.[0].upload.staging_id' | xargs pds contracts status", 'the staging id an upload printed'],
            ["pds upload contract deal.pdf --jq '.[0].upload.staging_id' | xargs pds contracts status --watch", 'until processing ends'],
          ]
        : [['pds statements status 40001', 'a statement id, or the staging id of an upload'], ['pds upload statement q1.pdf --jq \'.[0].upload.staging_id\' | xargs pds statements status --watch']],
    load: () => import('./status.js'),
  });
  const download = verb({
    name: 'download',
    description: `download the original files of ${noun}; never overwrites a file without --force`,
    args: [{ name: 'ids', help: `${kind} ids`, variadic: true }],
    flags: DOWNLOAD_FLAGS,
    fixed: { kind },
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [['pds contracts download 20001'], ['pds contracts download --all -o contracts/']]
        : [['pds statements download 40001 -o -', 'to stdout'], ['pds statements download --all -o statements/']],
    load: () => import('./download.js'),
  });
  return [status, download];
}

// `pds upload contract|statement`: one module for both kinds.
import { verb, type AnyVerb, type NounDef, type OptionsOf, type VerbDef } from '../../lib/verb.js';
import type { DocumentKind } from '../../lib/api/documents.js';
import { EXTRACTION_NAMES } from '../../lib/vocabulary.js';
import { WATCH_FLAGS, type Kind } from '../documents/index.js';

export const UPLOAD_FLAGS = {
  extract: {
    type: 'list',
    value: 'names',
    help: 'contracts: extractions to run, comma-separated or repeated (royalties,splits,… with or without extract-)',
    completion: EXTRACTION_NAMES,
  },
  fileName: { type: 'string', value: 'name', help: 'the name to send for stdin (-) or for a single file' },
  concurrency: { type: 'number', value: 'n', integer: true, min: 1, max: 32, default: 4, help: 'uploads at once' },
  wait: { type: 'boolean', help: 'wait until processing completed or failed (exit 7 if it failed)' },
  ...WATCH_FLAGS,
} as const;

export type UploadOptions = OptionsOf<VerbDef<typeof UPLOAD_FLAGS, [{ name: 'files'; help: ''; required: true; variadic: true }], Kind>>;

function uploadVerb(kind: DocumentKind): AnyVerb {
  // --extract is the contracts' only: statements run no extractions.
  const { extract, ...common } = UPLOAD_FLAGS;
  return verb({
    name: kind,
    description: `upload ${kind} PDFs; prints each file's staging id`,
    args: [{ name: 'files', help: 'PDF files; - reads one PDF from stdin (needs --file-name)', required: true, variadic: true }],
    flags: kind === 'contract' ? { extract: { ...extract, help: extract.help.replace(/^contracts: /, '') }, ...common } : common,
    fixed: { kind },
    scripting: ['jq'],
    examples:
      kind === 'contract'
        ? [['pds upload contract deal.pdf --extract royalties,splits,dates --wait'], ['cat deal.pdf | pds upload contract - --file-name deal.pdf']]
        : [['pds upload statement statements/*.pdf --concurrency 4'], ['pds upload statement q1.pdf --wait --json']],
    load: () => import('./upload.js'),
  });
}

export const upload: NounDef = {
  name: 'upload',
  description: 'upload contract or statement PDFs (max 50 MiB each) for processing',
  examples: [['pds upload statement statements/*.pdf'], ['pds upload contract deal.pdf --extract royalties,splits --wait']],
  verbs: [uploadVerb('contract'), uploadVerb('statement')],
};

// `pds upload contract|statement` and the `status` verb of the contracts and statements nouns.
// Both kinds share one upload module and one status module; `kind` is the only difference.
import type { Command } from 'commander';
import { collect, lazyAction, type Runner } from '../../lib/command.js';
import type { CatalogNoun } from '../catalog/index.js';

const KINDS = [
  { kind: 'contract', noun: 'contracts', id: '<staging-id>', idHelp: 'the staging_id an upload printed' },
  { kind: 'statement', noun: 'statements', id: '<id>', idHelp: 'a staging_id from an upload, or a statement id' },
] as const;

export function registerUpload(program: Command, runner: Runner, nouns: Map<CatalogNoun, Command>): void {
  const upload = program
    .command('upload')
    .description('upload contract or statement PDFs (max 50 MiB each) for processing');
  for (const { kind, noun, id, idHelp } of KINDS) {
    const verb = upload
      .command(kind)
      .description(`upload ${kind} PDFs; prints each file's staging id`)
      .argument('<files...>', 'PDF files; - reads one PDF from stdin (needs --file-name)');
    if (kind === 'contract') {
      verb.option('--extract <names>', 'extractions to run, comma-separated or repeated (royalties,splits,… with or without extract-)', collect);
    }
    verb
      .option('--file-name <name>', 'the name to send for stdin (-) or for a single file')
      .option('--concurrency <n>', 'uploads at once, 1 to 32 (default 4)')
      .option('--wait', 'wait until processing completed or failed (exit 7 if it failed)')
      .option('--interval <seconds>', 'first polling interval with --wait; it backs off (default 2)')
      .option('--wait-timeout <seconds>', 'give up waiting after this long, exit 1 (default 600)')
      .action(lazyAction(runner, () => import('./upload.js'), { kind }));

    const parent = nouns.get(noun);
    if (!parent) continue;
    parent
      .command('status')
      .description(`processing status of a ${kind} upload: stages, ${kind === 'contract' ? 'extractions' : 'processing'}, failure details`)
      .argument(id, idHelp)
      .option('-w, --watch', 'poll until processing completed or failed (exit 7 if it failed; Ctrl-C stops)')
      .option('--interval <seconds>', 'first polling interval with --watch; it backs off (default 2)')
      .option('--wait-timeout <seconds>', 'give up watching after this long, exit 1 (default 600)')
      .action(lazyAction(runner, () => import('../documents/status.js'), { kind }));
  }
}

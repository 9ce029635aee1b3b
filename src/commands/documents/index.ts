// `pds contracts download` and `pds statements download`: one verb module for both kinds.
import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';
import type { CatalogNoun } from '../catalog/index.js';

export function registerDownload(runner: Runner, nouns: Map<CatalogNoun, Command>): void {
  for (const [kind, noun] of [['contract', 'contracts'], ['statement', 'statements']] as const) {
    nouns
      .get(noun)
      ?.command('download')
      .description(`download the original PDF of ${noun}; never overwrites a file without --force`)
      .argument('[ids...]', `${kind} ids`)
      .option('--all', `every ${kind} of the project`)
      .option('-o, --output <path>', 'a file (one id), a directory (ending with / or existing), or - for stdout (default: the current directory)')
      .option('--force', 'replace existing files')
      .option('--concurrency <n>', 'downloads at once, 1 to 8 (default 4)')
      .option('--max-size <size>', 'refuse a file larger than this, e.g. 500M (default 1G)')
      .action(lazyAction(runner, () => import('./download.js'), { kind }));
  }
}

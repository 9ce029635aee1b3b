// `pds <resource> ls|get` for the eight catalog resources, registered from one table.
import type { Command } from 'commander';
import { collect, lazyAction, type Runner } from '../../lib/command.js';

const NOUNS = [
  ['contracts', 'contracts of the project', 'contract'],
  ['statements', 'royalty statements', 'statement'],
  ['entities', 'entities: labels, publishers, distributors and other organizations', 'entity'],
  ['relations', 'relations: contacts extracted from contracts', 'relation'],
  ['artists', 'artists', 'artist'],
  ['writers', 'writers: songwriters and composers', 'writer'],
  ['recordings', 'sound recordings', 'recording'],
  ['compositions', 'compositions: musical works', 'composition'],
] as const;

export type CatalogNoun = (typeof NOUNS)[number][0];

/** Returns each noun's command, so other modules (uploads' `status`) can add verbs to it. */
export function registerCatalog(program: Command, runner: Runner): Map<CatalogNoun, Command> {
  const nouns = new Map<CatalogNoun, Command>();
  for (const [resource, description, singular] of NOUNS) {
    const noun = program.command(resource).description(description);
    nouns.set(resource, noun);
    const ls = noun
      .command('ls')
      .alias('list')
      .description(`list ${resource}`)
      .option('--page <n>', 'page number, from 1', '1')
      .option('--per-page <n>', 'records per page, 1 to 100 (default 20; 100 with --all)')
      .option('--all', 'follow every page');
    const get = noun
      .command('get')
      .alias('view')
      .description(`show one of the ${resource}`)
      .argument(
        `<${singular}-id>`,
        resource === 'entities'
          ? 'the entity\'s id or its internal_uuid, as `pds entities ls --json` shows them'
          : resource === 'statements'
            ? 'the statement\'s id, a whole number, as `pds statements ls` shows it'
            : `the ${singular}'s id, as \`pds ${resource} ls\` shows it`,
      );
    if (resource === 'contracts') {
      for (const verb of [ls, get]) {
        verb.option('--include <names>', 'sub-resources to embed, comma-separated or repeated (e.g. royalties,splits)', collect);
      }
    }
    if (resource === 'entities') ls.option('--roles <roles>', 'only entities with these contract roles: assignee, assignor');
    if (resource === 'entities' || resource === 'relations' || resource === 'artists' || resource === 'writers') {
      for (const verb of [ls, get]) verb.option('--merged', 'include merged duplicates');
    }
    if (resource === 'recordings' || resource === 'compositions') {
      for (const verb of [ls, get]) verb.option('--products', 'include products (releases with UPCs)');
    }
    ls.action(lazyAction(runner, () => import('./ls.js'), { resource }));
    get.action(lazyAction(runner, () => import('./get.js'), { resource }));
  }
  return nouns;
}

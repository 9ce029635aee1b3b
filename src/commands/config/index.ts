// `pds config list|get|set|unset` (the profile's stored settings) and `pds use <project>`.
import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';

export function registerConfig(program: Command, runner: Runner): void {
  const config = program
    .command('config')
    .description('read and change the profile\'s stored settings: api-url, project, timeout, retry-budget, allow-http');
  config
    .command('list')
    .alias('ls')
    .description('print the profile\'s stored settings (the token masked)')
    .action(lazyAction(runner, () => import('./list.js')));
  config
    .command('get')
    .description('print one stored setting (exit 1 when it is not set)')
    .argument('<key>', 'api-url, project, timeout, retry-budget or allow-http')
    .action(lazyAction(runner, () => import('./get.js')));
  config
    .command('set')
    .description('store a setting in the profile')
    .argument('<key>', 'api-url, project, timeout, retry-budget or allow-http')
    .argument('<value>', 'a base URL without /v1, a project UUID, seconds, or true/false (allow-http)')
    .action(lazyAction(runner, () => import('./set.js')));
  config
    .command('unset')
    .description('remove a setting from the profile')
    .argument('<key>', 'api-url, project, timeout, retry-budget or allow-http')
    .action(lazyAction(runner, () => import('./unset.js')));

  program
    .command('use')
    .description('set the profile\'s default project')
    .argument('<project>', 'project UUID, or its exact name')
    .action(lazyAction(runner, () => import('./use.js')));
}

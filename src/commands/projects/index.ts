import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';

export function registerProjects(program: Command, runner: Runner): void {
  const projects = program.command('projects').description('list and inspect projects');
  projects
    .command('ls')
    .alias('list')
    .description('list the projects the token reaches')
    .action(lazyAction(runner, () => import('./ls.js')));
  projects
    .command('get')
    .alias('view')
    .description('show a project (default: the current project)')
    .argument('[project-id]', 'project UUID')
    .action(lazyAction(runner, () => import('./get.js')));
}

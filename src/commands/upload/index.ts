import type { Command } from 'commander';
import type { Runner } from '../../lib/command.js';
import type { CatalogNoun } from '../catalog/index.js';

export function registerUpload(_program: Command, _runner: Runner, _nouns: Map<CatalogNoun, Command>): void {}

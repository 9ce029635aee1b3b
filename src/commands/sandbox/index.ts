import type { Command } from 'commander';
import type { Runner } from '../../lib/command.js';

export function registerSandbox(_program: Command, _runner: Runner): void {}

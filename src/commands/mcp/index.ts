// `pds mcp`: an MCP server on stdio for agents on this machine, and `pds mcp config` for their
// clients. The MCP SDK is imported by the verb only, never when the program is built.
import type { Command } from 'commander';
import { collect, lazyAction, type Runner } from '../../lib/command.js';
import { helpNotes } from '../../lib/help.js';

export function registerMcp(program: Command, runner: Runner): void {
  const mcp = program
    .command('mcp')
    .description("an MCP server on stdio: the project's data and sandbox as tools for AI agents, over pds's own sign-in")
    .option('--allow-writes', 'also offer the write tools (upload_contract, upload_statement)')
    .option('--toolsets <names>', 'offer these toolsets, comma-separated (`pds mcp tools` lists them; default: every read toolset)')
    .option('--tools <names>', 'offer only these tools, comma-separated (e.g. search,get_contract)')
    .option('--max-results <n>', 'records per tool call at most, 1 to 100 (default 100); a cursor gives the next ones')
    .option('--root <dir>', 'upload tools read files only under this directory; repeatable (default: the working directory)', collect)
    .addHelpText(
      'after',
      helpNotes(`stdout carries only MCP messages; logs go to stderr. -p pins the project: the tools then take no
projectId. The server ends when the client closes stdin (or on Ctrl-C).`),
    )
    .action(lazyAction(runner, () => import('./serve.js')));

  mcp
    .command('config')
    .description("print an MCP client's configuration snippet for `pds mcp` (edits no file)")
    .requiredOption('--client <name>', 'claude, cursor or vscode')
    .option('--allow-writes', 'put --allow-writes in the snippet')
    .option('--toolsets <names>', 'put --toolsets in the snippet')
    .option('--tools <names>', 'put --tools in the snippet')
    .option('--root <dir>', 'put --root in the snippet, as an absolute path; repeatable', collect)
    .option('--max-results <n>', 'put --max-results in the snippet (1 to 100)')
    .action(lazyAction(runner, () => import('./config.js')));

  mcp
    .command('tools')
    .description('list every tool `pds mcp` can offer, its toolset, and whether it writes')
    .action(lazyAction(runner, () => import('./list.js')));
}

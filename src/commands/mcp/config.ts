// `pds mcp config --client claude|cursor|vscode`: the snippet that client's configuration needs to
// start `pds mcp`. It prints; it edits no file (where the snippet goes is said on stderr).
import { resolve } from 'node:path';
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { DEFAULT_PROFILE } from '../../lib/config.js';
import { selectTools } from './serve.js';
import type { MCP_CLIENTS, config } from './index.js';
import type { OptionsOf } from '../../lib/verb.js';

type Options = OptionsOf<typeof config>;

/** One snippet per client of MCP_CLIENTS (index.ts, where --client's values are declared). */
const CLIENTS: Record<(typeof MCP_CLIENTS)[number], { snippet(server: object): object; where(args: string[]): string }> = {
  claude: {
    snippet: (server: object) => ({ mcpServers: { pds: server } }),
    where: (args: string[]) =>
      `add it to .mcp.json in a project (Claude Code) or to claude_desktop_config.json (Claude Desktop); ` +
      `or run: claude mcp add pds -- pds ${args.map(quote).join(' ')}`,
  },
  cursor: {
    snippet: (server: object) => ({ mcpServers: { pds: server } }),
    where: () => 'add it to .cursor/mcp.json in a project, or to ~/.cursor/mcp.json for every project',
  },
  vscode: {
    snippet: (server: object) => ({ servers: { pds: { type: 'stdio', ...server } } }),
    where: () => 'add it to .vscode/mcp.json in a workspace (or run "MCP: Open User Configuration" for every workspace)',
  },
};

export async function run(opts: Options, ctx: Context): Promise<void> {
  const client = CLIENTS[opts.client as keyof typeof CLIENTS];
  if (!Object.hasOwn(CLIENTS, opts.client) || !client) {
    throw new UsageError(`unknown client '${opts.client}'`, { details: [`clients: ${Object.keys(CLIENTS).join(', ')}`] });
  }
  // The same checks as the server: a snippet naming an unknown tool would only fail later, in the client.
  selectTools(opts);
  const args = ['mcp'];
  if (ctx.settings.projectSource === 'flag') args.push('-p', ctx.project());
  if (ctx.settings.profile !== DEFAULT_PROFILE) args.push('--profile', ctx.settings.profile);
  // Like -p: a service named on this command line (not one of the environment's) goes in the snippet.
  if (ctx.settings.apiUrlSource === 'flag') args.push('--api-url', ctx.settings.apiUrl);
  if (opts.allowWrites) args.push('--allow-writes');
  if (opts.toolsets !== undefined) args.push('--toolsets', opts.toolsets.join(','));
  if (opts.tools !== undefined) args.push('--tools', opts.tools.join(','));
  // The client starts pds in a directory of its own: a root is made absolute here.
  for (const root of opts.root) args.push('--root', resolve(root));
  if (opts.maxResults !== undefined) args.push('--max-results', String(opts.maxResults));
  ctx.output.json(client.snippet({ command: 'pds', args }));
  ctx.output.info(client.where(args));
}

const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

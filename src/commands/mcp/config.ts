// `pds mcp config --client claude|cursor|vscode`: the snippet that client's configuration needs to
// start `pds mcp`. It prints; it edits no file (where the snippet goes is said on stderr).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { DEFAULT_PROFILE } from '../../lib/config/settings.js';
import { selectTools } from './serve.js';
import { serverRoots } from './roots.js';
import type { MCP_CLIENTS, config } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof config>;

/** One snippet per client of MCP_CLIENTS (index.ts, where --client's values are declared). */
const CLIENTS: Record<
  (typeof MCP_CLIENTS)[number],
  { snippet(server: object): object; where(commandLine: string[]): string }
> = {
  claude: {
    snippet: (server: object) => ({ mcpServers: { pds: server } }),
    where: (line: string[]) =>
      `add it to .mcp.json in a project (Claude Code) or to claude_desktop_config.json (Claude Desktop); ` +
      `or run: claude mcp add pds -- ${line.map(quote).join(' ')}`,
  },
  cursor: {
    snippet: (server: object) => ({ mcpServers: { pds: server } }),
    where: () => 'add it to .cursor/mcp.json in a project, or to ~/.cursor/mcp.json for every project',
  },
  vscode: {
    snippet: (server: object) => ({ servers: { pds: { type: 'stdio', ...server } } }),
    where: () =>
      'add it to .vscode/mcp.json in a workspace (or run "MCP: Open User Configuration" for every workspace)',
  },
};

const isClient = (name: string): name is keyof typeof CLIENTS => Object.hasOwn(CLIENTS, name);

export async function run(opts: Options, ctx: Context): Promise<void> {
  const client = isClient(opts.client) ? CLIENTS[opts.client] : undefined;
  if (!client) {
    throw new UsageError(`unknown client '${opts.client}'`, {
      details: [`clients: ${Object.keys(CLIENTS).join(', ')}`],
    });
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
  // The client starts pds in a directory of its own: a root is made absolute here, and checked as
  // the server checks it, so a mistyped one is said now rather than when the agent starts.
  if (opts.root.length > 0)
    for (const root of await serverRoots(opts.root, process.cwd())) args.push('--root', root.shown);
  if (opts.maxResults !== undefined) args.push('--max-results', String(opts.maxResults));
  const start = startCommand(ctx.env.PATH);
  if (start.note) ctx.output.info(start.note);
  ctx.output.json(client.snippet({ command: start.command, args: [...start.args, ...args] }));
  ctx.output.info(client.where([start.command, ...start.args, ...args]));
}

/**
 * How a client starts this pds: `pds` when the `pds` on PATH is this one; otherwise Node and this
 * package's bin/pds.js by absolute paths (with `note` saying so), since a client starts it with a
 * PATH of its own and a bare `pds` would not be found, or would be another installation.
 */
function startCommand(path: string | undefined): { command: string; args: string[]; note?: string } {
  const bin = ownBin();
  if (bin === undefined) return { command: 'pds', args: [] };
  const onPath = (path ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'pds'))
    .find((file) => existsSync(file));
  if (onPath !== undefined && realpathSync(onPath) === bin) return { command: 'pds', args: [] };
  const why = onPath === undefined ? 'pds is not on PATH' : `the pds on PATH (${onPath}) is another installation`;
  return {
    command: process.execPath,
    args: [bin],
    note: `${why}: the snippet starts this pds by absolute paths, Node and ${bin}`,
  };
}

/** This package's bin/pds.js (symlinks resolved): the first package.json above this file is pds's. */
function ownBin(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const bin = join(dir, 'bin', 'pds.js');
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'pds' && existsSync(bin)
        ? realpathSync(bin)
        : undefined;
    }
    if (dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

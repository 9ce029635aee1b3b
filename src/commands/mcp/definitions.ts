// `pds mcp`: an MCP server on stdio for agents on this machine, `pds mcp config` for their clients, The definitions: plain data, no code.
// `pds mcp tools` for what it offers. The MCP SDK is imported by the server only, never when the
// program is built.
import { verb, type OptionsOf } from '../../lib/verbs/verb.js';

export const MCP_CLIENTS = ['claude', 'cursor', 'vscode'] as const;

const SERVER_FLAGS = {
  allowWrites: {
    type: 'boolean',
    help: 'also offer the toolsets that write: uploads (upload, retry, update_statement) and tags',
  },
  toolsets: {
    type: 'list',
    value: 'names',
    help: 'offer these toolsets, comma-separated (`pds mcp tools` lists them; default: every read toolset)',
  },
  tools: { type: 'list', value: 'names', help: 'offer only these tools, comma-separated (e.g. search,get_contract)' },
  root: {
    type: 'repeated',
    value: 'dir',
    help: 'upload tools read files only under this directory; repeatable (default: the working directory)',
  },
  maxResults: {
    type: 'number',
    value: 'n',
    integer: true,
    min: 1,
    max: 100,
    help: 'records per tool call at most; a cursor gives the next ones',
  },
} as const;

export const serve = verb({
  name: 'mcp',
  dryRun: { none: 'it serves tools to an agent; without --allow-writes they cannot write' },
  description: "an MCP server on stdio: the project's data and sandbox as tools for AI agents, over pds's own sign-in",
  flags: { ...SERVER_FLAGS, maxResults: { ...SERVER_FLAGS.maxResults, default: 100 } },
  notes: `stdout carries only MCP messages; logs go to stderr. -p pins the project: the tools then take no
projectId. The server ends when the client closes stdin (or on Ctrl-C).`,
  examples: [
    ['pds mcp config --client claude', "the snippet for the client's configuration"],
    ['pds mcp -p 5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7 --tools search,get_contract'],
    ['pds mcp --toolsets documents,search', 'contracts, statements and search only'],
  ],
});
export type ServeOptions = OptionsOf<typeof serve>;

export const config = verb({
  name: 'config',
  description: "print an MCP client's configuration snippet for `pds mcp` (edits no file)",
  flags: {
    client: { type: 'string', value: 'name', required: true, help: MCP_CLIENTS.join(', '), completion: MCP_CLIENTS },
    allowWrites: { ...SERVER_FLAGS.allowWrites, help: 'put --allow-writes in the snippet' },
    toolsets: { ...SERVER_FLAGS.toolsets, help: 'put --toolsets in the snippet' },
    tools: { ...SERVER_FLAGS.tools, help: 'put --tools in the snippet' },
    root: { ...SERVER_FLAGS.root, help: 'put --root in the snippet, as an absolute path; repeatable' },
    maxResults: { ...SERVER_FLAGS.maxResults, help: 'put --max-results in the snippet' },
  },
  // The snippet may name a profile that exists only where the client runs.
  allowsNewProfile: true,
  scripting: ['jq'],
  examples: [['pds mcp config --client claude'], ['pds mcp config --client vscode --tools search,get_contract']],
});

export const tools = verb({
  name: 'tools',
  description: 'list every tool `pds mcp` can offer, its toolset, and whether it writes',
  allowsNewProfile: true,
  scripting: ['jq', 'fields'],
  examples: [
    ['pds mcp tools'],
    ["pds mcp tools --json --jq 'map(select(.writes)) | .[].tool'", 'the tools that write'],
  ],
});

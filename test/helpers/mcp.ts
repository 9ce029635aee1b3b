// An MCP client (the SDK's own, over stdio) against the built `pds mcp`, and readers of its results.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Emulator } from '../../src/emulator/server.js';
import { PDS_BIN, childEnv, signedInEnv } from './process.js';

export interface Connected {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** The environment of a `pds mcp` signed in to `emulator` with the organization's token. */
export function mcpEnv(emulator: Emulator, extra: Record<string, string | undefined> = {}): Record<string, string> {
  return childEnv(signedInEnv(emulator.url, extra)) as Record<string, string>;
}

export interface ConnectOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** What the client announces: `roots` makes it answer roots/list with these directories. */
  client?: ConstructorParameters<typeof Client>[1];
  /** Runs before the client connects (to answer the server's requests: roots/list). */
  setup?(client: Client): void;
}

export async function connectMcp(
  emulator: Emulator,
  args: string[] = [],
  options: ConnectOptions = {},
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PDS_BIN, 'mcp', ...args],
    env: mcpEnv(emulator, options.env),
    stderr: 'pipe',
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'pds-tests', version: '1.0.0' }, options.client);
  options.setup?.(client);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export type ToolResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

export interface Called {
  text: string;
  isError: boolean;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  return { text: result.content.map((part) => part.text ?? '').join('\n'), isError: result.isError === true };
}

export const BOUNDARY = /^<untrusted-data-([0-9a-f-]{36})>\n([\s\S]*)\n<\/untrusted-data-\1>$/m;
const COUNT = /\n\[pds removed (\d+) invisible characters?\]$/;

/** What is between the untrusted-data markers: the text, and the count of removed characters. */
export function between(text: string): { inside: string; removed: number } {
  const match = BOUNDARY.exec(text);
  if (!match) throw new Error(`no untrusted-data boundary in: ${text}`);
  const inside = match[2] as string;
  const count = COUNT.exec(inside);
  return count ? { inside: inside.slice(0, count.index), removed: Number(count[1]) } : { inside, removed: 0 };
}

/** The service data of a result: the JSON between the untrusted-data markers. */
export function data<T = unknown>(text: string): T {
  return JSON.parse(between(text).inside) as T;
}

export function cursorOf(text: string): string {
  const match = /more: call \w+ with \{"cursor": "([^"]+)"\}/.exec(text);
  if (!match) throw new Error(`no cursor in: ${text}`);
  return match[1] as string;
}

const RESOURCES = [
  ['contract', 'contracts'],
  ['statement', 'statements'],
  ['entity', 'entities'],
  ['relation', 'relations'],
  ['artist', 'artists'],
  ['writer', 'writers'],
  ['recording', 'recordings'],
  ['composition', 'compositions'],
] as const;

/** The arguments of every get_<one> tool: the id of the first record its list returns. */
export async function getToolArgs(client: Client): Promise<Record<string, { id: string }>> {
  const args: Record<string, { id: string }> = {};
  for (const [one, many] of RESOURCES) {
    const items = data<{ id: string | number }[]>((await callTool(client, `list_${many}`, { perPage: 1 })).text);
    args[`get_${one}`] = { id: String(items[0]?.id) };
  }
  return args;
}

// `pds mcp config --client …`: the snippet on stdout, where it goes on stderr, nothing else.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

describe('pds mcp config', () => {
  it('prints the Claude snippet, with the claude mcp add line on stderr', async () => {
    const result = await runCli(null, ['mcp', 'config', '--client', 'claude']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { pds: { command: 'pds', args: ['mcp'] } } });
    expect(result.stderr).toBe(
      'add it to .mcp.json in a project (Claude Code) or to claude_desktop_config.json (Claude Desktop); or run: claude mcp add pds -- pds mcp\n',
    );
  });

  it('prints the Cursor snippet', async () => {
    const result = await runCli(null, ['mcp', 'config', '--client', 'cursor', '--allow-writes']);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { pds: { command: 'pds', args: ['mcp', '--allow-writes'] } } });
    expect(result.stderr).toBe('add it to .cursor/mcp.json in a project, or to ~/.cursor/mcp.json for every project\n');
  });

  it('carries --max-results into the snippet, checked like the server checks it', async () => {
    const capped = await runCli(null, ['mcp', 'config', '--client', 'cursor', '--max-results', '5']);
    expect(JSON.parse(capped.stdout).mcpServers.pds.args).toEqual(['mcp', '--max-results', '5']);
    const bad = await runCli(null, ['mcp', 'config', '--client', 'cursor', '--max-results', '500']);
    expect(bad).toEqual({ code: 2, stdout: '', stderr: "error: invalid --max-results '500': expected a whole number from 1 to 100\n" });
  });

  it('prints the VS Code snippet, a stdio server under "servers"', async () => {
    const result = await runCli(null, ['mcp', 'config', '--client', 'vscode', '--tools', 'search,get_contract']);
    expect(JSON.parse(result.stdout)).toEqual({
      servers: { pds: { type: 'stdio', command: 'pds', args: ['mcp', '--tools', 'search,get_contract'] } },
    });
  });

  it('puts a -p project and a --profile in the arguments, not a project from the environment', async () => {
    const pinned = await runCli(null, ['mcp', 'config', '--client', 'cursor', '-p', DEMO_PROJECT.toUpperCase(), '--profile', 'work']);
    expect(JSON.parse(pinned.stdout).mcpServers.pds.args).toEqual(['mcp', '-p', DEMO_PROJECT, '--profile', 'work']);
    const fromEnv = await runCli(null, ['mcp', 'config', '--client', 'cursor']);
    expect(JSON.parse(fromEnv.stdout).mcpServers.pds.args).toEqual(['mcp']);
    // The same for --api-url: given on the command line, it is in the snippet; from PDS_API_URL, not.
    const service = await runCli(null, ['--api-url', 'http://127.0.0.1:4010', 'mcp', 'config', '--client', 'claude']);
    expect(JSON.parse(service.stdout).mcpServers.pds.args).toEqual(['mcp', '--api-url', 'http://127.0.0.1:4010']);
    expect(service.stderr).toContain('claude mcp add pds -- pds mcp --api-url http://127.0.0.1:4010\n');
    const serviceFromEnv = await runCli('http://127.0.0.1:4010', ['mcp', 'config', '--client', 'claude']);
    expect(JSON.parse(serviceFromEnv.stdout).mcpServers.pds.args).toEqual(['mcp']);
  });

  it('quotes what a shell would split in the claude mcp add line', async () => {
    const result = await runCli(null, ['mcp', 'config', '--client', 'claude', '--tools', 'search, get_contract', '--profile', 'my work']);
    // The tool list is written as the server reads it; a profile name with a blank is quoted.
    expect(result.stderr).toContain("claude mcp add pds -- pds mcp --profile 'my work' --tools search,get_contract\n");
  });

  it('refuses an unknown client, an unknown tool or a missing --client with exit 2, printing nothing on stdout', async () => {
    expect(await runCli(null, ['mcp', 'config', '--client', 'emacs'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown client 'emacs'\n  clients: claude, cursor, vscode\n",
    });
    const tool = await runCli(null, ['mcp', 'config', '--client', 'claude', '--tools', 'serch']);
    expect(tool).toMatchObject({ code: 2, stdout: '' });
    expect(tool.stderr).toMatch(/^error: --tools: unknown tool 'serch'\n {2}tools: list_projects, /);
    expect(await runCli(null, ['mcp', 'config'])).toMatchObject({ code: 2, stdout: '' });
    const badProject = await runCli(null, ['mcp', 'config', '--client', 'claude', '-p', 'nope']);
    expect(badProject).toMatchObject({ code: 2, stdout: '' });
  });

  it('carries --toolsets and --root into the snippet, a root made absolute, checked like the server checks them', async () => {
    const result = await runCli(null, ['mcp', 'config', '--client', 'cursor', '--allow-writes', '--toolsets', 'search,uploads', '--root', 'docs', '--root', '/srv/pdfs']);
    expect(JSON.parse(result.stdout).mcpServers.pds.args).toEqual([
      'mcp',
      '--allow-writes',
      '--toolsets',
      'search,uploads',
      '--root',
      resolve('docs'),
      '--root',
      '/srv/pdfs',
    ]);
    expect(await runCli(null, ['mcp', 'config', '--client', 'cursor', '--toolsets', 'search,uploads'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --toolsets: uploads writes: add --allow-writes to offer it\n',
    });
    expect(await runCli(null, ['mcp', 'config', '--client', 'cursor', '--toolsets', 'serch'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: --toolsets: unknown toolset 'serch'\n  toolsets: catalog, documents, search, sandbox, knowledge, uploads, tags\n",
    });
    expect(await runCli(null, ['mcp', 'config', '--client', 'cursor', '--toolsets', 'search', '--tools', 'get_contract'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --tools: get_contract is in the documents toolset, which --toolsets leaves out\n',
    });
  });
});

describe('pds mcp tools', () => {
  it('lists every tool with its toolset and whether it writes, signed in or not', async () => {
    const result = await runCli(null, ['mcp', 'tools']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('TOOL\tTOOLSET\tWRITES\tTITLE');
    expect(lines).toContain('list_projects\tcatalog\tno\tList projects');
    expect(lines).toContain('list_contracts\tdocuments\tno\tList contracts');
    expect(lines).toContain('search\tsearch\tno\tSearch the project');
    expect(lines).toContain('sandbox_exec\tsandbox\tno\tRun bash commands in the sandbox');
    expect(lines).toContain('upload_statement\tuploads\tyes\tUpload a statement file');
    expect(lines).toContain('knowledge_search\tknowledge\tno\tSearch the knowledge graph');
    expect(lines).toContain('list_tags\ttags\tno\tList tags');
    expect(lines).toHaveLength(34);
    const json = JSON.parse((await runCli(null, ['mcp', 'tools', '--json'])).stdout) as { tool: string; toolset: string; writes: boolean }[];
    expect(json.filter((tool) => tool.writes).map((tool) => [tool.tool, tool.toolset])).toEqual([
      ['upload_contract', 'uploads'],
      ['upload_statement', 'uploads'],
      ['tag_contract', 'tags'],
      ['tag_statement', 'tags'],
      ['retry_contract', 'uploads'],
      ['retry_statement', 'uploads'],
      ['update_statement', 'uploads'],
    ]);
    expect(new Set(json.map((tool) => tool.toolset))).toEqual(new Set(['catalog', 'documents', 'search', 'sandbox', 'knowledge', 'uploads', 'tags']));
    const fields = await runCli(null, ['mcp', 'tools', '--fields', 'tool,writes']);
    expect(fields.stdout.split('\n').slice(0, 2)).toEqual(['TOOL\tWRITES', 'list_projects\tfalse']);
    expect((await runCli(null, ['mcp', 'tools', '--fields', 'colour'])).code).toBe(2);
  });
});

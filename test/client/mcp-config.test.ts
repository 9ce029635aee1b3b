// `pds mcp config --client …`: the snippet on stdout, where it goes on stderr, nothing else.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT, runCli, type RunOptions, type RunResult } from '../helpers/cli.js';

const OWN_BIN = fileURLToPath(new URL('../../bin/pds.js', import.meta.url));

/** A PATH whose only directory has a `pds` that is a link to this package's bin/pds.js, as `npm link` makes. */
function pathWithThisPds(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pds-path-'));
  symlinkSync(OWN_BIN, join(dir, 'pds'));
  return dir;
}

/** `pds mcp config …` where the `pds` on PATH is this one. */
const runConfig = (args: string[], options: RunOptions = {}): Promise<RunResult> =>
  runCli(null, args, { ...options, env: { PATH: pathWithThisPds(), ...options.env } });

describe('pds mcp config', () => {
  it('prints the Claude snippet, with the claude mcp add line on stderr', async () => {
    const result = await runConfig(['mcp', 'config', '--client', 'claude']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { pds: { command: 'pds', args: ['mcp'] } } });
    expect(result.stderr).toBe(
      'add it to .mcp.json in a project (Claude Code) or to claude_desktop_config.json (Claude Desktop); or run: claude mcp add pds -- pds mcp\n',
    );
  });

  it('prints the Cursor snippet', async () => {
    const result = await runConfig(['mcp', 'config', '--client', 'cursor', '--allow-writes']);
    expect(JSON.parse(result.stdout)).toEqual({
      mcpServers: { pds: { command: 'pds', args: ['mcp', '--allow-writes'] } },
    });
    expect(result.stderr).toBe('add it to .cursor/mcp.json in a project, or to ~/.cursor/mcp.json for every project\n');
  });

  it('carries --max-results into the snippet, checked like the server checks it', async () => {
    const capped = await runConfig(['mcp', 'config', '--client', 'cursor', '--max-results', '5']);
    expect(JSON.parse(capped.stdout).mcpServers.pds.args).toEqual(['mcp', '--max-results', '5']);
    const bad = await runConfig(['mcp', 'config', '--client', 'cursor', '--max-results', '500']);
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: invalid --max-results '500': expected a whole number from 1 to 100\n",
    });
  });

  it('prints the VS Code snippet, a stdio server under "servers"', async () => {
    const result = await runConfig(['mcp', 'config', '--client', 'vscode', '--tools', 'search,get_contract']);
    expect(JSON.parse(result.stdout)).toEqual({
      servers: { pds: { type: 'stdio', command: 'pds', args: ['mcp', '--tools', 'search,get_contract'] } },
    });
  });

  it('puts a -p project and a --profile in the arguments, not a project from the environment', async () => {
    const pinned = await runConfig([
      'mcp',
      'config',
      '--client',
      'cursor',
      '-p',
      DEMO_PROJECT.toUpperCase(),
      '--profile',
      'work',
    ]);
    expect(JSON.parse(pinned.stdout).mcpServers.pds.args).toEqual(['mcp', '-p', DEMO_PROJECT, '--profile', 'work']);
    const fromEnv = await runConfig(['mcp', 'config', '--client', 'cursor']);
    expect(JSON.parse(fromEnv.stdout).mcpServers.pds.args).toEqual(['mcp']);
    // The same for --api-url: given on the command line, it is in the snippet; from PDS_API_URL, not.
    const service = await runConfig(['--api-url', 'http://127.0.0.1:4010', 'mcp', 'config', '--client', 'claude']);
    expect(JSON.parse(service.stdout).mcpServers.pds.args).toEqual(['mcp', '--api-url', 'http://127.0.0.1:4010']);
    expect(service.stderr).toContain('claude mcp add pds -- pds mcp --api-url http://127.0.0.1:4010\n');
    const serviceFromEnv = await runConfig(['mcp', 'config', '--client', 'claude'], {
      env: { PDS_API_URL: 'http://127.0.0.1:4010' },
    });
    expect(JSON.parse(serviceFromEnv.stdout).mcpServers.pds.args).toEqual(['mcp']);
  });

  it('quotes what a shell would split in the claude mcp add line', async () => {
    const result = await runConfig([
      'mcp',
      'config',
      '--client',
      'claude',
      '--tools',
      'search, get_contract',
      '--profile',
      'my work',
    ]);
    // The tool list is written as the server reads it; a profile name with a blank is quoted.
    expect(result.stderr).toContain("claude mcp add pds -- pds mcp --profile 'my work' --tools search,get_contract\n");
  });

  it('refuses an unknown client, an unknown tool or a missing --client with exit 2, printing nothing on stdout', async () => {
    expect(await runConfig(['mcp', 'config', '--client', 'emacs'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown client 'emacs'\n  clients: claude, cursor, vscode\n",
    });
    const tool = await runConfig(['mcp', 'config', '--client', 'claude', '--tools', 'serch']);
    expect(tool).toMatchObject({ code: 2, stdout: '' });
    expect(tool.stderr).toMatch(/^error: --tools: unknown tool 'serch'\n {2}tools: list_projects, /);
    expect(await runConfig(['mcp', 'config'])).toMatchObject({ code: 2, stdout: '' });
    const badProject = await runConfig(['mcp', 'config', '--client', 'claude', '-p', 'nope']);
    expect(badProject).toMatchObject({ code: 2, stdout: '' });
  });

  it('carries --toolsets and --root into the snippet, a root made absolute, checked like the server checks them', async () => {
    const pdfs = mkdtempSync(join(tmpdir(), 'pds-pdfs-'));
    const result = await runConfig([
      'mcp',
      'config',
      '--client',
      'cursor',
      '--allow-writes',
      '--toolsets',
      'search,uploads',
      '--root',
      'docs',
      '--root',
      pdfs,
    ]);
    expect(JSON.parse(result.stdout).mcpServers.pds.args).toEqual([
      'mcp',
      '--allow-writes',
      '--toolsets',
      'search,uploads',
      '--root',
      resolve('docs'),
      '--root',
      pdfs,
    ]);
    expect(await runConfig(['mcp', 'config', '--client', 'cursor', '--toolsets', 'search,uploads'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --toolsets: uploads writes: add --allow-writes to offer it\n',
    });
    expect(await runConfig(['mcp', 'config', '--client', 'cursor', '--toolsets', 'serch'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: --toolsets: unknown toolset 'serch'\n  toolsets: catalog, documents, search, sandbox, knowledge, uploads, tags\n",
    });
    expect(
      await runConfig(['mcp', 'config', '--client', 'cursor', '--toolsets', 'search', '--tools', 'get_contract']),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --tools: get_contract is in the documents toolset, which --toolsets leaves out\n',
    });
  });

  it('refuses a --root that is not an existing directory, printing nothing on stdout', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pds-root-')), 'notes.txt');
    writeFileSync(file, 'x');
    expect(await runConfig(['mcp', 'config', '--client', 'claude', '--root', 'no-such-dir'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --root no-such-dir: not a directory\n',
    });
    expect(await runConfig(['mcp', 'config', '--client', 'claude', '--root', file])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: --root ${file}: not a directory\n`,
    });
  });

  it('starts this pds by absolute paths when pds is not on PATH, and says so in one line', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'pds-path-'));
    const result = await runCli(null, ['mcp', 'config', '--client', 'claude', '--allow-writes'], {
      env: { PATH: `${empty}:/usr/bin:/bin` },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      mcpServers: { pds: { command: process.execPath, args: [OWN_BIN, 'mcp', '--allow-writes'] } },
    });
    expect(result.stderr).toBe(
      `pds is not on PATH: the snippet starts this pds by absolute paths, Node and ${OWN_BIN}\n` +
        'add it to .mcp.json in a project (Claude Code) or to claude_desktop_config.json (Claude Desktop); ' +
        `or run: claude mcp add pds -- ${process.execPath} ${OWN_BIN} mcp --allow-writes\n`,
    );
    const vscode = await runCli(null, ['mcp', 'config', '--client', 'vscode'], { env: { PATH: undefined } });
    expect(JSON.parse(vscode.stdout)).toEqual({
      servers: { pds: { type: 'stdio', command: process.execPath, args: [OWN_BIN, 'mcp'] } },
    });
  });

  it('starts this pds by absolute paths when the pds on PATH is another installation', async () => {
    const other = mkdtempSync(join(tmpdir(), 'pds-other-'));
    mkdirSync(join(other, 'bin'));
    writeFileSync(join(other, 'bin', 'pds'), '#!/bin/sh\n', { mode: 0o755 });
    const result = await runCli(null, ['mcp', 'config', '--client', 'cursor'], { env: { PATH: join(other, 'bin') } });
    expect(JSON.parse(result.stdout).mcpServers.pds).toEqual({ command: process.execPath, args: [OWN_BIN, 'mcp'] });
    expect(result.stderr.split('\n')[0]).toBe(
      `the pds on PATH (${join(other, 'bin', 'pds')}) is another installation: the snippet starts this pds by absolute paths, Node and ${OWN_BIN}`,
    );
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
    expect(lines).toContain("statement_lines\tdocuments\tno\tRead a statement's lines");
    expect(lines).toContain('statements_totals\tdocuments\tno\tWhat the project earned');
    expect(lines).toHaveLength(38);
    const json = JSON.parse((await runCli(null, ['mcp', 'tools', '--json'])).stdout) as {
      tool: string;
      toolset: string;
      writes: boolean;
    }[];
    expect(json.filter((tool) => tool.writes).map((tool) => [tool.tool, tool.toolset])).toEqual([
      ['upload_contract', 'uploads'],
      ['upload_statement', 'uploads'],
      ['tag_contract', 'tags'],
      ['tag_statement', 'tags'],
      ['retry_contract', 'uploads'],
      ['retry_statement', 'uploads'],
      ['update_statement', 'uploads'],
    ]);
    expect(new Set(json.map((tool) => tool.toolset))).toEqual(
      new Set(['catalog', 'documents', 'search', 'sandbox', 'knowledge', 'uploads', 'tags']),
    );
    const fields = await runCli(null, ['mcp', 'tools', '--fields', 'tool,writes']);
    expect(fields.stdout.split('\n').slice(0, 2)).toEqual(['TOOL\tWRITES', 'list_projects\tfalse']);
    expect((await runCli(null, ['mcp', 'tools', '--fields', 'colour'])).code).toBe(2);
  });
});

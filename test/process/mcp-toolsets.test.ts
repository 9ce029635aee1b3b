// The tools `pds mcp` offers, as a real MCP client sees them: --toolsets narrowed by --tools, write
// toolsets only with --allow-writes, list_projects hidden from a project-scoped token, no start on a
// refused credential.
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { callTool, connectMcp, mcpEnv } from '../helpers/mcp.js';
import { runPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });

describe('pds mcp: the tools offered', () => {
  const names = async (args: string[], env: Record<string, string | undefined> = {}): Promise<string[]> => {
    const server = await connectMcp(emulator, args, { env });
    try {
      return (await server.client.listTools()).tools.map((tool) => tool.name);
    } finally {
      await server.close();
    }
  };

  it('offers the tools of --toolsets, narrowed by --tools', async () => {
    expect(await names(['--toolsets', 'search,sandbox'])).toEqual(['search', 'sandbox_exec', 'sandbox_read']);
    expect(
      await names(['--allow-writes', '--toolsets', 'uploads,search', '--tools', 'upload_statement,search']),
    ).toEqual(['search', 'upload_statement']);
  });

  it('refuses an unknown toolset, or a write toolset without --allow-writes, with exit 2', async () => {
    expect(await runPds(['mcp', '--toolsets', 'uploads'], { env: mcpEnv(emulator) })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --toolsets: uploads writes: add --allow-writes to offer it\n',
    });
    expect(await runPds(['mcp', '--toolsets', 'search,tagz'], { env: mcpEnv(emulator) })).toMatchObject({
      code: 2,
      stderr:
        "error: --toolsets: unknown toolset 'tagz'\n  toolsets: catalog, documents, search, sandbox, knowledge, uploads, tags\n",
    });
    expect(emulator.requests).toEqual([]);
  });

  it('hides list_projects from a token scoped to one project, and works in that project', async () => {
    const server = await connectMcp(emulator, [], { env: { PDS_TOKEN: 'demo-project-token', PDS_PROJECT: undefined } });
    try {
      const offered = (await server.client.listTools()).tools.map((tool) => tool.name);
      expect(offered).not.toContain('list_projects');
      expect(offered).toContain('get_project');
      expect(server.stderr()).toContain(`(the credential's one project ${DEMO_PROJECT}; writes off)`);
      expect((await callTool(server.client, 'list_projects')).text).toMatch(/list_projects not found/);
      expect((await callTool(server.client, 'list_writers', { perPage: 1 })).isError).toBe(false);
      expect(emulator.requests.map((r) => [r.path, r.query.projectId])).toEqual([
        ['/v1/projects', undefined],
        ['/v1/writers', DEMO_PROJECT],
      ]);
    } finally {
      await server.close();
    }
    // The organization's token sees every project: list_projects is offered.
    expect(await names([])).toContain('list_projects');
  });

  it('does not start when the service refuses the credential (exit 3)', async () => {
    const result = await runPds(['mcp'], { env: mcpEnv(emulator, { PDS_TOKEN: 'revoked-token' }) });
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toMatch(/^error: /);
  });
});

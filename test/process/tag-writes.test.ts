// Tag writes never lose tags, through the built CLI: in the deployed forms (a contract shows no tags,
// a statement does) and in the current flavor. Uses the bundle: `npm run build` first.
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { connectMcp, type ToolResult } from '../helpers/mcp.js';
import { runPds, signedInEnv } from '../helpers/process.js';

describe('tag writes never lose tags', () => {
  /** Runs pds against `emulator`; the JSON it printed, its exit code and stderr. */
  const pdsOn = (emulator: Emulator) => async (args: string[]) => {
    const run = await runPds(args, { env: signedInEnv(emulator.url) });
    return { code: run.code, stderr: run.stderr, json: run.stdout.trim() === '' ? undefined : JSON.parse(run.stdout) };
  };
  const firstId = async (pds: ReturnType<typeof pdsOn>, resource: string): Promise<string> =>
    String((await pds([resource, 'ls', '--per-page', '1', '--json'])).json[0].id);
  const contractTags = async (pds: ReturnType<typeof pdsOn>): Promise<string[]> =>
    ((await pds(['tags', 'ls', '--scope', 'contracts', '--json'])).json as { tag: string }[]).map((t) => t.tag).sort();
  it('deployed forms: a contract shows no tags, so --add and --remove exit 2, send no write, and keep the tags set before', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const pds = pdsOn(emulator);
      const id = await firstId(pds, 'contracts');
      expect((await pds(['contracts', 'tag', id, 'alpha', 'gamma', '--json'])).code).toBe(0);
      for (const mode of ['--add', '--remove']) {
        emulator.requests.length = 0;
        const refused = await pds(['contracts', 'tag', id, 'beta', mode]);
        expect(refused).toEqual({
          code: 2,
          json: undefined,
          stderr:
            `error: ${mode} needs contract ${id}'s current tags, and this service does not show them\n` +
            '  nothing was changed: give the complete list instead, which replaces its tags\n' +
            `    pds contracts tag ${id} <every tag it should have>\n`,
        });
        expect(emulator.requests.filter((request) => request.method !== 'GET')).toEqual([]);
      }
      expect(await contractTags(pds)).toEqual(['alpha', 'gamma']);
      // The MCP tool is the same verb: refused the same way.
      const mcpClient = await connectMcp(emulator, ['--allow-writes']);
      try {
        const result = (await mcpClient.client.callTool({
          name: 'tag_contract',
          arguments: { id, tags: ['beta'], add: true },
        })) as ToolResult;
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toMatch(/^error: add needs contract \d+'s current tags/);
      } finally {
        await mcpClient.close();
      }
      expect(await contractTags(pds)).toEqual(['alpha', 'gamma']);
      const help = await runPds(['contracts', 'tag', '--help'], { env: signedInEnv(emulator.url) });
      expect(help.stdout).toContain('replace the tags of a contract with the complete list given');
    } finally {
      await emulator.close();
    }
  });

  it('deployed forms: a statement shows its tags, so --add and --remove read, change and write them', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const pds = pdsOn(emulator);
      const id = await firstId(pds, 'statements');
      expect((await pds(['statements', 'tag', id, 'beta', '--add', '--json'])).json.tags).toBe('beta');
      expect((await pds(['statements', 'tag', id, 'alpha', '--add', '--json'])).json.tags).toBe('beta,alpha');
      expect((await pds(['statements', 'get', id, '--json'])).json.tags).toEqual(['beta', 'alpha']);
      expect((await pds(['statements', 'tag', id, 'beta', '--remove', '--json'])).json.tags).toBe('alpha');
      expect((await pds(['statements', 'get', id, '--json'])).json.tags).toEqual(['alpha']);
    } finally {
      await emulator.close();
    }
  });

  it('the current flavor: a contract shows its tags, so --add keeps the ones set before', async () => {
    const emulator = await testEmulator({ flavor: 'current' });
    try {
      const pds = pdsOn(emulator);
      const id = await firstId(pds, 'contracts');
      await pds(['contracts', 'tag', id, 'alpha', '--json']);
      expect((await pds(['contracts', 'tag', id, 'beta', '--add', '--json'])).json.tags).toBe('alpha,beta');
      expect((await pds(['contracts', 'get', id, '--json'])).json.tags).toEqual(['alpha', 'beta']);
    } finally {
      await emulator.close();
    }
  });
});

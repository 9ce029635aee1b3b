// `pds mcp config` through the built CLI: the snippet's command starts pds on this machine even
// where `pds` is not on PATH (as for a client started outside a shell), and a missing --root is refused.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDS_BIN, runPds } from '../helpers/process.js';

const NODE_AND_SYSTEM = [...new Set([dirname(process.execPath), '/usr/bin', '/bin'])].join(':');

describe('pds mcp config, built', () => {
  it('where pds is not on PATH, the snippet names Node and bin/pds.js, and that command starts pds mcp', async () => {
    const result = await runPds(['mcp', 'config', '--client', 'claude'], { env: { PATH: NODE_AND_SYSTEM } });
    expect(result.code, result.stderr).toBe(0);
    const server = (JSON.parse(result.stdout) as { mcpServers: { pds: { command: string; args: string[] } } })
      .mcpServers.pds;
    expect(server).toEqual({ command: process.execPath, args: [realpathSync(PDS_BIN), 'mcp'] });
    expect(result.stderr.split('\n')[0]).toBe(
      `pds is not on PATH: the snippet starts this pds by absolute paths, Node and ${realpathSync(PDS_BIN)}`,
    );
    // As a client would start it, from another directory with an environment of its own (signed in by PDS_TOKEN; nothing is asked of the service): it serves
    // until stdin closes, then exits 0.
    const started = spawnSync(server.command, server.args, {
      cwd: mkdtempSync(join(tmpdir(), 'pds-client-')),
      env: {
        HOME: mkdtempSync(join(tmpdir(), 'pds-home-')),
        PDS_TOKEN: 'demo-org-token',
        PDS_API_URL: 'http://127.0.0.1:9',
      },
      input: '',
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(started.status, started.stderr).toBe(0);
    expect(started.stderr).toContain('pds mcp');
  });

  it('refuses a --root that does not exist, with exit 2 and nothing on stdout', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'pds-root-')), 'statements');
    expect(
      await runPds(['mcp', 'config', '--client', 'cursor', '--root', missing], { env: { PATH: NODE_AND_SYSTEM } }),
    ).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --root ${missing}: not a directory\n`,
    });
  });
});

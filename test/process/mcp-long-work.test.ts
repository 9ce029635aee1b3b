// Long work in `pds mcp`, as a real MCP client sees it: upload and sandbox_exec progress, and a
// cancel that stops the work.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { startSlowRelay } from '../helpers/slow-relay.js';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { callTool, connectMcp, type ToolResult } from '../helpers/mcp.js';
import { until } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });

describe('pds mcp: long work', () => {
  const base = mkdtempSync(join(tmpdir(), 'pds-mcp-long-'));
  const big = join(base, 'big.pdf');
  beforeAll(() => writeFileSync(big, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * 1024 * 1024, 0x20)])));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('sends upload progress, and a cancel stops the upload before it is made: no record, no staging', async () => {
    // A service of the seed's form: the body goes to the API through the slow relay, so the cancel
    // comes while it is on its way (the signed-URL flow checks the cancel before its complete step).
    const seed = await testEmulator({ flavor: 'seed' });
    const relay = await startSlowRelay(seed.url);
    const server = await connectMcp(seed, ['--allow-writes'], { cwd: base, env: { PDS_API_URL: relay.url } });
    const project = seed.state.data[DEMO_PROJECT];
    const before = { uploads: seed.state.uploads.length, contracts: project?.contracts.length };
    try {
      const cancel = new AbortController();
      const progress: Progress[] = [];
      const call = server.client.callTool({ name: 'upload_contract', arguments: { path: 'big.pdf' } }, undefined, {
        signal: cancel.signal,
        onprogress: (event) => {
          progress.push(event);
          // Past what the sockets' buffers hold: the service has the request and part of the body.
          if (event.progress > (event.total ?? 0) * 0.4 && !cancel.signal.aborted) cancel.abort();
        },
      });
      await expect(call).rejects.toThrow(/abort/i);
      const total = progress[0]?.total ?? 0;
      expect(total).toBeGreaterThan(8 * 1024 * 1024);
      expect(progress.every((p) => p.total === total)).toBe(true);
      const sent = progress.map((p) => p.progress);
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
      expect(sent.at(-1)).toBeLessThan(total);
      expect(progress[0]?.message).toMatch(/^[\d.]+ (B|KiB|MiB) of 8\.0 MiB sent$/);
      // The body stopped: the service got a cut request and made nothing.
      const posted = () => seed.requests.find((r) => r.method === 'POST' && r.path === '/v1/contracts');
      // The relay may still be passing the cut request on when the call has ended.
      await until(() => posted() !== undefined, 'the cut POST /v1/contracts at the emulator');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(posted()?.upload).toBeUndefined();
      expect({ uploads: seed.state.uploads.length, contracts: project?.contracts.length }).toEqual(before);
      // The server goes on: the next call is answered.
      expect((await callTool(server.client, 'get_project')).isError).toBe(false);
    } finally {
      await server.close();
      await relay.close();
      await seed.close();
    }
  });

  it('sends sandbox_exec progress while the sandbox works, and a cancel abandons the request', async () => {
    const slow = await testEmulator({ flavor: 'current', latencyMs: 1300 });
    const server = await connectMcp(emulator, ['--toolsets', 'sandbox'], { env: { PDS_API_URL: slow.url } });
    try {
      const progress: Progress[] = [];
      const result = (await server.client.callTool(
        { name: 'sandbox_exec', arguments: { commands: ['ls'] } },
        undefined,
        {
          onprogress: (event) => progress.push(event),
        },
      )) as ToolResult;
      expect(result.isError).toBeFalsy();
      expect(progress.map((p) => [p.progress, p.message])).toEqual(
        expect.arrayContaining([
          [0, '1 command sent to the sandbox'],
          [1, 'running for 1 s'],
        ]),
      );

      const cancel = new AbortController();
      let cancelledAt = 0;
      const call = server.client.callTool({ name: 'sandbox_exec', arguments: { commands: ['ls'] } }, undefined, {
        signal: cancel.signal,
        // Cancelled once the exec request is out (the first tick), not while the session connects.
        onprogress: (event) => {
          if (event.progress < 1) return;
          cancelledAt = Date.now();
          cancel.abort();
        },
      });
      await expect(call).rejects.toThrow(/abort/i);
      // Abandoned, not answered: the emulator answers the exec 1.3 s after it arrives.
      expect(Date.now() - cancelledAt).toBeLessThan(1_000);
      expect(slow.requests.filter((r) => r.path.endsWith('/exec'))).toHaveLength(2);
      // The server is free for the next call at once, not after the abandoned one.
      expect((await callTool(server.client, 'sandbox_read', { path: '/' })).isError).toBe(false);
    } finally {
      await server.close();
      await slow.close();
    }
  });
});

type Progress = { progress: number; total?: number; message?: string };

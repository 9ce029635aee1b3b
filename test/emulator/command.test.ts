// `pds emulator start`: flags checked before anything listens, a clean stop on Ctrl-C.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../../src/lib/io.js';
import { main } from '../../src/cli.js';
import { freshConfigDir } from '../helpers/cli.js';

async function until(predicate: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('pds emulator start', () => {
  it('serves until Ctrl-C, then exits 0', async () => {
    const io = memoryIO();
    const controller = new AbortController();
    const env = { PDS_CONFIG_DIR: freshConfigDir() } as NodeJS.ProcessEnv;
    const running = main(['emulator', 'start', '--port', '0', '--quiet', '--scale', '2', '--seed', '3'], {
      io,
      env,
      signal: controller.signal,
    });
    await until(() => io.out().includes('\n'));
    const first = io.out().split('\n')[0]!;
    expect(first).toMatch(/^pds emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = first.slice('pds emulator listening on '.length);

    // It answers pds like the real service.
    const projects = await runCli(url, ['projects', 'ls', '-q']);
    expect(projects).toEqual({
      code: 0,
      stdout: '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7\n8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e\n',
      stderr: '',
    });
    const statements = await runCli(url, ['statements', 'ls', '--per-page', '1'], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    // --scale 2 doubles the seeded catalog.
    expect(statements.stderr).toBe('page 1 of 240 (240 total)\n');
    // --quiet: no request log.
    expect(io.err()).toBe('');

    controller.abort();
    expect(await running).toBe(0);
    expect((await runCli(url, ['projects', 'ls'], { maxRetries: 0 })).code).toBe(1);
  });

  it('logs requests on stderr without --quiet', async () => {
    const io = memoryIO();
    const controller = new AbortController();
    const env = { PDS_CONFIG_DIR: freshConfigDir() } as NodeJS.ProcessEnv;
    const running = main(['emulator', 'start', '--port', '0'], { io, env, signal: controller.signal });
    await until(() => io.out().includes('\n'));
    const url = io.out().split('\n')[0]!.replace('pds emulator listening on ', '');
    await runCli(url, ['projects', 'ls']);
    await until(() => io.err().includes('GET /v1/projects 200'));
    controller.abort();
    expect(await running).toBe(0);
  });

  it('serves the deployed flavor by default, and the one --flavor names', async () => {
    const firstArtist = async (flags: string[]): Promise<unknown> => {
      const io = memoryIO();
      const controller = new AbortController();
      const env = { PDS_CONFIG_DIR: freshConfigDir() } as NodeJS.ProcessEnv;
      const running = main(['emulator', 'start', '--port', '0', '--quiet', ...flags], {
        io,
        env,
        signal: controller.signal,
      });
      await until(() => io.out().includes('\n'));
      const url = io.out().split('\n')[0]!.replace('pds emulator listening on ', '');
      const response = await fetch(`${url}/v1/artists?projectId=5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7&perPage=1`, {
        headers: { authorization: 'Bearer demo-org-token' },
      });
      const { data } = (await response.json()) as { data: { items?: { id: unknown }[] } | { id: unknown }[] };
      controller.abort();
      expect(await running).toBe(0);
      return Array.isArray(data) ? data[0]?.id : data.items?.[0]?.id;
    };
    expect(await firstArtist([])).toBe(3000001);
    expect(await firstArtist(['--flavor', 'deployed'])).toBe(3000001);
    expect(await firstArtist(['--flavor', 'current'])).toBe('art_00001');
    expect(await firstArtist(['--flavor', 'seed'])).toBe('art_00001');
    expect(await runCli(null, ['emulator', 'start', '--flavor', 'spec'])).toMatchObject({ code: 2, stdout: '' });
  });

  it('checks its flags before listening (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['--port', '70000'], "error: invalid --port '70000': expected a whole number from 0 to 65535\n"],
      [['--port', 'http'], "error: invalid --port 'http': expected a whole number from 0 to 65535\n"],
      [['--fail-rate', '1.5'], "error: invalid --fail-rate '1.5': expected a number from 0 to 1\n"],
      [['--fail-rate', 'half'], "error: invalid --fail-rate 'half': expected a number from 0 to 1\n"],
      [['--latency', '-5'], "error: invalid --latency '-5': expected a whole number ≥ 0\n"],
      [['--rate-limit', '2.5'], "error: invalid --rate-limit '2.5': expected a whole number ≥ 0\n"],
      [['--scale', '0'], "error: invalid --scale '0': expected a whole number from 1 to 1000\n"],
      [['--processing-ms', 'x'], "error: invalid --processing-ms 'x': expected a whole number ≥ 0\n"],
      [['--seed', '1e3'], "error: invalid --seed '1e3': expected a whole number ≥ 0\n"],
    ];
    for (const [args, stderr] of cases) {
      expect(await runCli(null, ['emulator', 'start', ...args])).toEqual({ code: 2, stdout: '', stderr });
    }
  });

  it('exits 1 when the port is taken', async () => {
    const io = memoryIO();
    const controller = new AbortController();
    const env = { PDS_CONFIG_DIR: freshConfigDir() } as NodeJS.ProcessEnv;
    const running = main(['emulator', 'start', '--port', '0', '--quiet'], { io, env, signal: controller.signal });
    await until(() => io.out().includes('\n'));
    const port = io.out().split('\n')[0]!.split(':').at(-1)!;
    const second = await runCli(null, ['emulator', 'start', '--port', port]);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `error: cannot listen on 127.0.0.1:${port}: the address is already in use (try --port 0 for a free port)\n`,
    );
    controller.abort();
    expect(await running).toBe(0);
  });
});

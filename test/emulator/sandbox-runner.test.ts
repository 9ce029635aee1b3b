// The sandbox runner on its own: what it does once the emulator is stopping.
import { describe, expect, it } from 'vitest';
import { SandboxRunner } from '../../src/emulator/sandbox/runner.js';
import type { Workspace } from '../../src/emulator/sandbox/workspace.js';

const workspace = (): Workspace => ({
  files: new Map([['/a.txt', { text: 'a\n' }]]),
  dirs: new Map([['/', new Set(['a.txt'])]]),
});

describe('SandboxRunner.close', () => {
  it('refuses a request whose workspace was still being read, starting no thread', async () => {
    const runner = new SandboxRunner();
    let give: (value: Workspace) => void = () => undefined;
    const running = runner.run(new Promise<Workspace>((resolve) => (give = resolve)), ['sleep 30'], {
      timeoutMs: 30_000,
    });
    await runner.close();
    give(workspace());
    const started = Date.now();
    await expect(running).rejects.toThrow('the sandbox runner is closed');
    // A thread started anyway would run `sleep 30` for 30 s; the refusal takes milliseconds, and
    // seconds at worst on a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses new requests', async () => {
    const runner = new SandboxRunner();
    await runner.close();
    await expect(runner.run(workspace(), ['echo hi'], { timeoutMs: 1000 })).rejects.toThrow(
      'the sandbox runner is closed',
    );
  });
});

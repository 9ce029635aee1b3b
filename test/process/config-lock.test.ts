// The config file's lock through the built CLI: a wait said at once, a live holder named by its pid,
// a holder on this host whose pid is gone taken over at once.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { runPds, startPds } from '../helpers/process.js';

describe('the config lock', () => {
  const locked = (pidFile?: string) => {
    const dir = freshConfigDir();
    const lock = join(dir, 'config.json.lock');
    mkdirSync(lock);
    if (pidFile !== undefined) writeFileSync(`${lock}-pid`, pidFile);
    return { dir, lock };
  };

  it('a lock without a pid: the wait is said at once, and the write goes on when the lock goes', async () => {
    const { dir, lock } = locked();
    const writer = startPds(['config', 'set', 'timeout', '7'], { env: { PDS_CONFIG_DIR: dir } });
    const started = Date.now();
    // At once: long before the 10 s after which a lock that is not refreshed is taken over (the
    // bound leaves a loaded machine seconds to start pds).
    await writer.waitFor('waiting for the config lock', 8_000);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(writer.stderr()).toBe(
      'warning: waiting for the config lock, held by a process that did not say its pid (taken over if it does not refresh it within 10 s)\n',
    );
    rmSync(lock, { recursive: true });
    const exit = await writer.exited;
    expect(exit.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { timeout: '7' } },
    });
  });

  it('a live holder is named at once by its pid', async () => {
    const { dir, lock } = locked(`${process.pid}\n`);
    const writer = startPds(['config', 'set', 'timeout', '7'], { env: { PDS_CONFIG_DIR: dir } });
    await writer.waitFor(`waiting for the config lock, held by pid ${process.pid}\n`, 8_000);
    rmSync(`${lock}-pid`);
    rmSync(lock, { recursive: true });
    expect((await writer.exited).code).toBe(0);
  });

  it('a holder on this host whose pid is gone: taken over at once, said once', async () => {
    const gone = startPds(['--version']);
    const pid = String(gone.child.pid);
    await gone.exited;
    const { dir } = locked(`${pid}\n`);
    const result = await runPds(['config', 'set', 'timeout', '7'], { env: { PDS_CONFIG_DIR: dir } });
    expect(result).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `warning: took over the config lock of pid ${pid}, which stopped without releasing it\nSet timeout to 7 (profile default)\n`,
    });
    // At once, not after the 10 s a lock without a refresh is given.
    expect(result.ms).toBeLessThan(8_000);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });
});

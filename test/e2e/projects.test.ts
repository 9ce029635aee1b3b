import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await testEmulator();
});
afterAll(() => emulator.close());

describe('pds projects', () => {
  it('lists projects as TSV when piped', async () => {
    const result = await runCli(emulator, ['projects', 'ls']);
    expect(result).toEqual({
      code: 0,
      stdout:
        'ID\tNAME\tCREATED\n' +
        '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7\tNorthern Lights Catalog\t2026-01-15T10:00:00.000Z\n' +
        '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e\tHarbor Sessions\t2026-01-15T10:00:00.000Z\n',
      stderr: '',
    });
  });

  it('lists projects as a table on a TTY', async () => {
    const result = await runCli(emulator, ['projects', 'ls'], { tty: true, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });

  it('prints a project as JSON', async () => {
    const result = await runCli(emulator, ['projects', 'get', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: DEMO_PROJECT });
  });
});

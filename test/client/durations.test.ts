// Durations wherever pds takes seconds: a flag, a variable, a config key (`90`, `90s`, `5m`, `1h`,
// `1m30s`), read by one parser; a bad one is exit 2 with the forms it takes, and nothing is sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { freshConfigDir, runCli } from '../helpers/cli.js';
import { parseDuration } from '../../src/lib/clock.js';

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
  dir = mkdtempSync(join(tmpdir(), 'pds-durations-'));
});
afterAll(() => emulator.close());

const FORMS = '(90, 90s, 5m, 1h or 1m30s)';

describe('parseDuration', () => {
  it.each([
    ['90', 90],
    ['0', 0],
    ['0.5', 0.5],
    ['90s', 90],
    ['1.5s', 1.5],
    ['500ms', 0.5],
    ['5m', 300],
    ['1h', 3600],
    ['1m30s', 90],
    ['1h05m', 3900],
    [' 2m ', 120],
    ['5M', 300],
  ])('%j is %d s', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each([[''], ['-5'], ['5x'], ['m'], ['5s3m'], ['5mm'], ['1 m'], ['soon'], ['1e3'], ['0x10']])(
    '%j is no duration',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );
});

describe('flags, variables and config keys take durations', () => {
  it('--retry-budget 5m, --timeout 1m, --wait-timeout 2m and --interval 500ms: an upload runs with them', async () => {
    const file = join(dir, 'durations.csv');
    writeFileSync(file, 'period,amount\n2026Q1,1\n');
    const before = emulator.requests.length;
    const result = await runCli(emulator, [
      'upload',
      'statement',
      file,
      '--retry-budget',
      '5m',
      '--timeout',
      '1m',
      '--wait',
      '--wait-timeout',
      '2m',
      '--interval',
      '500ms',
    ]);
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(emulator.requests.slice(before).some((r) => r.method === 'POST')).toBe(true);
    expect(emulator.state.uploads.filter((u) => u.file_name === 'durations.csv')).toHaveLength(1);
  });

  it('PDS_RETRY_BUDGET=1h and a config key of 1m30s are read; config set stores the seconds', async () => {
    const config = freshConfigDir();
    const env = { PDS_CONFIG_DIR: config };
    expect(await runCli(emulator, ['config', 'set', 'retry-budget', '1m30s'], { env })).toMatchObject({ code: 0 });
    expect(await runCli(emulator, ['config', 'get', 'retry-budget'], { env })).toMatchObject({
      code: 0,
      stdout: '90\n',
    });
    expect(await runCli(emulator, ['config', 'set', 'timeout', '2m'], { env })).toMatchObject({ code: 0 });
    expect((await runCli(emulator, ['config', 'get', 'timeout'], { env })).stdout).toBe('120\n');
    expect((await runCli(emulator, ['projects', 'ls', '-q'], { env: { ...env, PDS_RETRY_BUDGET: '1h' } })).code).toBe(
      0,
    );
  });

  it.each([
    [
      ['--retry-budget', '5x'],
      `error: invalid --retry-budget '5x': expected seconds from 0 (no retries) to 3600 ${FORMS}\n`,
    ],
    [
      ['--retry-budget', '2h'],
      `error: invalid --retry-budget '2h': expected seconds from 0 (no retries) to 3600 ${FORMS}\n`,
    ],
    [['--timeout', '5 minutes'], `error: invalid --timeout '5 minutes': expected seconds from 0.1 to 3600 ${FORMS}\n`],
    [['--wait-timeout', '-1m'], `error: invalid --wait-timeout '-1m': expected seconds from 1 to 604800 ${FORMS}\n`],
    [['--interval', 'often'], `error: invalid --interval 'often': expected seconds from 0.1 to 3600 ${FORMS}\n`],
  ])('%j: exit 2, nothing sent', async (flags, stderr) => {
    const file = join(dir, 'never.csv');
    writeFileSync(file, 'period,amount\n2026Q1,1\n');
    const before = emulator.requests.length;
    const result = await runCli(emulator, ['upload', 'statement', file, '--wait', ...flags]);
    expect(result).toEqual({ code: 2, stdout: '', stderr });
    expect(emulator.requests.length).toBe(before);
  });

  it('PDS_RETRY_BUDGET that is no duration: exit 2 naming the variable', async () => {
    const result = await runCli(emulator, ['projects', 'ls'], { env: { PDS_RETRY_BUDGET: 'five minutes' } });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: invalid PDS_RETRY_BUDGET 'five minutes': expected seconds from 0 (no retries) to 3600 ${FORMS}\n`,
    });
  });
});

// Tables and records on a terminal (a pty, through the built CLI): one key per fact in the table as
// in JSON (auth status's stored_in, the currencies of statements update), and tables at 80 columns
// that never cut what is copied (ids, file names, the next command).
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir } from '../helpers/cli.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const NO_COLOR = { NO_COLOR: '1' };

/** A config directory holding `profiles`, and the file's bytes. */
function configWith(profiles: Record<string, Record<string, string>>): { dir: string; bytes: string } {
  const dir = freshConfigDir();
  const bytes = `${JSON.stringify({ profiles }, null, '\t')}\n`;
  writeFileSync(join(dir, 'config.json'), bytes, { mode: 0o600 });
  return { dir, bytes };
}

describe('one key per fact', () => {
  it('auth status names where the credential is kept stored_in in the table as in JSON', async () => {
    const { dir } = configWith({ default: { token: 'demo-org-token' } });
    const env = { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, ...NO_COLOR };
    const term = await ptyPds(['auth', 'status'], { env });
    expect((await term.exited).code).toBe(0);
    const screen = (await term.screen()).join('\n');
    expect(screen).toMatch(new RegExp(`^stored_in +${join(dir, 'config.json')}$`, 'm'));
    const json = await runPds(['auth', 'status', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ stored_in: join(dir, 'config.json') });
  });

  it('statements update shows the currencies as get names them, in a table and in JSON', async () => {
    const env = signedInEnv(emulator.url);
    const args = ['statements', 'update', '40002', '--currency-royalty', 'eur', '--currency-transaction', 'usd'];
    const piped = await runPds(args, { env });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('currency_transaction\tUSD\n');
    expect(piped.stdout).toContain('currency_royalty\tEUR\n');
    expect(piped.stdout).not.toMatch(/^currency(_tx)?\t/m);
    const json = JSON.parse((await runPds([...args, '--json'], { env })).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ currency_transaction: 'USD', currency_royalty: 'EUR' });
    expect(Object.keys(json)).not.toContain('currency_tx');
    expect(Object.keys(json)).not.toContain('currency');
  });
});

describe('narrow tables never cut what is copied', () => {
  it('auth list at 80 columns shows the whole project id, and its footer says 1 profile', async () => {
    const { dir } = configWith({ default: { token: 'demo-org-token', project: DEMO_PROJECT } });
    const term = await ptyPds(['auth', 'list'], {
      cols: 80,
      env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, ...NO_COLOR },
    });
    expect((await term.exited).code).toBe(0);
    const screen = await term.screen();
    expect(screen.find((line) => line.startsWith('*'))).toMatch(
      new RegExp(`^\\*  default  \\S+ +token +${DEMO_PROJECT}$`),
    );
    expect(screen.at(-1)).toBe('1 profile');
  });

  it('the upload table at 80 columns keeps a 9-character file name and the next command whole', async () => {
    const files = mkdtempSync(join(tmpdir(), 'pds-narrow-'));
    copyFileSync(new URL('../fixtures/sample.pdf', import.meta.url), join(files, 'deal1.pdf'));
    const term = await ptyPds(['upload', 'contract', '--wait', join(files, 'deal1.pdf')], {
      cols: 80,
      env: { ...signedInEnv(emulator.url), ...NO_COLOR },
    });
    expect((await term.exited).code).toBe(0);
    const screen = await term.screen();
    const header = screen.findIndex((line) => line.startsWith('FILE'));
    expect(header).toBeGreaterThanOrEqual(0);
    // The file and the ids whole; the next command whole (in its column, or below the table).
    expect(screen[header + 1]).toMatch(/^deal1\.pdf {2}\d+ /);
    expect(screen.join('\n')).toMatch(/pds contracts get \d+$/m);
    for (const line of screen) expect(line.length).toBeLessThanOrEqual(80);
  });
});

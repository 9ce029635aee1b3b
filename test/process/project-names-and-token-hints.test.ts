// Project names and tokens through the built CLI: a project name matches in any case (a near name
// suggested, never picked), a cancelled browser sign-in leaves the config file as it was, and the
// hint for a refused token fits where the token came from.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir } from '../helpers/cli.js';
import { captureBrowser } from '../helpers/oauth.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const SECOND_PROJECT = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';

/** A config directory holding `profiles`, and the file's bytes. */
function configWith(profiles: Record<string, Record<string, string>>): { dir: string; bytes: string } {
  const dir = freshConfigDir();
  const bytes = `${JSON.stringify({ profiles }, null, '\t')}\n`;
  writeFileSync(join(dir, 'config.json'), bytes, { mode: 0o600 });
  return { dir, bytes };
}

describe('project names', () => {
  it('match in any case when one project has the name; a near name is suggested, never picked', async () => {
    const env = signedInEnv(emulator.url, { PDS_PROJECT: undefined });
    const used = await runPds(['use', 'northern lights catalog'], { env });
    expect(used).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Now using Northern Lights Catalog (${DEMO_PROJECT})\n`,
    });
    const near = await runPds(['use', 'Harbour Sesions'], { env });
    expect(near).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: no project named 'Harbour Sesions'\n  did you mean:\n    ${SECOND_PROJECT}  Harbor Sessions\n`,
    });
  });
});

describe('a cancelled browser sign-in', () => {
  it('Ctrl-C while waiting for the browser leaves the config file byte for byte as it was', async () => {
    const { dir, bytes } = configWith({ work: { token: 'demo-org-token', project: DEMO_PROJECT } });
    const capture = captureBrowser();
    const env = { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, BROWSER: capture.command };
    const term = await ptyPds(['auth', 'login', '--web'], { env });
    await term.waitFor('Ctrl-C cancels');
    await capture.url();
    term.write('\u0003');
    expect((await term.exited).code).toBe(130);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(bytes);
    const listed = await runPds(['auth', 'list', '-q'], { env });
    expect(listed.stdout).toBe('work\n');
  });
});

describe('a refused token: the hint fits its source', () => {
  it('a bad PDS_TOKEN over a stored login says to unset it; with none, how to get one', async () => {
    const { dir } = configWith({ default: { token: 'demo-org-token' } });
    const over = await runPds(['projects', 'ls'], {
      env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, PDS_TOKEN: 'bad' },
    });
    expect(over).toMatchObject({
      code: 3,
      stderr:
        'error: invalid or expired token\n  the token in use is PDS_TOKEN\n' +
        '  PDS_TOKEN overrides the sign-in stored in profile default: unset it to use that (`unset PDS_TOKEN`)\n',
    });
    // The stored login works once PDS_TOKEN is gone.
    expect(
      (await runPds(['projects', 'ls', '-q'], { env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url } })).code,
    ).toBe(0);
    const alone = await runPds(['projects', 'ls'], {
      env: { PDS_CONFIG_DIR: freshConfigDir(), PDS_API_URL: emulator.url, PDS_TOKEN: 'bad' },
    });
    expect(alone.stderr).toBe(
      'error: invalid or expired token\n  the token in use is PDS_TOKEN\n  set PDS_TOKEN to a valid API token, or unset it and sign in: `pds auth login`\n',
    );
    const stale = configWith({ work: { token: 'revoked' } });
    const profile = await runPds(['--profile', 'work', 'projects', 'ls'], {
      env: { PDS_CONFIG_DIR: stale.dir, PDS_API_URL: emulator.url },
    });
    expect(profile.stderr).toBe(
      'error: invalid or expired token\n  the token in use is the token of profile work\n  sign in again: `pds auth login --profile work`\n',
    );
  });
});

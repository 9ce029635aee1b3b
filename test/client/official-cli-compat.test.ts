// What users of the service's official CLI bring along: ROYALTYPORT_TOKEN and ROYALTYPORT_API_URL
// (read after PDS_* and before the profile), and -w for --watch.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/lib/config/settings.js';
import { realClock, type Clock } from '../../src/lib/clock.js';
import { DEMO_PROJECT, freshConfigDir, runCli } from '../helpers/cli.js';
import { answerOf, sharedEmulator } from '../helpers/emulator.js';

// Slow enough that the upload is still processing when the watch starts, even on a busy machine.
const emulator = sharedEmulator({ flavor: 'current', processingMs: 250 });
/** The projects the emulator answers the organization's token (auth status counts them and names the default). */
let projects: { id: string; name: string }[];
beforeAll(async () => {
  projects = await answerOf<{ id: string; name: string }[]>(emulator, '/v1/projects');
  expect(projects.some((project) => project.id === DEMO_PROJECT && project.name !== '')).toBe(true);
});
const projectName = () => projects.find((project) => project.id === DEMO_PROJECT)?.name;
const quickClock: Clock = { now: () => Date.now(), sleep: (ms, signal) => realClock.sleep(Math.min(ms, 20), signal) };

function withProfile(profile: Record<string, string>): string {
  const dir = freshConfigDir();
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }));
  return dir;
}

describe('ROYALTYPORT_TOKEN and ROYALTYPORT_API_URL', () => {
  it('come after PDS_TOKEN and PDS_API_URL', () => {
    const settings = resolveSettings(
      {},
      {
        PDS_CONFIG_DIR: freshConfigDir(),
        PDS_TOKEN: 'pds-token',
        ROYALTYPORT_TOKEN: 'rp-token',
        PDS_API_URL: 'http://127.0.0.1:1',
        ROYALTYPORT_API_URL: 'http://127.0.0.1:2',
      },
    );
    expect(settings).toMatchObject({
      token: 'pds-token',
      tokenSource: 'env',
      apiUrl: 'http://127.0.0.1:1',
      apiUrlSource: 'env',
    });
    expect(settings.royaltyportEnv).toBeUndefined();
  });

  it('come before the profile', () => {
    const dir = withProfile({ token: 'profile-token', 'api-url': 'http://127.0.0.1:3' });
    const settings = resolveSettings(
      {},
      { PDS_CONFIG_DIR: dir, ROYALTYPORT_TOKEN: 'rp-token', ROYALTYPORT_API_URL: 'http://127.0.0.1:2/' },
    );
    expect(settings).toMatchObject({
      token: 'rp-token',
      tokenSource: 'env',
      apiUrl: 'http://127.0.0.1:2',
      apiUrlSource: 'env',
      royaltyportEnv: { token: 'ROYALTYPORT_TOKEN', apiUrl: 'ROYALTYPORT_API_URL' },
    });
    expect(
      resolveSettings(
        { apiUrl: 'http://127.0.0.1:4' },
        { PDS_CONFIG_DIR: dir, ROYALTYPORT_API_URL: 'http://127.0.0.1:2' },
      ).apiUrl,
    ).toBe('http://127.0.0.1:4');
  });

  it('are checked like PDS_API_URL', () => {
    expect(() => resolveSettings({}, { PDS_CONFIG_DIR: freshConfigDir(), ROYALTYPORT_API_URL: 'ftp://x' })).toThrow(
      "invalid API URL 'ftp://x': only http and https are supported",
    );
  });

  it('work end to end, and auth status names them as the source', async () => {
    const result = await runCli(null, ['auth', 'status'], {
      token: null,
      env: { ROYALTYPORT_TOKEN: 'demo-org-token', ROYALTYPORT_API_URL: emulator.url },
    });
    expect(result).toEqual({
      code: 0,
      stdout:
        'profile\tdefault\n' +
        `api_url\t${emulator.url}, from ROYALTYPORT_API_URL\n` +
        'credential\tAPI token\n' +
        'token\tdemo…, from ROYALTYPORT_TOKEN\n' +
        `scope\torganization (${projects.length} projects)\n` +
        `default_project\t${projectName()} (${DEMO_PROJECT}), from PDS_PROJECT\n`,
      stderr: '',
    });
    expect(emulator.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/v1/projects', 'Bearer demo-org-token'],
    ]);
  });
});

describe('-w', () => {
  it('is short for --watch', async () => {
    const upload = await runCli(emulator, ['upload', 'statement', 'test/fixtures/sample.pdf', '-q']);
    expect(upload).toMatchObject({ code: 0, stderr: '' });
    const stagingId = upload.stdout.trim();
    const result = await runCli(emulator, ['statements', 'status', stagingId, '-w', '--interval', '0.1', '--json'], {
      clock: quickClock,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({
      staging_id: Number(stagingId),
      processing_processes: { status: 'completed' },
    });
    expect(emulator.requests.filter((r) => r.path === `/v1/statements/${stagingId}/processes`).length).toBeGreaterThan(
      1,
    );
  });
});

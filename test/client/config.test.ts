import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import { answerOf, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir, runCli, type RunOptions } from '../helpers/cli.js';

const SECOND_PROJECT = SECOND_PROJECT_ID;

let emulator: Emulator;
let other: Emulator;
let dir: string;
/** What the emulator answers the organization's token: its projects, whose names `pds use` takes. */
let projects: { id: string; name: string }[];
const nameOf = (id: string) => projects.find((project) => project.id === id)?.name ?? `no project ${id}`;
beforeAll(async () => {
  [emulator, other] = await Promise.all([testEmulator({ flavor: 'current' }), testEmulator({ flavor: 'current' })]);
  projects = await answerOf(emulator, '/v1/projects');
});
afterAll(() => Promise.all([emulator.close(), other.close()]));
beforeEach(() => {
  dir = freshConfigDir();
  emulator.requests.length = 0;
  other.requests.length = 0;
});

/** No PDS_PROJECT, the test's config dir; the token comes from PDS_TOKEN unless told otherwise. */
const pds = (args: string[], options: RunOptions = {}) =>
  runCli(emulator, args, { project: null, ...options, env: { PDS_CONFIG_DIR: dir, ...options.env } });
const configFile = () => join(dir, 'config.json');
const profiles = (): Record<string, Record<string, string>> =>
  (JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles: Record<string, Record<string, string>> }).profiles;

describe('pds config', () => {
  it('sets, gets, lists and unsets keys', async () => {
    expect(await pds(['config', 'set', 'api-url', 'https://pds.example.com/'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Set api-url to https://pds.example.com (profile default)\n',
    });
    expect((await pds(['config', 'set', 'project', DEMO_PROJECT.toUpperCase()])).stderr).toBe(
      `Set project to ${DEMO_PROJECT} (profile default)\n`,
    );
    expect((await pds(['config', 'set', 'timeout', '2.5'])).code).toBe(0);
    expect(profiles()).toEqual({
      default: { 'api-url': 'https://pds.example.com', project: DEMO_PROJECT, timeout: '2.5' },
    });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);

    expect(await pds(['config', 'get', 'api-url'])).toEqual({
      code: 0,
      stdout: 'https://pds.example.com\n',
      stderr: '',
    });
    expect(await pds(['config', 'get', 'timeout', '--json'])).toEqual({ code: 0, stdout: '"2.5"\n', stderr: '' });
    // The output's spelling works as a key too.
    expect(await pds(['config', 'get', 'api_url'])).toEqual({
      code: 0,
      stdout: 'https://pds.example.com\n',
      stderr: '',
    });
    expect((await pds(['config', 'list', '--format', 'csv'])).stdout).toBe(
      `api_url,project,timeout\r\nhttps://pds.example.com,${DEMO_PROJECT},2.5\r\n`,
    );
    expect((await pds(['config', 'list', '--format', 'ndjson', '--fields', 'timeout'])).stdout).toBe(
      '{"timeout":"2.5"}\n',
    );

    expect(await pds(['config', 'list'])).toEqual({
      code: 0,
      stdout: `api_url\thttps://pds.example.com\nproject\t${DEMO_PROJECT}\ntimeout\t2.5\n`,
      stderr: '',
    });
    expect(await pds(['config', 'list'], { tty: true, env: { NO_COLOR: '1' } })).toEqual({
      code: 0,
      stdout: `api_url  https://pds.example.com\nproject  ${DEMO_PROJECT}\ntimeout  2.5\n`,
      stderr: '',
    });
    const json = await pds(['config', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      api_url: 'https://pds.example.com',
      project: DEMO_PROJECT,
      timeout: '2.5',
    });

    expect(await pds(['config', 'unset', 'timeout'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Unset timeout (profile default)\n',
    });
    expect(await pds(['config', 'unset', 'timeout'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'timeout was not set (profile default)\n',
    });
    expect(profiles()).toEqual({ default: { 'api-url': 'https://pds.example.com', project: DEMO_PROJECT } });
    expect(await pds(['config', 'get', 'timeout'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: timeout is not set in profile default\n',
    });
    // No request for any of it.
    expect(emulator.requests).toEqual([]);
  });

  it('lists the token masked, never whole', async () => {
    await pds(['auth', 'login', '--with-token'], { token: null, stdin: 'demo-org-token' });
    await pds(['config', 'set', 'project', DEMO_PROJECT]);
    const result = await pds(['config', 'list']);
    expect(result).toEqual({ code: 0, stdout: `project\t${DEMO_PROJECT}\ntoken\tdemo…\n`, stderr: '' });
    expect(JSON.parse((await pds(['config', 'list', '--json'])).stdout)).toEqual({
      project: DEMO_PROJECT,
      token: 'demo…',
    });
  });

  it('lists an empty profile', async () => {
    expect(await pds(['config', 'list'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'profile default has no stored settings\n',
    });
    expect(await pds(['config', 'list', '--json'])).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
  });

  it('keeps profiles apart (--profile and PDS_PROFILE)', async () => {
    await pds(['config', 'set', 'timeout', '5', '--profile', 'work']);
    await pds(['config', 'set', 'timeout', '7'], { env: { PDS_PROFILE: 'ci' } });
    expect(profiles()).toEqual({ work: { timeout: '5' }, ci: { timeout: '7' } });
    expect((await pds(['config', 'get', 'timeout'], { env: { PDS_PROFILE: 'work' } })).stdout).toBe('5\n');
  });

  it('rejects an unknown key with exit 2, listing the valid ones', async () => {
    for (const args of [
      ['config', 'get', 'colour'],
      ['config', 'set', 'colour', 'red'],
      ['config', 'unset', 'colour'],
    ]) {
      expect(await pds(args)).toEqual({
        code: 2,
        stdout: '',
        stderr:
          "error: unknown config key 'colour'\n  valid keys: api-url, project, timeout, retry-budget, allow-http\n",
      });
    }
    expect(await pds(['config', 'set', 'token', 'abc'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown config key 'token'\n  valid keys: api-url, project, timeout, retry-budget, allow-http\n" +
        '  the token is managed by `pds auth login`, `pds auth token` and `pds auth logout`\n',
    });
  });

  it('checks values before saving them', async () => {
    const cases: [string, string, string][] = [
      ['api-url', 'not a url', "error: invalid API URL 'not a url': expected something like https://api.example.com\n"],
      [
        'api-url',
        'ftp://x.example.com',
        "error: invalid API URL 'ftp://x.example.com': only http and https are supported\n",
      ],
      [
        'api-url',
        'https://x.example.com/v1',
        "error: invalid API URL 'https://x.example.com/v1': give the base URL without /v1\n",
      ],
      [
        'project',
        'northern',
        "error: invalid project id 'northern': expected a UUID like 5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7\n",
      ],
      ['timeout', '0', "error: invalid timeout '0': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)\n"],
      ['timeout', '-3', "error: invalid timeout '-3': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)\n"],
      [
        'timeout',
        'soon',
        "error: invalid timeout 'soon': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)\n",
      ],
      [
        'timeout',
        '5000000',
        "error: invalid timeout '5000000': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)\n",
      ],
      [
        'retry-budget',
        '-1',
        "error: invalid retry-budget '-1': expected seconds from 0 (no retries) to 3600 (90, 90s, 5m, 1h or 1m30s)\n",
      ],
      ['allow-http', 'maybe', "error: invalid allow-http 'maybe': expected true or false (1 or 0)\n"],
    ];
    for (const [key, value, stderr] of cases) {
      expect(await pds(['config', 'set', key, value])).toEqual({ code: 2, stdout: '', stderr });
    }
    expect(() => statSync(configFile())).toThrow();
  });

  it('tightens the mode of an existing config file to 0600', async () => {
    writeFileSync(configFile(), JSON.stringify({ profiles: { default: { timeout: '3' } } }));
    chmodSync(configFile(), 0o644);
    expect((await pds(['config', 'set', 'project', DEMO_PROJECT])).code).toBe(0);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(profiles()).toEqual({ default: { timeout: '3', project: DEMO_PROJECT } });
  });

  it('reports a config file that is not JSON (exit 2)', async () => {
    writeFileSync(configFile(), '{oops');
    expect(await pds(['config', 'list'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error: the config file ${configFile()} is not valid JSON\n` +
        '  `pds auth login` replaces it (the broken file is kept beside it)\n' +
        `  or move it away: \`mv '${configFile()}' '${configFile()}.old'\`\n`,
    });
  });
});

describe('precedence: flag > environment > profile', () => {
  it('resolves the API URL', async () => {
    await pds(['config', 'set', 'api-url', emulator.url]);
    const run = (args: string[], env: Record<string, string | undefined>) =>
      runCli(null, args, { project: null, env: { PDS_CONFIG_DIR: dir, ...env } });

    expect((await run(['projects', 'ls', '-q'], {})).code).toBe(0);
    expect([emulator.requests.length, other.requests.length]).toEqual([1, 0]);

    expect((await run(['projects', 'ls', '-q'], { PDS_API_URL: other.url })).code).toBe(0);
    expect([emulator.requests.length, other.requests.length]).toEqual([1, 1]);

    expect((await run(['projects', 'ls', '-q', '--api-url', emulator.url], { PDS_API_URL: other.url })).code).toBe(0);
    expect([emulator.requests.length, other.requests.length]).toEqual([2, 1]);
  });

  it('resolves the project', async () => {
    await pds(['config', 'set', 'project', SECOND_PROJECT]);
    const projectOf = async (args: string[], env: Record<string, string> = {}) => {
      const result = await pds(['projects', 'get', '-q', ...args], { env });
      expect(result.code).toBe(0);
      return result.stdout.trim();
    };
    expect(await projectOf([])).toBe(SECOND_PROJECT);
    expect(await projectOf([], { PDS_PROJECT: DEMO_PROJECT })).toBe(DEMO_PROJECT);
    expect(await projectOf(['-p', SECOND_PROJECT], { PDS_PROJECT: DEMO_PROJECT })).toBe(SECOND_PROJECT);
    expect(emulator.requests.map((r) => r.path)).toEqual([
      `/v1/projects/${SECOND_PROJECT}`,
      `/v1/projects/${DEMO_PROJECT}`,
      `/v1/projects/${SECOND_PROJECT}`,
    ]);
  });

  it('resolves the token: PDS_TOKEN over the profile', async () => {
    await pds(['auth', 'login', '--with-token'], { token: null, stdin: 'demo-project-token' });
    emulator.requests.length = 0;
    await pds(['projects', 'ls', '-q'], { token: null });
    await pds(['projects', 'ls', '-q'], { token: 'demo-org-token' });
    expect(emulator.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer demo-project-token',
      'Bearer demo-org-token',
    ]);
  });

  it('resolves the timeout: flag over profile', async () => {
    const slow = await testEmulator({ flavor: 'current', latencyMs: 1500 });
    try {
      await pds(['config', 'set', 'timeout', '0.2']);
      const result = await runCli(slow, ['projects', 'ls'], { maxRetries: 0, env: { PDS_CONFIG_DIR: dir } });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'error: request timed out after 0.2 s: GET /v1/projects\n  raise it with --timeout <seconds>\n',
      );
      const patient = await runCli(slow, ['projects', 'ls', '-q', '--timeout', '10'], {
        maxRetries: 0,
        env: { PDS_CONFIG_DIR: dir },
      });
      expect(patient.code).toBe(0);
    } finally {
      await slow.close();
    }
  });
});

describe('pds use', () => {
  it('selects a project by exact name', async () => {
    expect(await pds(['use', nameOf(SECOND_PROJECT)])).toEqual({
      code: 0,
      stdout: '',
      stderr: `Now using ${nameOf(SECOND_PROJECT)} (${SECOND_PROJECT})\n`,
    });
    expect(profiles()).toEqual({ default: { project: SECOND_PROJECT } });
    expect(emulator.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/v1/projects', 'Bearer demo-org-token'],
    ]);
    // Later commands use it.
    expect((await pds(['projects', 'get', '-q'])).stdout).toBe(`${SECOND_PROJECT}\n`);
  });

  it('selects a project by UUID, checked with GET /v1/projects/{id}', async () => {
    expect(await pds(['use', DEMO_PROJECT], { env: { PDS_PROFILE: 'work' } })).toEqual({
      code: 0,
      stdout: '',
      stderr: `Now using ${nameOf(DEMO_PROJECT)} (${DEMO_PROJECT})\n`,
    });
    expect(profiles()).toEqual({ work: { project: DEMO_PROJECT } });
    expect(emulator.requests.map((r) => r.path)).toEqual([`/v1/projects/${DEMO_PROJECT}`]);
  });

  it('warns when PDS_PROJECT overrides the choice', async () => {
    const result = await pds(['use', nameOf(SECOND_PROJECT)], { env: { PDS_PROJECT: DEMO_PROJECT } });
    expect(result.stderr).toBe(
      `Now using ${nameOf(SECOND_PROJECT)} (${SECOND_PROJECT})\nwarning: PDS_PROJECT is set in this environment and overrides the profile's project\n`,
    );
  });

  it('exits 2 for an unknown name, listing the candidates', async () => {
    expect(projects.map((project) => project.name)).not.toContain('Studio Tapes');
    expect(await pds(['use', 'Studio Tapes'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: no project named 'Studio Tapes'\n  projects this token reaches:\n${projects
        .map((project) => `    ${project.id}  ${project.name}\n`)
        .join('')}`,
    });
    expect(() => statSync(configFile())).toThrow();
  });

  it('takes a name in any case when one project has it; suggests the closest names for a near one', async () => {
    const name = nameOf(SECOND_PROJECT);
    expect(name.toLowerCase()).not.toBe(name);
    expect(await pds(['use', name.toLowerCase()])).toMatchObject({
      code: 0,
      stderr: `Now using ${name} (${SECOND_PROJECT})\n`,
    });
    // Two typos away (a letter lost, one doubled), in lower case.
    const near = `${name.slice(0, 1)}${name.slice(2)}${name.slice(-1)}`.toLowerCase();
    expect(await pds(['use', near])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: no project named '${near}'\n  did you mean:\n    ${SECOND_PROJECT}  ${name}\n`,
    });
  });

  it('exits 2 for an ambiguous name, listing the matches', async () => {
    const twin = await testEmulator({ flavor: 'current' });
    try {
      const [first] = twin.state.projects;
      const copy = { ...first!, id: '0d6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b' };
      twin.state.projects.push(copy);
      const name = first!.name;
      const result = await runCli(twin, ['use', name], {
        project: null,
        env: { PDS_CONFIG_DIR: dir },
      });
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `error: 2 projects are named '${name}': use the id\n` +
          `  ${first!.id}  ${name}\n` +
          `  ${copy.id}  ${name}\n`,
      });
    } finally {
      await twin.close();
    }
  });

  it('exits 5 for a UUID the service does not know, 4 for one the token may not use', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await pds(['use', unknown]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toBe('error: project not found\n');
    const forbidden = await pds(['use', SECOND_PROJECT], { token: 'demo-project-token' });
    expect(forbidden.code).toBe(4);
    expect(() => statSync(configFile())).toThrow();
  });

  it('needs a token (exit 3, no request)', async () => {
    expect((await pds(['use', nameOf(SECOND_PROJECT)], { token: null })).code).toBe(3);
    expect(emulator.requests).toEqual([]);
  });
});

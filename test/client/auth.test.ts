import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import { answerOf, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir, runCli, type RunOptions } from '../helpers/cli.js';

const HINT =
  'sign in with `pds auth login` (it asks how on a terminal; --web: with a browser), pipe a token to `pds auth login --with-token`, or set PDS_TOKEN';

let emulator: Emulator;
let dir: string;
/** What the emulator answers the organization's token: its projects (names and count are read, not written here). */
let projects: { id: string; name: string }[];
const nameOf = (id: string) => projects.find((project) => project.id === id)?.name ?? `no project ${id}`;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
  projects = await answerOf(emulator, '/v1/projects');
  // More than one: the lines say "projects", and `pds use` has a choice to make.
  expect(projects.length).toBeGreaterThan(1);
});
afterAll(() => emulator.close());
beforeEach(() => {
  dir = freshConfigDir();
  emulator.requests.length = 0;
});

const NO_COLOR = { NO_COLOR: '1' };
/** A run with no PDS_TOKEN/PDS_PROJECT, over the config dir of the test. */
const pds = (args: string[], options: RunOptions = {}) =>
  runCli(emulator, args, { token: null, project: null, ...options, env: { PDS_CONFIG_DIR: dir, ...options.env } });
const configFile = () => join(dir, 'config.json');
/** What a login says where there is no keychain (no D-Bus session here): the file keeps the token. */
const noKeychain = () =>
  `warning: no keychain to keep the credential in (no D-Bus session, so no Secret Service): it is kept in ${configFile()} (mode 0600)\n`;
const profiles = (): Record<string, Record<string, string>> =>
  (JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles: Record<string, Record<string, string>> }).profiles;

describe('pds auth login', () => {
  it('reads the token from stdin, checks it with GET /v1/projects and saves it with mode 0600', async () => {
    const result = await pds(['auth', 'login', '--with-token'], { stdin: '  demo-org-token\n' });
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr:
        `${noKeychain()}Logged in to ${emulator.url} as organization (${projects.length} projects) (profile default)\n` +
        `Next: choose a project with \`pds use <name>\` (\`pds projects ls\` lists the ${projects.length})\n`,
    });
    expect(emulator.requests.map((r) => [r.method, r.path, r.headers.authorization, r.status])).toEqual([
      ['GET', '/v1/projects', 'Bearer demo-org-token', 200],
    ]);
    // PDS_API_URL of the shell is not saved: only an explicit --api-url is.
    expect(profiles()).toEqual({ default: { token: 'demo-org-token' } });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('reads a piped stdin without --with-token', async () => {
    const result = await pds(['auth', 'login'], { stdin: 'demo-org-token' });
    expect(result.code).toBe(0);
    expect(profiles()).toEqual({ default: { token: 'demo-org-token' } });
  });

  it('takes --token with a warning, saves --api-url, and honours --profile', async () => {
    const result = await runCli(
      null,
      ['auth', 'login', '--token', 'demo-project-token', '--api-url', `${emulator.url}/`, '--profile', 'work'],
      { token: null, project: null, env: { PDS_CONFIG_DIR: dir } },
    );
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'warning: a token on the command line stays in the shell history; prefer --with-token\n' +
        noKeychain() +
        `Logged in to ${emulator.url} as project ${nameOf(DEMO_PROJECT)} (${DEMO_PROJECT}) (profile work)\n` +
        `Using project ${nameOf(DEMO_PROJECT)} (${DEMO_PROJECT}), the only one this token reaches\n`,
    });
    expect(profiles()).toEqual({
      work: { token: 'demo-project-token', 'api-url': emulator.url, project: DEMO_PROJECT },
    });

    // The saved profile is enough on its own: no PDS_API_URL, no PDS_TOKEN.
    const status = await runCli(null, ['auth', 'status', '--profile', 'work'], {
      token: null,
      project: null,
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(status).toEqual({
      code: 0,
      stdout:
        'profile\twork\n' +
        `api_url\t${emulator.url}, from profile work\n` +
        'credential\tAPI token\n' +
        'token\tdemo…, from profile work\n' +
        `stored_in\t${configFile()}\n` +
        `scope\tproject ${nameOf(DEMO_PROJECT)} (${DEMO_PROJECT})\n` +
        `default_project\t${nameOf(DEMO_PROJECT)} (${DEMO_PROJECT}), from profile work\n`,
      stderr: '',
    });
  });

  it('uses PDS_PROFILE when there is no --profile', async () => {
    const result = await pds(['auth', 'login', '--with-token'], {
      stdin: 'demo-org-token',
      env: { PDS_PROFILE: 'ci' },
    });
    expect(
      result.stderr.startsWith(
        `${noKeychain()}Logged in to ${emulator.url} as organization (${projects.length} projects) (profile ci)\n`,
      ),
      result.stderr,
    ).toBe(true);
    expect(profiles()).toEqual({ ci: { token: 'demo-org-token' } });
  });

  it('keeps the other keys of the profile', async () => {
    expect((await pds(['config', 'set', 'project', DEMO_PROJECT])).code).toBe(0);
    expect((await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' })).code).toBe(0);
    expect(profiles()).toEqual({ default: { project: DEMO_PROJECT, token: 'demo-org-token' } });
  });

  it('rejects a token the service refuses: exit 3, nothing saved, no retry of the 401', async () => {
    const result = await pds(['auth', 'login', '--with-token'], { stdin: 'not-a-real-token\n' });
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr: `error: ${emulator.url} rejected the token: invalid or expired token\n  nothing was saved; check the token and try again\n`,
    });
    expect(emulator.requests.map((r) => [r.path, r.status])).toEqual([['/v1/projects', 401]]);
    expect(existsSync(configFile())).toBe(false);
  });

  it('keeps the old token when a new one is rejected', async () => {
    await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' });
    const result = await pds(['auth', 'login', '--token', 'wrong'], {});
    expect(result.code).toBe(3);
    expect(profiles()).toEqual({ default: { token: 'demo-org-token' } });
  });

  it('prints the rejection as JSON with --json', async () => {
    const result = await pds(['auth', 'login', '--with-token', '--json'], { stdin: 'nope' });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        status: 401,
        message: `${emulator.url} rejected the token: invalid or expired token`,
        details: ['nothing was saved; check the token and try again'],
      },
    });
  });

  it('exits 2 with a hint when no token is given and stdin is a terminal; no request', async () => {
    const hint =
      '  pipe a token in: `pds auth login --with-token < token.txt`, or sign in with a browser: `pds auth login --web`\n';
    // stdin is a terminal but stderr is not: pds never prompts where no one can see the question.
    expect(await pds(['auth', 'login'], { stdinTTY: true })).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: no token given, and no terminal to ask on\n${hint}`,
    });
    expect(await pds(['auth', 'login'], { stdin: '' })).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: no token on stdin\n${hint}`,
    });
    expect(await pds(['auth', 'login', '--with-token'], { stdinTTY: true })).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: --with-token reads the token from stdin, which is a terminal\n${hint}`,
    });
    expect(await pds(['auth', 'login', '--with-token'], { stdin: ' \n' })).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: no token on stdin\n${hint}`,
    });
    expect(await pds(['auth', 'login', '--with-token'], { stdin: 'two\nlines' })).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the token contains whitespace\n${hint}`,
    });
    expect((await pds(['auth', 'login', '--with-token', '--token', 'x'], { stdin: 'y' })).code).toBe(2);
    expect(emulator.requests).toEqual([]);
    expect(existsSync(configFile())).toBe(false);
  });

  it('exits 1 with "cannot reach" when the service is down; nothing saved', async () => {
    const result = await runCli(null, ['auth', 'login', '--with-token', '--api-url', 'http://127.0.0.1:9'], {
      token: null,
      project: null,
      stdin: 'demo-org-token',
      maxRetries: 0,
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(existsSync(configFile())).toBe(false);
  });
});

describe('pds auth status', () => {
  it('prints base URL, masked token and its source, scope and default project (pipe)', async () => {
    const result = await runCli(emulator, ['auth', 'status'], { env: { PDS_CONFIG_DIR: dir } });
    expect(result).toEqual({
      code: 0,
      stdout:
        'profile\tdefault\n' +
        `api_url\t${emulator.url}, from PDS_API_URL\n` +
        'credential\tAPI token\n' +
        'token\tdemo…, from PDS_TOKEN\n' +
        `scope\torganization (${projects.length} projects)\n` +
        `default_project\t${nameOf(DEMO_PROJECT)} (${DEMO_PROJECT}), from PDS_PROJECT\n`,
      stderr: '',
    });
    expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/projects']);
  });

  it('aligns the fields on a TTY', async () => {
    await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' });
    await pds(['use', nameOf(SECOND_PROJECT_ID)], {});
    const result = await pds(['auth', 'status'], { tty: true, env: NO_COLOR });
    expect(result).toEqual({
      code: 0,
      stdout:
        'profile          default\n' +
        `api_url          ${emulator.url}, from PDS_API_URL\n` +
        'credential       API token\n' +
        'token            demo…, from profile default\n' +
        `stored_in        ${configFile()}\n` +
        `scope            organization (${projects.length} projects)\n` +
        `default_project  ${nameOf(SECOND_PROJECT_ID)} (${SECOND_PROJECT_ID}), from profile default\n`,
      stderr: '',
    });
  });

  it('prints an object with --json', async () => {
    const result = await runCli(emulator, ['auth', 'status', '--json'], {
      token: 'demo-project-token',
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      profile: 'default',
      api_url: emulator.url,
      api_url_source: 'env',
      credential: 'token',
      issuer: null,
      expires_at: null,
      token: 'demo…',
      token_source: 'env',
      stored_in: null,
      reachable: true,
      scope: { type: 'project', id: DEMO_PROJECT, name: nameOf(DEMO_PROJECT) },
      default_project: { id: DEMO_PROJECT, name: nameOf(DEMO_PROJECT), source: 'env' },
    });
    expect(result.stderr).toBe('');
  });

  it('--fields and every --format show the same keys', async () => {
    const fields = await runCli(emulator, ['auth', 'status', '--json', '--fields', 'profile,api_url'], {
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(fields).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ profile: 'default', api_url: emulator.url }, null, 2)}\n`,
      stderr: '',
    });
    const csv = await runCli(emulator, ['auth', 'status', '--format', 'csv', '--fields', 'profile,api_url,reachable'], {
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(csv.stdout).toBe(`profile,api_url,reachable\r\ndefault,${emulator.url},true\r\n`);
    const yaml = await runCli(emulator, ['auth', 'status', '--format', 'yaml', '--fields', 'api_url,token_source'], {
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(yaml.stdout).toBe(`api_url: ${emulator.url}\ntoken_source: env\n`);
    const text = await runCli(emulator, ['auth', 'status', '--fields', 'api_url'], { env: { PDS_CONFIG_DIR: dir } });
    expect(text.stdout).toBe(`api_url\t${emulator.url}, from PDS_API_URL\n`);
    const bad = await runCli(emulator, ['auth', 'status', '--fields', 'api-url'], { env: { PDS_CONFIG_DIR: dir } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("error: unknown field 'api-url' for auth status\n");
  });

  it("says when the default project is out of the token's reach", async () => {
    const second = SECOND_PROJECT_ID;
    const result = await runCli(emulator, ['auth', 'status', '--json'], {
      token: 'demo-project-token',
      project: second,
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(JSON.parse(result.stdout)).toMatchObject({ default_project: { id: second, name: null, source: 'env' } });
    const text = await runCli(emulator, ['auth', 'status'], {
      token: 'demo-project-token',
      project: second,
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(text.stdout).toContain(`default_project\t${second} (not reachable with this token), from PDS_PROJECT\n`);
  });

  it('never prints the whole token', async () => {
    for (const args of [
      ['auth', 'status'],
      ['auth', 'status', '--json'],
      ['auth', 'status', '--verbose'],
    ]) {
      const result = await runCli(emulator, args, { env: { PDS_CONFIG_DIR: dir } });
      expect(result.code).toBe(0);
      expect(result.stdout + result.stderr).not.toContain('demo-org-token');
    }
  });

  it('answers with its exit code alone under -q', async () => {
    expect(await runCli(emulator, ['auth', 'status', '-q'], { env: { PDS_CONFIG_DIR: dir } })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect((await pds(['auth', 'status', '-q'])).code).toBe(3);
  });

  it('exits 3 when not logged in, with no request', async () => {
    const result = await pds(['auth', 'status']);
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr: `error: not logged in (profile default)\n  ${HINT}\n`,
    });
    expect(emulator.requests).toEqual([]);
  });

  it('shows what is stored and says the service did not answer when it cannot be reached (exit 1)', async () => {
    await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' });
    await pds(['config', 'set', 'project', DEMO_PROJECT]);
    const down = 'http://127.0.0.1:9';
    const result = await runCli(down, ['auth', 'status'], {
      token: null,
      project: null,
      maxRetries: 0,
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(result).toEqual({
      code: 1,
      stdout:
        'profile\tdefault\n' +
        `api_url\t${down}, from PDS_API_URL\n` +
        'credential\tAPI token\n' +
        'token\tdemo…, from profile default\n' +
        `stored_in\t${configFile()}\n` +
        'scope\tnot known (the service did not answer)\n' +
        `default_project\t${DEMO_PROJECT} (reach not known: the service did not answer), from profile default\n`,
      stderr: `warning: the service did not answer (cannot reach ${down} (ECONNREFUSED)); showing what is stored\n`,
    });
    const quiet = await runCli(down, ['auth', 'status', '-q'], {
      token: null,
      project: null,
      maxRetries: 0,
      env: { PDS_CONFIG_DIR: dir },
    });
    expect(quiet).toEqual({ code: 1, stdout: '', stderr: '' });
  });

  it('exits 3 when the service rejects the token', async () => {
    const result = await runCli(emulator, ['auth', 'status'], { token: 'revoked', env: { PDS_CONFIG_DIR: dir } });
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `error: ${emulator.url} rejected the token: invalid or expired token\n` +
        '  the token in use is PDS_TOKEN\n' +
        '  set PDS_TOKEN to a valid API token, or unset it and sign in: `pds auth login`\n',
    });
  });
});

describe('pds auth token', () => {
  it('prints the stored token on stdout', async () => {
    await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' });
    expect(await pds(['auth', 'token'])).toEqual({ code: 0, stdout: 'demo-org-token\n', stderr: '' });
    expect(emulator.requests.length).toBe(1);
  });

  it('prints the token in use: PDS_TOKEN over the profile', async () => {
    await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' });
    expect(await pds(['auth', 'token'], { env: { PDS_TOKEN: 'from-env' } })).toEqual({
      code: 0,
      stdout: 'from-env\n',
      stderr: '',
    });
  });

  it('exits 3 with no token', async () => {
    expect(await pds(['auth', 'token'])).toEqual({
      code: 3,
      stdout: '',
      stderr: `error: no token (profile default)\n  ${HINT}\n`,
    });
  });
});

describe('pds auth logout', () => {
  it('forgets the token and keeps the other keys', async () => {
    await pds(['auth', 'login', '--with-token', '--api-url', emulator.url], { stdin: 'demo-org-token' });
    await pds(['config', 'set', 'project', DEMO_PROJECT]);
    expect(profiles()).toEqual({
      default: { token: 'demo-org-token', 'api-url': emulator.url, project: DEMO_PROJECT },
    });

    expect(await pds(['auth', 'logout'])).toEqual({
      code: 0,
      stdout: '',
      stderr: `Logged out of ${emulator.url} (profile default)\n`,
    });
    expect(profiles()).toEqual({ default: { 'api-url': emulator.url, project: DEMO_PROJECT } });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect((await pds(['auth', 'status'])).code).toBe(3);
    expect((await pds(['projects', 'ls'])).code).toBe(3);
  });

  it('is not an error twice, and warns when PDS_TOKEN still applies', async () => {
    expect(await pds(['auth', 'logout'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'profile default has no stored token\n',
    });
    expect(await pds(['auth', 'logout'], { env: { PDS_TOKEN: 'x' } })).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'profile default has no stored token\nwarning: PDS_TOKEN is still set in this environment, and pds keeps using it\n',
    });
  });

  it('touches only its own profile', async () => {
    await pds(['auth', 'login', '--with-token'], { stdin: 'demo-org-token' });
    await pds(['auth', 'login', '--with-token', '--profile', 'other'], { stdin: 'demo-project-token' });
    await pds(['auth', 'logout', '--profile', 'other']);
    expect(profiles()).toEqual({ default: { token: 'demo-org-token' }, other: { project: DEMO_PROJECT } });
  });
});

import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkApiUrl, maskToken, resolveSettings } from '../../src/lib/config/settings.js';
import { configDir, configPath, readConfig } from '../../src/lib/config/file.js';
import { readProfile, updateProfile } from '../../src/lib/config/profiles.js';
import { UsageError } from '../../src/lib/errors.js';
import { freshConfigDir } from '../helpers/cli.js';

let env: NodeJS.ProcessEnv;
beforeEach(() => {
  env = { PDS_CONFIG_DIR: freshConfigDir() };
});

const write = (profiles: Record<string, Record<string, string>>) =>
  writeFileSync(configPath(env), JSON.stringify({ profiles }));

describe('where the config lives', () => {
  it('PDS_CONFIG_DIR, else XDG_CONFIG_HOME/pds, else ~/.config/pds', () => {
    expect(configDir({ PDS_CONFIG_DIR: '/x', XDG_CONFIG_HOME: '/y' })).toBe('/x');
    expect(configDir({ XDG_CONFIG_HOME: '/y' })).toBe(join('/y', 'pds'));
    expect(configDir({})).toBe(join(homedir(), '.config', 'pds'));
    expect(configPath({ PDS_CONFIG_DIR: '/x' })).toBe(join('/x', 'config.json'));
  });
});

describe('resolveSettings: flag > env > profile > default', () => {
  it('uses the defaults with nothing set', () => {
    const settings = resolveSettings({}, env);
    expect(settings).toEqual({
      profile: 'default',
      apiUrl: 'http://127.0.0.1:4010',
      apiUrlSource: 'default',
      timeoutMs: 30_000,
      retryBudgetMs: 60_000,
      allowHttp: false,
      json: false,
      csvBom: false,
      csvRaw: false,
      quiet: false,
      verbose: false,
      noColor: false,
      dryRun: false,
    });
  });

  it('takes --format over --json/--jq over PDS_FORMAT, and names where a bad one came from', () => {
    expect(resolveSettings({ format: 'csv' }, { ...env, PDS_FORMAT: 'yaml' }).format).toBe('csv');
    expect(resolveSettings({ json: true }, { ...env, PDS_FORMAT: 'yaml' })).toMatchObject({
      format: 'json',
      json: true,
    });
    expect(resolveSettings({ jq: '.' }, env)).toMatchObject({ format: 'json', json: true });
    expect(resolveSettings({ jq: '.', format: 'csv' }, env)).toMatchObject({ format: 'csv', json: false });
    expect(resolveSettings({}, { ...env, PDS_FORMAT: 'NDJSON' }).format).toBe('ndjson');
    expect(() => resolveSettings({ format: 'xml' }, env)).toThrow(
      "invalid --format 'xml': expected one of table, tsv, csv, json, ndjson, yaml",
    );
    expect(() => resolveSettings({}, { ...env, PDS_FORMAT: 'excel' })).toThrow("invalid PDS_FORMAT 'excel'");
    expect(() => resolveSettings({ json: true, format: 'yaml' }, env)).toThrow(
      '--json and --format yaml contradict each other',
    );
  });

  it('takes each value from the highest source that has it', () => {
    write({
      default: { 'api-url': 'https://profile.example.com', project: 'p-profile', token: 't-profile', timeout: '12' },
    });
    const fromProfile = resolveSettings({}, env);
    expect(fromProfile).toMatchObject({
      apiUrl: 'https://profile.example.com',
      apiUrlSource: 'profile',
      project: 'p-profile',
      projectSource: 'profile',
      token: 't-profile',
      tokenSource: 'profile',
      timeoutMs: 12_000,
    });

    const withEnv = { ...env, PDS_API_URL: 'https://env.example.com/', PDS_PROJECT: 'p-env', PDS_TOKEN: 't-env' };
    expect(resolveSettings({}, withEnv)).toMatchObject({
      apiUrl: 'https://env.example.com',
      apiUrlSource: 'env',
      project: 'p-env',
      projectSource: 'env',
      token: 't-env',
      tokenSource: 'env',
    });

    expect(
      resolveSettings({ apiUrl: 'https://flag.example.com', project: 'p-flag', timeout: '0.5' }, withEnv),
    ).toMatchObject({
      apiUrl: 'https://flag.example.com',
      apiUrlSource: 'flag',
      project: 'p-flag',
      projectSource: 'flag',
      token: 't-env',
      timeoutMs: 500,
    });
  });

  it('an empty environment variable does not count', () => {
    write({ default: { project: 'p-profile' } });
    expect(resolveSettings({}, { ...env, PDS_PROJECT: '' }).project).toBe('p-profile');
  });

  it('reads the profile named by --profile, else PDS_PROFILE, else default', () => {
    write({ default: { project: 'd' }, work: { project: 'w' }, ci: { project: 'c' } });
    expect(resolveSettings({}, env)).toMatchObject({ profile: 'default', project: 'd' });
    expect(resolveSettings({}, { ...env, PDS_PROFILE: 'ci' })).toMatchObject({ profile: 'ci', project: 'c' });
    expect(resolveSettings({ profile: 'work' }, { ...env, PDS_PROFILE: 'ci' })).toMatchObject({
      profile: 'work',
      project: 'w',
    });
    expect(resolveSettings({ profile: 'none' }, env).project).toBeUndefined();
  });

  it('maps the output flags', () => {
    expect(resolveSettings({ json: true, quiet: true, verbose: true, color: false, dryRun: true }, env)).toMatchObject({
      json: true,
      quiet: true,
      verbose: true,
      noColor: true,
      dryRun: true,
    });
  });

  it('rejects a bad timeout or API URL from any source', () => {
    expect(() => resolveSettings({ timeout: '0' }, env)).toThrow(UsageError);
    expect(() => resolveSettings({ timeout: 'x' }, env)).toThrow("invalid --timeout 'x'");
    expect(() => resolveSettings({}, { ...env, PDS_API_URL: 'https://x.example.com/v1/' })).toThrow('without /v1');
    write({ default: { timeout: '-1' } });
    expect(() => resolveSettings({}, env)).toThrow("invalid timeout of profile default '-1'");
  });

  it('keeps --timeout within 0.1 to 3600 seconds', () => {
    expect(() => resolveSettings({ timeout: '0.0001' }, env)).toThrow(
      "invalid --timeout '0.0001': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)",
    );
    expect(() => resolveSettings({ timeout: '5000000' }, env)).toThrow("invalid --timeout '5000000'");
    expect(resolveSettings({ timeout: '3600' }, env).timeoutMs).toBe(3_600_000);
  });

  it('reads the retry budget and allow-http from flag > environment > profile', () => {
    write({ default: { 'retry-budget': '20', 'allow-http': 'true' } });
    expect(resolveSettings({}, env)).toMatchObject({ retryBudgetMs: 20_000, allowHttp: true });
    expect(resolveSettings({}, { ...env, PDS_RETRY_BUDGET: '0', PDS_ALLOW_HTTP: '0' })).toMatchObject({
      retryBudgetMs: 0,
      allowHttp: false,
    });
    expect(resolveSettings({ retryBudget: '5', allowHttp: true }, { ...env, PDS_RETRY_BUDGET: '0' })).toMatchObject({
      retryBudgetMs: 5000,
      allowHttp: true,
    });
    expect(() => resolveSettings({ retryBudget: '-1' }, env)).toThrow(
      "invalid --retry-budget '-1': expected seconds from 0 (no retries) to 3600 (90, 90s, 5m, 1h or 1m30s)",
    );
    expect(() => resolveSettings({}, { ...env, PDS_RETRY_BUDGET: 'soon' })).toThrow("invalid PDS_RETRY_BUDGET 'soon'");
    expect(() => resolveSettings({}, { ...env, PDS_ALLOW_HTTP: 'maybe' })).toThrow("invalid PDS_ALLOW_HTTP 'maybe'");
  });
});

describe('checkApiUrl', () => {
  it('accepts http and https base URLs, rejects the rest', () => {
    expect(() => checkApiUrl('https://api.example.com')).not.toThrow();
    expect(() => checkApiUrl('http://127.0.0.1:4010/prefix')).not.toThrow();
    expect(() => checkApiUrl('api.example.com')).toThrow(UsageError);
    expect(() => checkApiUrl('file:///etc/passwd')).toThrow('only http and https');
    expect(() => checkApiUrl('https://api.example.com/v1')).toThrow('without /v1');
  });
});

describe('the file', () => {
  it('reads as empty when missing, and rejects invalid JSON or shape with exit 2', () => {
    expect(readConfig(env)).toEqual({ profiles: {} });
    expect(readProfile(env, 'default')).toEqual({});
    writeFileSync(configPath(env), 'nope');
    expect(() => readConfig(env)).toThrow(UsageError);
    writeFileSync(configPath(env), JSON.stringify({ profiles: { default: { token: 42 } } }));
    expect(() => readConfig(env)).toThrow('unexpected shape');
  });

  it('keeps unknown keys (a newer pds may have written them)', () => {
    writeFileSync(configPath(env), JSON.stringify({ profiles: { default: { token: 't', color: 'never' } }, extra: 1 }));
    expect(readProfile(env, 'default')).toEqual({ token: 't', color: 'never' });
  });

  it('updateProfile changes one profile, drops undefined keys, and writes mode 0600', async () => {
    write({ other: { token: 'o' } });
    chmodSync(configPath(env), 0o644);
    const next = await updateProfile(env, 'default', (p) => ({ ...p, token: 't', project: undefined }));
    expect(next).toEqual({ token: 't' });
    expect((JSON.parse(readFileSync(configPath(env), 'utf8')) as { profiles: unknown }).profiles).toEqual({
      other: { token: 'o' },
      default: { token: 't' },
    });
    expect(statSync(configPath(env)).mode & 0o777).toBe(0o600);
  });

  it('creates the file (and its directory) with mode 0600', async () => {
    const nested = { PDS_CONFIG_DIR: join(freshConfigDir(), 'a', 'b') };
    await updateProfile(nested, 'default', () => ({ project: 'p' }));
    expect(statSync(configPath(nested)).mode & 0o777).toBe(0o600);
    expect(readProfile(nested, 'default')).toEqual({ project: 'p' });
  });
});

describe('maskToken', () => {
  it('shows the first 4 characters of a long token and nothing of a short one', () => {
    expect(maskToken('demo-org-token')).toBe('demo…');
    expect(maskToken('abcdefghi')).toBe('abcd…');
    expect(maskToken('abcdefgh')).toBe('…');
    expect(maskToken('abc')).toBe('…');
  });
});

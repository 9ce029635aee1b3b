// Issue 31, through the built bin/pds.js: output a CI runner cannot be tricked by (file names that
// look like GitHub workflow commands, reports written through a planted symbolic link), and local
// trust (a config.json that is a FIFO or far too large, arguments that would be dropped).
import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator();

describe('arguments are never dropped in silence', () => {
  it('`auth login <token>`: exit 2 pointing to --with-token and --token; the token is not echoed, stdin not read, nothing saved', async () => {
    const dir = freshConfigDir();
    const result = await runPds(['auth', 'login', 'tok-secret-123'], { env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url }, stdin: 'piped-token\n' });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: `pds auth login` takes no arguments (1 given, not shown)\n' +
        '  to sign in with a token: `pds auth login --with-token < token.txt` (read from stdin), or `pds auth login --token <token>` (shells keep it in their history)\n' +
        '  see `pds auth login --help`\n',
    });
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' })).toBe('');
    expect(emulator.requests).toEqual([]);
  });

  it.each([
    [['projects', 'get', 'a', 'b', 'c'], "error: extra arguments 'b', 'c': `pds projects get` takes at most one argument ([project-id])\n  see `pds projects get --help`\n"],
    [['config', 'get', 'api-url', 'extra'], "error: extra argument 'extra': `pds config get` takes one argument (<key>)\n  see `pds config get --help`\n"],
    [['contracts', 'ls', '2'], "error: extra argument '2': `pds contracts ls` takes no arguments\n  see `pds contracts ls --help`\n"],
    [['mcp', 'bogus'], "error: unknown command 'bogus' for 'pds mcp'\n  commands of mcp: config, tools\n"],
  ])('%j: exit 2 naming the extra ones, nothing sent', async (args, stderr) => {
    const result = await runPds(args, { env: signedInEnv(emulator.url) });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr });
    expect(emulator.requests).toEqual([]);
  });
});

describe('a config file that is not a regular file, or far too large, is refused at once', () => {
  it('a FIFO: exit 2 within a second, naming it and the way out (it used to hang every command)', async () => {
    const dir = freshConfigDir();
    const path = join(dir, 'config.json');
    execFileSync('mkfifo', ['-m', '600', path]);
    const result = await runPds(['projects', 'ls'], { env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir, PDS_TOKEN: undefined }), killAfterMs: 5000 });
    expect(result).toMatchObject({
      code: 2,
      signal: null,
      stdout: '',
      stderr: `error: the config file ${path} is a FIFO (named pipe), not a regular file\n  move it away: \`mv '${path}' '${path}.old'\`, then \`pds auth login\`\n`,
    });
    expect(result.ms).toBeLessThan(3000);
    expect(emulator.requests).toEqual([]);
  });

  it('a 600 MB file: refused by its size without reading it, and never told to chmod', async () => {
    const dir = freshConfigDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '', { mode: 0o600 });
    truncateSync(path, 600 * 1024 * 1024);
    const result = await runPds(['config', 'list'], { env: { PDS_CONFIG_DIR: dir }, killAfterMs: 5000 });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: the config file ${path} is 600.0 MiB, far more than a config file holds (pds reads at most 1.0 MiB)\n  move it away: \`mv '${path}' '${path}.old'\`, then \`pds auth login\`\n`,
    });
  });

  it('a directory in its place says so, as before', async () => {
    const dir = freshConfigDir();
    mkdirSync(join(dir, 'config.json'));
    const result = await runPds(['config', 'list'], { env: { PDS_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the config file .*config\.json is a directory, not a file\n {2}move it away/);
  });
});

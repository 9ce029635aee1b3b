// Issue 31, through the built bin/pds.js: output a CI runner cannot be tricked by (file names that
// look like GitHub workflow commands, reports written through a planted symbolic link), and local
// trust (a config.json that is a FIFO or far too large, arguments that would be dropped).
import { execFile, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { PDS_BIN, childEnv, runPds, signedInEnv } from '../helpers/process.js';
import { obeyed, unfenced } from '../helpers/workflow-commands.js';

const emulator = sharedEmulator({ flavor: 'current' });

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built pds in `cwd`, over pipes (as a runner starts a step's program). */
function runIn(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PDS_BIN, ...args],
      { cwd, env: childEnv(env), timeout: 20_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** A directory of statements whose names are workflow commands, and one empty file (refused by pds, annotated). */
function hostileNames(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'pds-ci-names-')));
  const names = ['::error::y.csv', '::stop-commands::x.csv', '  ::warning::w.csv', 'a##[error]b.csv'];
  names.forEach((name, i) => {
    writeFileSync(join(dir, name), `period,amount\n2026Q1,${i + 1}\n`);
  });
  writeFileSync(join(dir, '::notice::empty.csv'), '');
  return dir;
}

const OWN_ANNOTATION = '::error file=%3A%3Anotice%3A%3Aempty.csv,title=pds upload::the file is empty';
/** The command's own annotation after a batch whose files failed: one, pointing to them. */
const commandAnnotation = (code: number) =>
  `::error title=pds upload statement failed (exit ${code})::in CI: the annotations name the files that failed: fix them (or the inputs) and re-run the job${code === 1 ? '; if all failed alike, check the `api-url` input (PDS_API_URL) and that the service is up; a re-run may pass' : ''}`;
const CI = { GITHUB_ACTIONS: 'true', CI: 'true' };

describe('under GITHUB_ACTIONS, no line pds prints for people is a workflow command but its own annotations', () => {
  it('upload: the result rows (TSV on stdout) are data, as they are; the progress lines (stderr) are guarded', async () => {
    const dir = hostileNames();
    const result = await runIn(
      dir,
      ['upload', 'statement', '.'],
      signedInEnv(emulator.url, { ...CI, GITHUB_WORKSPACE: dir }),
    );
    expect(result.code, result.stderr).toBe(1);
    // The data is all there, each line as it was: no fence, no annotation in it (a script reads it
    // as it would without GITHUB_ACTIONS; the docs say to write it to a file, not to the log).
    const rows = result.stdout.split('\n');
    expect(rows[0]).toBe('FILE\tSTAGING_ID\tSTAGE');
    expect(rows.slice(1, 5).map((row) => row.split('\t')[0])).toEqual([
      '  ::warning::w.csv',
      '::error::y.csv',
      '::stop-commands::x.csv',
      'a##[error]b.csv',
    ]);
    expect(rows.slice(5)).toEqual(['']);
    // pds's own annotations went to stderr, where every other line is guarded.
    expect(obeyed(result.stderr)).toEqual([OWN_ANNOTATION, commandAnnotation(1)]);
    // A person reading stderr sees each name, what made it a command shown as an escape.
    expect(result.stderr).toContain('uploaded a##\\x5berror]b.csv');
    const uploaded = emulator.state.uploads.slice(-4).map((upload) => upload.file_name);
    expect(uploaded.sort()).toEqual([
      '  ::warning::w.csv',
      '::error::y.csv',
      '::stop-commands::x.csv',
      'a##[error]b.csv',
    ]);
  });

  it('upload --format table (what the action asks for, its log being for people): the view is fenced', async () => {
    const dir = hostileNames();
    const result = await runIn(
      dir,
      ['upload', 'statement', '.', '--format', 'table'],
      signedInEnv(emulator.url, { ...CI, GITHUB_WORKSPACE: dir }),
    );
    expect(result.code, result.stderr).toBe(1);
    expect(obeyed(result.stdout)).toEqual([OWN_ANNOTATION, commandAnnotation(1)]);
    expect(obeyed(result.stderr)).toEqual([]);
    const view = unfenced(result.stdout);
    for (const name of ['::warning::w.csv', '::error::y.csv', '::stop-commands::x.csv', 'a##[error]b.csv'])
      expect(view).toContain(name);
  });

  it('--dry-run -q (names on stdout, data) and --fail-fast (names in the error details on stderr)', async () => {
    const dir = hostileNames();
    const env = signedInEnv(emulator.url, { ...CI, GITHUB_WORKSPACE: dir });
    const plan = await runIn(dir, ['upload', 'statement', '.', '--dry-run', '-q'], env);
    expect(plan.stdout).toBe('  ::warning::w.csv\n::error::y.csv\n::stop-commands::x.csv\na##[error]b.csv\n');
    expect(obeyed(plan.stderr)).toEqual([OWN_ANNOTATION, commandAnnotation(1)]);

    const failFast = await runIn(dir, ['upload', 'statement', '.', '--fail-fast'], env);
    expect(failFast.code).toBe(2);
    expect(failFast.stdout).toBe('');
    // One annotation, the command's, whose message keeps the name inert on its one line.
    const annotation =
      "::error title=pds upload statement failed (exit 2)::1 of 5 files cannot be uploaded; nothing was sent (--fail-fast)%0A::notice::empty.csv: the file is empty%0Ain CI: fix the step's inputs (files, kind, project, args): the message says which";
    expect(obeyed(failFast.stderr)).toEqual([annotation]);
    expect(failFast.stderr).toBe(
      `error: 1 of 5 files cannot be uploaded; nothing was sent (--fail-fast)\n  \\x3a:notice::empty.csv: the file is empty\n${annotation}\n`,
    );
    expect(emulator.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("every verb: the sandbox's output is data, as it is; its stderr is guarded", async () => {
    const script = "printf '::error::from the service\\r::add-mask::x\\n  ::set-output name=a::b'";
    const args = ['sandbox', 'exec', script, "printf '::warning::on stderr\\n' >&2"];
    const result = await runIn(tmpdir(), args, signedInEnv(emulator.url, CI));
    expect(result.code, result.stderr).toBe(0);
    const plain = await runIn(tmpdir(), args, signedInEnv(emulator.url));
    expect(result.stdout).toBe(plain.stdout);
    expect(result.stdout).toContain('::error::from the service\r::add-mask::x\n  ::set-output name=a::b');
    expect(obeyed(result.stderr)).toEqual([]);
    expect(result.stderr).toBe('\\x3a:warning::on stderr\n');
  });

  it('without GITHUB_ACTIONS, or into a file (no runner reads it), the output is left as it is, annotations aside', async () => {
    const dir = hostileNames();
    const plain = await runIn(
      dir,
      ['upload', 'statement', '.', '--dry-run', '-q'],
      signedInEnv(emulator.url, { GITHUB_WORKSPACE: dir }),
    );
    expect(plain.stdout).toBe('  ::warning::w.csv\n::error::y.csv\n::stop-commands::x.csv\na##[error]b.csv\n');
    const file = join(realpathSync(mkdtempSync(join(tmpdir(), 'pds-ci-file-'))), 'plan.txt');
    const fd = openSync(file, 'w');
    const child = spawn(process.execPath, [PDS_BIN, 'upload', 'statement', '.', '--dry-run', '-q'], {
      cwd: dir,
      env: childEnv(signedInEnv(emulator.url, { ...CI, GITHUB_WORKSPACE: dir })),
      stdio: ['ignore', fd, 'ignore'],
    });
    await new Promise((resolve) => child.on('exit', resolve));
    closeSync(fd);
    // The file holds the output alone: pds's own annotations went to stderr, which the runner reads.
    expect(readFileSync(file, 'utf8')).toBe(
      '  ::warning::w.csv\n::error::y.csv\n::stop-commands::x.csv\na##[error]b.csv\n',
    );
  });
});

describe('--report is written through no symbolic link', () => {
  it('a link at the path: exit 2 before anything is sent, and the file it points to is unchanged', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'pds-ci-report-')));
    const outside = join(realpathSync(mkdtempSync(join(tmpdir(), 'pds-ci-outside-'))), 'authorized_keys');
    writeFileSync(outside, 'ssh-ed25519 AAAA the owner\n');
    writeFileSync(join(dir, 'ok.csv'), 'period,amount\n2026Q1,1\n');
    symlinkSync(outside, join(dir, 'pds.xml'));
    const result = await runIn(
      dir,
      ['upload', 'statement', 'ok.csv', '--report', 'junit=pds.xml'],
      signedInEnv(emulator.url, CI),
    );
    // stdout carries data (TSV): pds's own annotation goes to stderr, after its error.
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: refusing to write the report pds.xml: it is a symbolic link, and pds does not write through one\n  remove the link (`rm 'pds.xml'`), or name another file\n::error title=pds upload statement failed (exit 2)::refusing to write the report pds.xml: it is a symbolic link, and pds does not write through one%0Aremove the link (`rm 'pds.xml'`), or name another file%0Ain CI: fix the step's inputs (files, kind, project, args): the message says which\n",
    });
    expect(readFileSync(outside, 'utf8')).toBe('ssh-ed25519 AAAA the owner\n');
    expect(emulator.requests).toEqual([]);
  });

  it('a report replaces the file at its path (a rename): a hard link to another file keeps that file as it was', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'pds-ci-report-')));
    writeFileSync(join(dir, 'ok.csv'), 'period,amount\n2026Q1,2\n');
    const other = join(dir, 'other.txt');
    writeFileSync(other, 'keep me\n');
    execFileSync('ln', [other, join(dir, 'out.json')]);
    const result = await runIn(
      dir,
      ['upload', 'statement', 'ok.csv', '--report', 'json=out.json'],
      signedInEnv(emulator.url, CI),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'))).toMatchObject({
      uploaded: 1,
      skipped: 0,
      failed: 0,
    });
    expect(readFileSync(other, 'utf8')).toBe('keep me\n');
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' })).toBe('ok.csv\nother.txt\nout.json\n');
  });
});

describe('arguments are never dropped in silence', () => {
  it('`auth login <token>`: exit 2 pointing to --with-token and --token; the token is not echoed, stdin not read, nothing saved', async () => {
    const dir = freshConfigDir();
    const result = await runPds(['auth', 'login', 'tok-secret-123'], {
      env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url },
      stdin: 'piped-token\n',
    });
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
    [
      ['projects', 'get', 'a', 'b', 'c'],
      "error: extra arguments 'b', 'c': `pds projects get` takes at most one argument ([project-id])\n  see `pds projects get --help`\n",
    ],
    [
      ['config', 'get', 'api-url', 'extra'],
      "error: extra argument 'extra': `pds config get` takes one argument (<key>)\n  see `pds config get --help`\n",
    ],
    [
      ['contracts', 'ls', '2'],
      "error: extra argument '2': `pds contracts ls` takes no arguments\n  see `pds contracts ls --help`\n",
    ],
    [['mcp', 'bogus'], "error: unknown command 'bogus' for 'pds mcp'\n  commands of mcp: config, tools\n"],
  ])('%j: exit 2 naming the extra ones, nothing sent', async (args, stderr) => {
    const result = await runPds(args, { env: signedInEnv(emulator.url) });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr });
    expect(emulator.requests).toEqual([]);
  });
});

describe('a config file that is not a regular file, or far too large, is refused at once', () => {
  it('a FIFO: exit 2 without waiting on it, naming it and the way out (it used to hang every command)', async () => {
    const dir = freshConfigDir();
    const path = join(dir, 'config.json');
    execFileSync('mkfifo', ['-m', '600', path]);
    const result = await runPds(['projects', 'ls'], {
      env: signedInEnv(emulator.url, { PDS_CONFIG_DIR: dir, PDS_TOKEN: undefined }),
      killAfterMs: 30_000,
    });
    expect(result).toMatchObject({
      code: 2,
      signal: null,
      stdout: '',
      stderr: `error: the config file ${path} is a FIFO (named pipe), not a regular file\n  move it away: \`mv '${path}' '${path}.old'\`, then \`pds auth login\`\n`,
    });
    // It used to hang: ended by pds itself, long before the test's SIGKILL.
    expect(result.ms).toBeLessThan(20_000);
    expect(emulator.requests).toEqual([]);
  });

  it('a 600 MB file: refused by its size without reading it, and never told to chmod', async () => {
    const dir = freshConfigDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '', { mode: 0o600 });
    truncateSync(path, 600 * 1024 * 1024);
    const result = await runPds(['config', 'list'], { env: { PDS_CONFIG_DIR: dir }, killAfterMs: 30_000 });
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
    expect(result.stderr).toMatch(
      /^error: the config file .*config\.json is a directory, not a file\n {2}move it away/,
    );
  });
});

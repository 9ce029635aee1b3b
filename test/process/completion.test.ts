// The completion scripts in real bash, zsh and fish, each on a pseudo-terminal with a Tab key
// pressed; and the candidates `pds __complete` gives, against the emulator.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir, runCli } from '../helpers/cli.js';
import { findProgram, skipWhenMissing } from '../helpers/machine.js';
import { PDS_BIN, childEnv, signedInEnv } from '../helpers/process.js';

let emulator: Emulator;
let home: string;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current' });
  home = mkdtempSync(join(tmpdir(), 'pds-completion-'));
  // The scripts call `pds`: a wrapper on PATH runs the built one.
  mkdirSync(join(home, 'bin'));
  writeFileSync(join(home, 'bin', 'pds'), `#!/bin/sh\nexec "${process.execPath}" "${PDS_BIN}" "$@"\n`);
  chmodSync(join(home, 'bin', 'pds'), 0o755);
});
afterAll(() => emulator.close());

interface Shell {
  type(keys: string): void;
  /** Resolves when the rendered screen matches. */
  waitForScreen(pattern: RegExp): Promise<string>;
  close(): Promise<void>;
}

async function startShell(command: string, args: string[]): Promise<Shell> {
  const [{ spawn }, { Terminal }] = await Promise.all([import('@lydell/node-pty'), import('@xterm/headless')]);
  const env = childEnv({
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    PATH: `${join(home, 'bin')}:${process.env.PATH ?? ''}`,
    TERM: 'xterm-256color',
    HISTFILE: '/dev/null',
    ...signedInEnv(emulator.url),
  });
  const cols = 120;
  const rows = 30;
  const pty = spawn(command, args, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: home,
    env: env as Record<string, string>,
  });
  const terminal = new Terminal({ cols, rows, allowProposedApi: true });
  let pending: Promise<void> = Promise.resolve();
  pty.onData((data) => {
    pending = pending.then(() => new Promise<void>((resolve) => terminal.write(data, resolve)));
  });
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
  const screen = async () => {
    await pending;
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  return {
    type: (keys) => pty.write(keys),
    async waitForScreen(pattern) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const text = await screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`the screen never matched ${pattern}:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      pty.kill('SIGKILL');
      await exited;
    },
  };
}

const SHELLS: { name: string; command: string; args: string[]; setup: string; ambiguousTab: string }[] = [
  {
    name: 'bash',
    command: 'bash',
    args: ['--norc', '--noprofile', '-i'],
    setup: "PS1='ready> '; source <(pds completion bash)",
    ambiguousTab: '\t\t',
  },
  {
    name: 'zsh',
    command: 'zsh',
    args: ['-f', '-i'],
    setup: "PS1='ready> '; autoload -U compinit && compinit -u && source <(pds completion zsh)",
    ambiguousTab: '\t',
  },
  {
    name: 'fish',
    command: 'fish',
    args: ['--no-config', '-i'],
    setup: "function fish_prompt; echo -n 'ready> '; end; pds completion fish | source",
    ambiguousTab: '\t',
  },
];

describe.each(SHELLS)('completion in $name', ({ command, args, setup, ambiguousTab }) => {
  skipWhenMissing(
    `completion in ${command}`,
    findProgram(command) ? undefined : `${command} is not installed (not on PATH)`,
  );
  it('completes commands, flags, include names and project names', async () => {
    const shell = await startShell(command, args);
    try {
      shell.type(`${setup}\r`);
      shell.type('clear\r');
      await shell.waitForScreen(/^ready> $/m);
      // `con` is the start of contracts and config: both are offered.
      shell.type(`pds con${ambiguousTab}`);
      const offered = await shell.waitForScreen(/contracts/);
      expect(offered).toMatch(/config/);
      // Ctrl-C drops the line; the next one starts at a fresh prompt.
      shell.type('\x03');
      await shell.waitForScreen(/^ready> $/m);
      shell.type('pds contra\t');
      await shell.waitForScreen(/ready> pds contracts $/m);
      shell.type('ls --inc\t');
      await shell.waitForScreen(/ready> pds contracts ls --include $/m);
      shell.type('roya\t');
      await shell.waitForScreen(/ready> pds contracts ls --include royalties/m);
      // A list continues after its comma, unquoted.
      shell.type('\x7f,sp\t'); // the space after the completed word goes first
      await shell.waitForScreen(/ready> pds contracts ls --include royalties,splits/m);
      shell.type('\x03');
      await shell.waitForScreen(/^ready> $/m);
      // The value of --flag=value (bash splits the word at '=').
      shell.type('pds contracts ls --include=roy\t');
      await shell.waitForScreen(/ready> pds contracts ls --include=royalties/m);
      shell.type('\x7f,sp\t'); // the space after the completed word goes first
      await shell.waitForScreen(/ready> pds contracts ls --include=royalties,splits/m);
      shell.type('\x03');
      await shell.waitForScreen(/^ready> $/m);
      // Words after a URL (which bash also splits, at ':') are still seen in their places.
      shell.type(`pds --api-url ${emulator.url} contra\t`);
      await shell.waitForScreen(/ready> pds --api-url \S+ contracts $/m);
      // A project name from the service, quoted for the shell.
      shell.type('\x03');
      await shell.waitForScreen(/^ready> $/m);
      shell.type('pds use Nor\t');
      await shell.waitForScreen(/ready> pds use Northern\\ Lights\\ Catalog/m);
    } finally {
      await shell.close();
    }
  });
});

describe('pds __complete', () => {
  const complete = (words: string[], options: Parameters<typeof runCli>[2] = {}) =>
    runCli(emulator, ['__complete', '--', ...words], options);

  it('offers subcommands, flags (global ones too) and known values', async () => {
    expect((await complete(['con'])).stdout).toBe('contracts\nconfig\n');
    expect((await complete(['contracts', 'ls', '--p'])).stdout).toBe('--page\n--per-page\n--project\n--profile\n');
    expect((await complete(['contracts', 'get', '20001', '--include', 'royalties,s'])).stdout).toBe(
      'royalties,splits\nroyalties,signatures\n',
    );
    expect((await complete(['entities', 'ls', '--roles', ''])).stdout).toBe('assignee\nassignor\n');
    expect((await complete(['upload', 'contract', '--extract', 'roy'])).stdout).toBe('royalties\n');
    expect((await complete(['search', 'x', '--type', 'art'])).stdout).toBe('artist\n');
    expect((await complete(['artists', 'ls', '--fields', 'id,n'])).stdout).toBe('id,name\n');
    expect((await complete(['config', 'get', ''])).stdout).toBe(
      'api-url\nproject\ntimeout\nretry-budget\nallow-http\n',
    );
    expect((await complete(['help', 'contracts', ''])).stdout).toBe('ls\nget\nstatus\ndownload\nretry\ntag\n');
    expect((await complete(['api', 'art'])).stdout).toBe('artists?projectId={project}\n');
    expect((await complete(['completion', ''])).stdout).toBe('bash\nzsh\nfish\n');
  });

  it('offers the profiles of the config file', async () => {
    const dir = freshConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: {}, staging: {} } }));
    expect((await complete(['--profile', ''], { env: { PDS_CONFIG_DIR: dir } })).stdout).toBe('default\nstaging\n');
  });

  it('offers project names and ids from the service, cached for a minute', async () => {
    emulator.requests.length = 0;
    const dir = freshConfigDir();
    const env = { PDS_CONFIG_DIR: dir };
    const names = await complete(['use', ''], { env });
    expect(names.stdout).toBe(
      `${DEMO_PROJECT}\nNorthern Lights Catalog\n8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e\nHarbor Sessions\n`,
    );
    expect((await complete(['-p', '5f'], { env })).stdout).toBe(`${DEMO_PROJECT}\n`);
    expect(emulator.requests.filter((r) => r.path === '/v1/projects')).toHaveLength(1);
    const cache = JSON.parse(readFileSync(join(dir, 'completion-cache.json'), 'utf8')) as { projects: unknown[] };
    expect(cache.projects).toHaveLength(2);
    // Not the token itself: a digest of it.
    expect(readFileSync(join(dir, 'completion-cache.json'), 'utf8')).not.toContain('demo-org-token');

    // Another token may reach other projects: its list is asked for, not taken from the cache.
    const scoped = await complete(['use', ''], { env, token: 'demo-project-token' });
    expect(scoped.stdout).toBe(`${DEMO_PROJECT}\nNorthern Lights Catalog\n`);
    expect(emulator.requests.filter((r) => r.path === '/v1/projects')).toHaveLength(2);
  });

  it('is silent when the service cannot be reached or refuses the token', async () => {
    const down = await runCli('http://127.0.0.1:9', ['__complete', '--', 'use', '']);
    expect(down).toEqual({ code: 0, stdout: '', stderr: '' });
    const refused = await runCli(emulator, ['__complete', '--', 'use', ''], { token: 'wrong' });
    expect(refused).toEqual({ code: 0, stdout: '', stderr: '' });
    const none = await runCli(emulator, ['__complete', '--', 'use', ''], { token: null });
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('needs no profile: an unknown --profile or PDS_PROFILE does not stop the script or the candidates', async () => {
    const script = await runCli(null, ['--profile', 'nope', 'completion', 'bash']);
    expect(script.code).toBe(0);
    expect(script.stdout).toContain('complete -o bashdefault -o default -F _pds_complete pds');
    expect((await runCli(null, ['completion', 'zsh'], { env: { PDS_PROFILE: 'nope' } })).code).toBe(0);
    expect(await runCli(null, ['__complete', '--', 'con'], { env: { PDS_PROFILE: 'nope' } })).toEqual({
      code: 0,
      stdout: 'contracts\nconfig\n',
      stderr: '',
    });
  });

  it('`pds completion` of an unknown shell is exit 2', async () => {
    expect(await runCli(null, ['completion', 'tcsh'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: no completion for shell 'tcsh'\n  shells: bash, zsh, fish\n",
    });
  });
});

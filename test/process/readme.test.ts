// The README as a newcomer follows it: right after the Quick start, in a fresh shell whose PATH has
// only Node's directory and the system's, with a home of its own, its shell blocks run in order as
// one bash script, and every command must exit 0. A block that needs what a test cannot give (a
// browser, a real service) says so on the line before it, as `<!-- readme.test.ts: not run (why) -->`,
// and the reason is printed here. One change is made to the text: the emulator the README starts in
// the background listens on a free port (PDS_API_URL names it) rather than on 4010, which another
// emulator on this machine may hold.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { DEMO_PROJECT } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SAMPLE_PDF = join(ROOT, 'test', 'fixtures', 'sample.pdf');
const NOT_RUN = /^<!-- readme\.test\.ts: not run \((.+)\) -->$/;
const EMULATOR_LINE = 'pds emulator start --quiet &';

interface ShellBlock {
  /** The README's line number of the block's first command. */
  line: number;
  commands: string;
  /** Why the test does not run it, from the comment above it. */
  notRun?: string;
}

/** The README's ```sh blocks, in order, each with the reason it is not run, if it says one. */
function shellBlocks(text: string): ShellBlock[] {
  return [...text.matchAll(/```sh\n([^]*?)```/g)].map((match) => {
    const before = text.slice(0, match.index).trimEnd().split('\n');
    const reason = NOT_RUN.exec(before[before.length - 1] ?? '')?.[1];
    return { line: before.length + 2, commands: match[1] ?? '', ...(reason === undefined ? {} : { notRun: reason }) };
  });
}

/** A loopback port free at the time of asking. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A checkout as the Quick start leaves it (its bin/ and, through it, the built dist/), with the
 * files the README's commands name, as a newcomer would have their own.
 */
function checkout(dir: string): void {
  symlinkSync(join(ROOT, 'bin'), join(dir, 'bin'));
  for (const name of ['deal.pdf', 'statements/q1.pdf', 'statements/q2.pdf']) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    copyFileSync(SAMPLE_PDF, join(dir, name));
  }
  writeFileSync(join(dir, 'sales.csv'), 'isrc,units,amount\nUSRC17607839,120,3.60\n');
  writeFileSync(join(dir, 'q1.txt.gz'), gzipSync('isrc\tunits\nUSRC17607839\t120\n'));
  writeFileSync(
    join(dir, 'royalties.xlsx'),
    Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(512, 7)]),
  );
  writeFileSync(join(dir, 'commands.txt'), '# the workspace\nls\ncat stats.yaml\n');
}

const bash = spawnSync('bash', ['-c', 'exit 0']).status === 0;
if (!bash) process.stderr.write('readme.test.ts: bash is not installed: the README blocks are not run\n');

describe('the README', () => {
  it('is under 400 lines and shows every command family', () => {
    // 350 until the statements roll-ups, whose views at 80 columns the README shows; 380 until the
    // design card's example, a contract's royalties as a person sees them at 80 columns.
    expect(README.split('\n').length).toBeLessThan(400);
    const families = COMMANDS.filter((entry) => !('hidden' in entry && entry.hidden)).map((entry) => entry.name);
    expect(families).toEqual(expect.arrayContaining(['knowledge', 'tags', 'contracts', 'use']));
    const shown = (name: string) => new RegExp(`(^|[\\s(|])pds ${name}\\b`, 'm').test(README);
    expect(families.filter((name) => !shown(name))).toEqual([]);
  });

  it('marks the blocks it does not run, each with a reason, and runs the first one after the Quick start', () => {
    const blocks = shellBlocks(README);
    expect(blocks.length).toBeGreaterThan(8);
    expect(blocks[0]?.commands).toContain('npm install');
    expect(blocks[0]?.notRun).toBeDefined();
    expect(blocks[1]?.notRun).toBeUndefined();
    expect(blocks[1]?.commands).toContain(EMULATOR_LINE);
  });

  it.runIf(bash)(
    'runs its shell blocks in order, in a fresh shell with only Node and the system on PATH, and each command exits 0',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pds-readme-'));
      const home = join(dir, 'home');
      const work = join(dir, 'checkout');
      mkdirSync(home);
      mkdirSync(work);
      checkout(work);
      const port = await freePort();
      const blocks = shellBlocks(README);
      for (const block of blocks)
        if (block.notRun) process.stderr.write(`readme.test.ts: README line ${block.line} not run: ${block.notRun}\n`);
      const script = blocks
        .filter((block) => !block.notRun)
        .map(
          (block) =>
            `# README line ${block.line}\n${block.commands.replace(EMULATOR_LINE, `pds emulator start --quiet --port ${port} &`)}`,
        )
        .join('\n');
      // The Quick start's own commands (npm install, npm test) would run this suite again.
      expect(script).not.toMatch(/^\s*npm /m);
      const path = [...new Set([dirname(process.execPath), '/usr/bin', '/bin'])].join(':');
      const env = { PATH: path, HOME: home, LANG: 'C.UTF-8', TZ: 'UTC', PDS_API_URL: `http://127.0.0.1:${port}` };
      // Before the README's first lines, this shell has no pds.
      expect(spawnSync('bash', ['--norc', '--noprofile', '-c', 'command -v pds'], { env, cwd: work }).status).not.toBe(
        0,
      );

      // Its own process group, so that the emulator it leaves in the background is stopped with it.
      const child = spawn(
        'bash',
        [
          '--norc',
          '--noprofile',
          '-c',
          `set -eo pipefail\ntrap 'echo "README command failed (exit $?): $BASH_COMMAND" >&2' ERR\n${script}`,
        ],
        {
          cwd: work,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const stopGroup = (signal: NodeJS.Signals) => {
        try {
          process.kill(-(child.pid as number), signal);
        } catch {
          // Nothing left in the group.
        }
      };
      const killer = setTimeout(() => stopGroup('SIGKILL'), 50_000);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      clearTimeout(killer);
      // The emulator still holds the pipes: stopped as Ctrl-C would, its output then ends.
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      stopGroup('SIGINT');
      const late = setTimeout(() => stopGroup('SIGKILL'), 3_000);
      await closed;
      clearTimeout(late);
      expect(code, `stderr:\n${stderr.slice(-3000)}`).toBe(0);
      expect(stderr).not.toContain('README command failed');
      expect(stderr).not.toContain('command not found');

      // A few answers: pds was put on PATH as the README says, the login and `pds use` were saved,
      // the lists answered.
      expect(lstatSync(join(home, '.local', 'bin', 'pds')).isSymbolicLink()).toBe(true);
      const config = JSON.parse(readFileSync(join(home, '.config', 'pds', 'config.json'), 'utf8')) as {
        profiles: Record<string, { project?: string }>;
      };
      expect(config.profiles.default?.project).toBe(DEMO_PROJECT);
      expect(stdout).toContain(DEMO_PROJECT);
      expect(stdout).toMatch(/^ID\tNAME\t/m);
      expect(existsSync(join(work, 'deal.pdf'))).toBe(true);
      rmSync(dir, { recursive: true, force: true });
    },
    60_000,
  );
});

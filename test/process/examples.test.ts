// Every example pds shows, in its help and in the README, run as written by bash against an
// emulator (the built bin/pds.js as `pds` on PATH), so no example is broken. An example that needs
// what a test cannot give (a real service, a terminal, a server left running) says so in its
// definition, and the reason is printed here instead of running it. An example with --jq or
// --fields prints no null: the fields it names are the default (deployed) flavor's.
import {
  cpSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { COMMANDS } from '../../src/commands/index.js';
import { ROOT_EXAMPLES } from '../../src/program.js';
import { HELP_EXAMPLES } from '../../src/lib/verbs/help.js';
import type { AnyVerb, Example, NounDef } from '../../src/lib/verbs/verb.js';
import { testEmulator } from '../helpers/emulator.js';
import { PDS_BIN, childEnv, runPds } from '../helpers/process.js';

const README = [new URL('../../README.md', import.meta.url), new URL('../../docs/guide.md', import.meta.url)];
const SAMPLE_PDF = new URL('../fixtures/sample.pdf', import.meta.url);

function helpExamples(): Example[] {
  const all: Example[] = [...ROOT_EXAMPLES, ...HELP_EXAMPLES];
  const verbExamples = (verb: AnyVerb) => all.push(...(verb.examples ?? []));
  for (const entry of COMMANDS) {
    if ('verbs' in entry) {
      const noun: NounDef = entry;
      all.push(...(noun.examples ?? []));
      if (noun.ownVerb) verbExamples(noun.ownVerb);
      noun.verbs.forEach(verbExamples);
    } else verbExamples(entry);
  }
  return all;
}

/**
 * The README's `pds …` lines in sh blocks, without their comments. What they need beyond the
 * emulator is read from the line, as the README has no place to mark it.
 */
function readmeExamples(): Example[] {
  const text = README.map((file) => readFileSync(file, 'utf8')).join('\n');
  const examples: Example[] = [];
  for (const block of text.matchAll(/```sh\n([^]*?)```/g)) {
    for (const raw of (block[1] ?? '').split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      if (!/(^|\| )pds /.test(line)) continue;
      examples.push([line, undefined, readmeNeeds(line)]);
    }
  }
  return examples;
}

function readmeNeeds(line: string): string | undefined {
  if (line.includes('pds.example.com')) return 'a real service';
  if (/^pds emulator start/.test(line)) return 'a server left running (the emulator tests start and stop it)';
  if (/pds auth login( --web|$| --web --no-browser)/.test(line) && !line.includes('token'))
    return 'a browser or a terminal';
  if (/pds sandbox shell/.test(line)) return 'a terminal';
  if (line.includes('${fpath')) return 'zsh (the line is zsh syntax)';
  if (line.endsWith('| source')) return 'fish (the line is fish syntax)';
  return undefined;
}

/** A program a pipeline hands pds's output to, when this machine lacks it (`| pdftotext - -`). */
function missingProgram(line: string): string | undefined {
  const unquoted = line.replace(/'[^']*'|"[^"]*"/g, "''");
  for (const stage of unquoted.split('|').slice(1)) {
    const program = stage.trim().split(/\s+/)[0];
    if (program && program !== 'pds' && spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0)
      return `${program} installed`;
  }
  return undefined;
}

let emulator: Emulator;
let work: string;
let preparedConfig: string;

beforeAll(async () => {
  // The flavor `pds emulator start` serves by default, which the examples are written for.
  emulator = await testEmulator({ flavor: 'deployed' });
  work = mkdtempSync(join(tmpdir(), 'pds-examples-'));
  // `pds` on PATH is the built CLI; the files the examples name exist.
  mkdirSync(join(work, 'bin'));
  symlinkSync(PDS_BIN, join(work, 'bin', 'pds'));
  for (const name of ['deal.pdf', 'q1.pdf', 'statements/q1.pdf', 'statements/q2.pdf']) {
    mkdirSync(join(work, 'files', name, '..'), { recursive: true });
    copyFileSync(SAMPLE_PDF, join(work, 'files', name));
  }
  // Statements in other formats than PDF, as the upload examples name them.
  writeFileSync(join(work, 'files', 'sales.csv'), 'isrc,units,amount\nUSRC17607839,120,3.60\n');
  writeFileSync(join(work, 'files', 'q1.txt.gz'), gzipSync('isrc\tunits\nUSRC17607839\t120\n'));
  const xlsx = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(512, 7)]);
  for (const name of ['q1.xlsx', 'royalties.xlsx']) writeFileSync(join(work, 'files', name), xlsx);
  writeFileSync(join(work, 'files', 'token.txt'), 'demo-org-token\n');
  writeFileSync(join(work, 'files', 'commands.txt'), '# the workspace\nls\ncat stats.yaml\n');
  // A config with the default profile and a `staging` one, both signed in and in the demo project.
  preparedConfig = join(work, 'config');
  for (const profile of ['default', 'staging']) {
    const login = await runPds(['--profile', profile, 'auth', 'login', '--with-token'], {
      env: { PDS_CONFIG_DIR: preparedConfig, PDS_API_URL: emulator.url, PDS_TOKEN: undefined, PDS_PROJECT: undefined },
      stdin: 'demo-org-token\n',
    });
    expect(login.code, login.stderr).toBe(0);
    const use = await runPds(['--profile', profile, 'use', 'Northern Lights Catalog'], {
      env: { PDS_CONFIG_DIR: preparedConfig, PDS_API_URL: emulator.url, PDS_TOKEN: undefined, PDS_PROJECT: undefined },
    });
    expect(use.code, use.stderr).toBe(0);
  }
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** One example in bash, in a copy of the prepared config and files, with a home of its own. */
async function runExample(
  line: string,
  index: number,
): Promise<{ code: number | null; output: string; stdout: string }> {
  const dir = join(work, `run-${index}`);
  cpSync(join(work, 'files'), dir, { recursive: true });
  cpSync(preparedConfig, join(dir, '.config', 'pds'), { recursive: true });
  for (const sub of ['.local/share/bash-completion/completions', '.config/fish/completions'])
    mkdirSync(join(dir, sub), { recursive: true });
  const env = childEnv({
    PATH: `${join(work, 'bin')}:${process.env.PATH ?? ''}`,
    HOME: dir,
    PDS_CONFIG_DIR: join(dir, '.config', 'pds'),
    PDS_API_URL: emulator.url,
    PDS_TOKEN: undefined,
    PDS_PROJECT: undefined,
    PDS_PROFILE: undefined,
    TOKEN: 'demo-org-token',
  });
  const child = spawn('bash', ['-c', `set -o pipefail; ${line}`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exit) => resolve(exit)));
  clearTimeout(killer);
  return { code, output, stdout };
}

const examples = [
  ...new Map([...helpExamples(), ...readmeExamples()].map((example) => [example[0], example])).values(),
];

describe('every example of help and the README runs against the emulator', () => {
  it('collects the examples', () => {
    expect(examples.length).toBeGreaterThan(60);
  });

  examples.forEach(([line, , given], index) => {
    const needs = given ?? missingProgram(line);
    if (needs !== undefined) {
      process.stderr.write(`examples: not run here, needs ${needs}: ${line}\n`);
      return;
    }
    it(line, async () => {
      const { code, output, stdout } = await runExample(line, index);
      expect(code, output).toBe(0);
      // An example that names fields (--jq, --fields) names ones the default flavor's records have.
      if (/--jq|--fields/.test(line)) expect(stdout, `a null printed by: ${line}`).not.toMatch(/\bnull\b/);
    }, 30_000);
  });
});

// What a job page shows of pds, with steps run as GitHub's runner runs them (test/helpers/runner.ts)
// and the log read as the runner reads it (workflow-commands.ts): annotations within GitHub's 10 a
// step, file names escaped in their properties, `pds statements check` as a gate that names its
// statements, hints without desktop commands, and data formats byte for byte under GITHUB_ACTIONS.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { PDS_BIN } from '../helpers/process.js';
import { actionStepEnv, job, ROOT, readAction } from '../helpers/runner.js';
import { obeyed } from '../helpers/workflow-commands.js';

const emulator = sharedEmulator({ flavor: 'current' });
const deployed = sharedEmulator({ flavor: 'deployed' });
const ACTION = join(ROOT, 'action');
const step = (id: string) => readAction(ACTION).runs.steps.find((s) => s.id === id)?.run ?? '';

/** A PDF cut short (no %%EOF): it fails the service's staging check. */
const DAMAGED = '%PDF-1.4\n1 0 obj << >> endobj\n';

describe('annotations within GitHub cap of 10 a step', () => {
  it('14 damaged files: 9 annotated, the closing annotation counts the other 5, the summary has every reason', async () => {
    const runner = job();
    const dir = join(runner.workspace, 'damaged');
    execFileSync('mkdir', [dir]);
    // A name with ESC, BEL, a right-to-left override and the property separators.
    const odd = 'a\u001b[31m\u0007\u202eodd:, 100%.pdf';
    writeFileSync(join(dir, odd), DAMAGED);
    for (let i = 1; i < 14; i++) writeFileSync(join(dir, `d${String(i).padStart(2, '0')}.pdf`), DAMAGED);
    const env = actionStepEnv(ACTION, 'upload', {
      files: dir,
      kind: 'statement',
      project: DEMO_PROJECT,
      token: 'demo-org-token',
      'api-url': emulator.url,
      'skip-existing': 'false',
      args: '--interval 1',
    });
    const end = await runner.run(step('upload'), env);
    expect(end.code, end.stderr).toBe(7);
    const errors = [...obeyed(end.stdout), ...obeyed(end.stderr)].filter((line) => line.startsWith('::error'));
    expect(errors).toHaveLength(10);
    const files = errors.filter((line) => line.startsWith('::error file='));
    expect(files).toHaveLength(9);
    // The odd name: its controls left out, `:`, `,` and `%` escaped.
    expect(files[0]).toMatch(/^::error file=damaged\/a\[31modd%3A%2C 100%25\.pdf,title=pds upload::processing failed/);
    for (const line of errors) expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
    expect(errors[9]).toMatch(/^::error title=pds upload statement failed \(exit 7\)::/);
    expect(errors[9]).toContain('5 more failed files without an annotation: the step summary lists every one');
    // Every file in the summary with its reason.
    const rows = runner
      .summary()
      .split('\n')
      .filter((line) => /^\| damaged\//.test(line));
    expect(rows).toHaveLength(14);
    for (const row of rows) expect(row).toMatch(/\| processing failed \| staging id \d+ \| \S.* \|$/);
    expect(runner.outputs()).toMatchObject({ failed: '14', 'exit-code': '7' });
  });
});

describe('pds statements check as a gate in a later step', () => {
  it('names each statement that disagrees (payor, period, difference) in an annotation and the summary; no network hint', async () => {
    const runner = job();
    const install = await runner.run(step('install'), actionStepEnv(ACTION, 'install', {}));
    expect(install.code, install.stderr).toBe(0);
    const gate = await runner.run('exec pds statements check --all\n', {
      PDS_TOKEN: 'demo-org-token',
      PDS_PROJECT: DEMO_PROJECT,
      PDS_API_URL: deployed.url,
    });
    expect(gate.code, gate.stderr).toBe(1);
    const errors = [...obeyed(gate.stdout), ...obeyed(gate.stderr)].filter((line) => line.startsWith('::error'));
    // The emulator's deployed statements: 40005's financials say 0.05 more than its lines.
    const disagrees = errors.find((line) => line.includes('statement 40005'));
    expect(disagrees).toMatch(/^::error title=statement 40005 \(payor [^)]+%2C \d{4}[QHMY]\d*\)%3A lines disagree::/);
    expect(disagrees).toMatch(/financials say [\d,.]+ \w{3} \(difference -0\.05 \w{3}\)$/);
    // 40023 repeats 40022: one annotation for the pair (the `,` escaped in the title).
    expect(errors).toContainEqual(
      expect.stringMatching(/^::error title=statements 40022%2C 40023 \(payor [^)]+\)%3A duplicate::/),
    );
    const closing = errors.at(-1) as string;
    expect(closing).toMatch(
      /^::error title=pds statements check failed \(exit 1\)::in CI: the annotations and the step summary name each statement/,
    );
    for (const line of errors) expect(line).not.toMatch(/api-url|service is up/);
    expect(errors.length).toBeLessThanOrEqual(10);
    const summary = runner.summary();
    expect(summary).toMatch(/^### pds statements check: \d+ failing \(\d+ statements\)$/m);
    expect(summary).toMatch(/^\| statement 40005 \| [^|]+ \| \d{4}[QHMY]\d* \| lines \| -0\.05 \w{3} \| /m);
  });
});

describe('hints for CI', () => {
  it('no token: the annotation and summary say which secret to set, not `pds auth login`', async () => {
    const runner = job();
    const end = await runner.run(`exec node ${JSON.stringify(PDS_BIN)} projects ls\n`, {
      PDS_API_URL: emulator.url,
      PDS_CONFIG_DIR: runner.temp,
    });
    expect(end.code).toBe(3);
    // stdout would carry data (TSV): pds's own annotation goes to stderr.
    const errors = obeyed(end.stderr).filter((line) => line.startsWith('::error'));
    expect(errors).toEqual([
      expect.stringMatching(/^::error title=pds projects ls failed \(exit 3\)::.*in CI: set the repository secret/),
    ]);
    expect(errors[0]).not.toContain('pds auth login');
    expect(runner.summary()).not.toContain('pds auth login');
    // The log for a person still says how to sign in.
    expect(end.stderr).toContain('pds auth login');
  });
});

describe('data formats under GITHUB_ACTIONS', () => {
  it('`pds statements ls --format csv | gzip > file` gives the same bytes with and without GITHUB_ACTIONS', async () => {
    const runner = job();
    // A statement whose file name a runner would read as a command anywhere in a line.
    const name = 'x ##[warning]boo.csv';
    writeFileSync(join(runner.workspace, name), 'period,amount\n2026Q1,1\n');
    const env = {
      PDS_TOKEN: 'demo-org-token',
      PDS_PROJECT: DEMO_PROJECT,
      PDS_API_URL: deployed.url,
      PDS_CONFIG_DIR: runner.temp,
    };
    const pds = `node ${JSON.stringify(PDS_BIN)}`;
    // --wait: the statement is processed before the two listings, which then list the same record.
    const uploaded = await runner.run(`exec ${pds} upload statement ${JSON.stringify(name)} --wait\n`, env);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const listed = (file: string, actions: string) =>
      runner.run(`${pds} statements ls --all --format csv | gzip > ${file}\n`, { ...env, GITHUB_ACTIONS: actions });
    expect((await listed('ci.csv.gz', 'true')).code).toBe(0);
    expect((await listed('plain.csv.gz', '')).code).toBe(0);
    const ci = gunzipSync(readFileSync(join(runner.workspace, 'ci.csv.gz'))).toString('utf8');
    const plain = gunzipSync(readFileSync(join(runner.workspace, 'plain.csv.gz'))).toString('utf8');
    expect(plain).toContain('##[warning]boo.csv');
    expect(ci).toBe(plain);
  });
});

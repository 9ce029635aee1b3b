// A CI job a team can gate on (issue 36), through the built bin/pds.js in a simulated GitHub Actions
// runner: GITHUB_ACTIONS, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE and RUNNER_* set,
// both streams read through pipes, against the emulator.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv, until } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
// The deployed service's forms, with processing slow enough that a re-run comes while it is queued.
const deployed = sharedEmulator({ flavor: 'deployed', processingMs: 120_000 });

interface Runner {
  workspace: string;
  env: Record<string, string | undefined>;
  outputs(): Record<string, string>;
  summary(): string;
}

/** A runner's step: a workspace, the files the runner gives the step, and its variables. */
function runner(extra: Record<string, string | undefined> = {}, url = emulator.url): Runner {
  const workspace = mkdtempSync(join(tmpdir(), 'pds-workspace-'));
  const temp = mkdtempSync(join(tmpdir(), 'pds-runner-'));
  const output = join(temp, 'output');
  const summary = join(temp, 'summary.md');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  return {
    workspace,
    env: signedInEnv(url, {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: temp,
      RUNNER_OS: 'Linux',
      ...extra,
    }),
    outputs: () => {
      // The last value of each name wins, as the runner reads the file.
      const pairs = readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
      return Object.fromEntries(pairs);
    },
    summary: () => readFileSync(summary, 'utf8'),
  };
}

/** A statement folder: `good.csv` and a PDF cut short (no %%EOF), which fails its staging check. */
function damagedBatch(workspace: string): string {
  const dir = join(workspace, 'statements');
  mkdirSync(dir);
  writeFileSync(join(dir, 'good.csv'), 'period,amount\n2026Q1,1\n');
  writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.4\n1 0 obj << >> endobj\n');
  return dir;
}

describe('a job with one damaged statement', () => {
  it('fails, and fails again on a re-run; outputs, JSON, JUnit and summary count the processing failure', async () => {
    const job = runner();
    const dir = damagedBatch(job.workspace);
    const junit = join(job.workspace, 'pds.xml');
    const json = join(job.workspace, 'pds.json');
    const args = ['upload', 'statement', dir, '--wait', '--skip-existing', '--report', `junit=${junit}`];
    const first = await runPds([...args, '--report', `json=${json}`], { env: job.env });
    expect(first.code).toBe(7);
    const outputs = job.outputs();
    const good = emulator.state.uploads.findLast((u) => u.file_name === 'good.csv');
    expect(outputs).toEqual({
      uploaded: '1',
      skipped: '0',
      failed: '1',
      processed: '1',
      'processing-failed': '1',
      'staging-ids': expect.stringMatching(/^\d+,\d+$/),
      'statement-ids': String(good?.result_id),
      'exit-code': '7',
      error: expect.stringMatching(/^statements\/broken\.pdf: processing failed \(staging id \d+\)$/),
    });
    const report = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown> & { files: { file: string }[] };
    expect(report).toMatchObject({ uploaded: 1, skipped: 0, failed: 1, processed: 1, processing_failed: 1 });
    // Named as the job page names them: relative to the workspace.
    expect(report.files.map((f) => f.file)).toEqual(['statements/broken.pdf', 'statements/good.csv']);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="pds upload statement" tests="2" failures="1" errors="0" skipped="0"');
    expect(xml).toContain('<testcase classname="pds upload statement" name="statements/broken.pdf"');
    expect(job.summary()).toContain('| statements/broken.pdf | processing failed | staging id ');
    // stdout carries the TSV (data): pds's own annotations are on stderr.
    expect(first.stderr).toContain('::error file=statements/broken.pdf,title=pds upload::processing failed');

    // The re-run: the good file is there already; the damaged one is not "already uploaded".
    const again = await runPds(args, { env: job.env });
    expect(again.code).toBe(7);
    expect(again.stderr).toMatch(/^skipped \S*good\.csv: already uploaded \(statement \d+\)$/m);
    expect(again.stderr).toMatch(/^error: statements\/broken\.pdf: processing failed \(staging id \d+\)$/m);
    expect(job.outputs()).toMatchObject({ uploaded: '0', skipped: '1', failed: '1', 'processing-failed': '1' });
    expect(emulator.state.uploads.filter((u) => u.file_name === 'broken.pdf' && u.staging_error)).toHaveLength(2);
  });
});

describe('a re-run at once after a batch without --wait', () => {
  it('uploads nothing again: the statements still queued are there already', async () => {
    const job = runner({}, deployed.url);
    const dir = join(job.workspace, 'statements');
    mkdirSync(dir);
    for (const name of ['a.csv', 'b.csv', 'c.csv']) writeFileSync(join(dir, name), `period,amount\n2026Q1,${name}\n`);
    const args = ['upload', 'statement', dir, '--skip-existing'];
    const first = await runPds(args, { env: job.env });
    expect(first.code).toBe(0);
    const listed = await call(deployed, `/v1/statements?projectId=${job.env.PDS_PROJECT}&extractionStage=queued`);
    const queued = ((await listed.json()) as { data: { items: { file_name: string }[] } }).data.items.map(
      (s) => s.file_name,
    );
    expect(queued).toEqual(expect.arrayContaining(['a.csv', 'b.csv', 'c.csv']));

    const again = await runPds(args, { env: job.env });
    expect(again.code).toBe(0);
    for (const name of ['a.csv', 'b.csv', 'c.csv']) {
      expect(again.stderr).toMatch(
        new RegExp(`^skipped statements/${name.replace('.', '\\.')}: already uploaded \\(statement \\d+\\)$`, 'm'),
      );
    }
    const mints = deployed.requests.filter((r) => r.method === 'POST' && r.path === '/v1/statements/uploads');
    expect(mints).toHaveLength(3);
    expect(job.outputs()).toMatchObject({ uploaded: '0', skipped: '3', failed: '0' });
  });
});

describe('the log of a batch without --wait', () => {
  it('one line per file, named from the workspace; the follow-up once; a group past 10 files', async () => {
    const job = runner();
    const dir = join(job.workspace, 'many');
    mkdirSync(dir);
    const names = Array.from({ length: 11 }, (_, i) => `log-${String(i).padStart(2, '0')}.csv`);
    for (const name of names) writeFileSync(join(dir, name), `period,amount\n2026Q1,${name}\n`);
    const big = await runPds(['upload', 'statement', dir, '--concurrency', '1'], { env: job.env });
    expect(big.code).toBe(0);
    const ids = names.map((name) => emulator.state.uploads.findLast((u) => u.file_name === name)?.staging_id);
    const bytes = (name: string) => Buffer.byteLength(`period,amount\n2026Q1,${name}\n`);
    const followUp =
      "processing goes on in the service: follow an upload with `pds statements status <staging-id>` (the staging ids are above and in the step's outputs)";
    const lines = big.stderr.split('\n');
    expect(lines.slice(0, -2)).toEqual([
      '::group::pds upload statement: 11 files',
      ...names.map((name, i) => `uploaded many/${name} (${bytes(name)} B): staging id ${ids[i]}, queued`),
      '::endgroup::',
      followUp,
    ]);
    expect(lines.at(-2)).toMatch(/^11 uploaded, 0 skipped, 0 failed \(\d+\.\ds\)$/);

    // Ten files or fewer: no group.
    const two = await runPds(['upload', 'statement', join(dir, names[0] as string), join(dir, names[1] as string)], {
      env: job.env,
    });
    expect(two.stderr.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^uploaded many\/log-00\.csv \(32 B\): staging id \d+, queued$/),
      expect.stringMatching(/^uploaded many\/log-01\.csv \(32 B\): staging id \d+, queued$/),
      followUp,
    ]);
  });
});

/** A loopback port nothing listens on: one the system gave and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a refused connection on the upload request', () => {
  it('is said as "cannot reach", and tried again within the budget: nothing had reached the service', async () => {
    const job = runner();
    const dir = damagedBatch(job.workspace);
    const port = await closedPort();
    const env = { ...job.env, PDS_API_URL: `http://127.0.0.1:${port}` };
    const refused = await runPds(['upload', 'statement', join(dir, 'good.csv'), '--retry-budget', '0'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `error: statements/good.csv: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)\n`,
    );
    expect(refused.stderr).not.toContain('got no answer');

    // With a budget, tried again (the trace says so) before it is said the same way.
    const retried = await runPds(['upload', 'statement', join(dir, 'good.csv'), '--retry-budget', '60', '--verbose'], {
      env,
    });
    expect(retried.code).toBe(1);
    expect(retried.stderr).toMatch(/^\* retrying in \d+ ms \(attempt 2 of \d+\)$/m);
    expect(retried.stderr).toContain(
      `error: statements/good.csv: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)\n`,
    );
  });
});

describe('whole-command failures leave an annotation, a summary and outputs', () => {
  const OTHER_PROJECT = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
  const cases: [string, (job: Runner) => Promise<Record<string, string>>, string[], number, RegExp][] = [
    ['a wrong token', async () => ({ PDS_TOKEN: 'wrong-token' }), [], 3, /set the repository secret/],
    [
      'a token without the project',
      async () => ({ PDS_TOKEN: 'demo-project-token', PDS_PROJECT: OTHER_PROJECT }),
      [],
      4,
      /the token has no access to this project: check the `project` input/,
    ],
    [
      'the service down',
      async () => ({ PDS_API_URL: `http://127.0.0.1:${await closedPort()}` }),
      [],
      1,
      /check the `api-url` input/,
    ],
    ['bad usage', async () => ({}), ['--concurrency', '0'], 2, /fix the step's inputs/],
    ['no project', async () => ({ PDS_PROJECT: undefined }), [], 2, /fix the step's inputs/],
  ];
  for (const [what, env, flags, code, hint] of cases) {
    it(`${what}: exit ${code}`, async () => {
      const job = runner();
      const dir = damagedBatch(job.workspace);
      const run = await runPds(['upload', 'statement', join(dir, 'good.csv'), ...flags], {
        env: { ...job.env, ...(await env(job)) },
      });
      expect(run.code).toBe(code);
      const own = run.stderr.split('\n').filter((line) => line.startsWith('::error title=pds upload statement'));
      expect(own).toHaveLength(1);
      expect(own[0]).toMatch(new RegExp(`^::error title=pds upload statement failed \\(exit ${code}\\)::`));
      expect(own[0]).toMatch(new RegExp(`in CI: .*${hint.source}`));
      expect(job.summary()).toContain(`### pds upload statement failed (exit ${code})\n`);
      expect(job.summary()).toMatch(/\*\*In CI:\*\* /);
      expect(job.outputs()['exit-code']).toBe(String(code));
      expect(job.outputs().error).toBeTruthy();
    });
  }
});

describe('a rate limit is waited for, not failed', () => {
  it('a service that refuses the first upload request with 429 and Retry-After: 1: the batch succeeds after about a second', async () => {
    const job = runner();
    const dir = join(job.workspace, 'limited');
    mkdirSync(dir);
    for (const name of ['a', 'b', 'c']) writeFileSync(join(dir, `${name}.csv`), `period,amount\n2026Q1,${name}\n`);
    const before = Math.max(0, ...emulator.state.uploads.map((u) => u.staging_id));
    emulator.faults.rateLimitOnce.push('POST /v1/statements/uploads');
    const started = Date.now();
    const run = await runPds(['upload', 'statement', dir, '--concurrency', '1'], { env: job.env });
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(run.stderr).toMatch(/^warning: rate limited \(.*\): retrying in 1 s \(Ctrl-C to stop\)$/m);
    const mints = emulator.requests.filter((r) => r.method === 'POST' && r.path === '/v1/statements/uploads');
    expect(mints.map((r) => r.status)).toEqual([429, 200, 200, 200]);
    expect(emulator.state.uploads.filter((u) => u.staging_id > before)).toHaveLength(3);
    expect(job.outputs()).toMatchObject({ uploaded: '3', failed: '0' });
  });
});

describe('a rate limit slows the batch down', () => {
  it('after a 429 on an upload request, fewer uploads are in flight until its wait has passed', async () => {
    const job = runner();
    const dir = join(job.workspace, 'slowed');
    mkdirSync(dir);
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, `s${i}.csv`), `period,amount\n2026Q1,${i}\n`);
    const running = runPds(['upload', 'statement', dir, '--concurrency', '4'], { env: job.env });
    // A request for an upload URL is refused once the batch runs four at once (past the first
    // upload, which finds the service's upload flow alone).
    await until(
      () => emulator.requests.some((r) => r.path === '/v1/statements/uploads/complete'),
      'the first upload completed',
    );
    emulator.faults.rateLimitOnce.push('POST /v1/statements/uploads');
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(job.outputs()).toMatchObject({ uploaded: '40', failed: '0' });
    // In flight, as the emulator saw it: uploads given a URL and not completed yet.
    const flows = emulator.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/statements/uploads'));
    const limited = flows.findIndex((r) => r.status === 429);
    expect(limited).toBeGreaterThanOrEqual(0);
    // Each upload that starts while the limit lasts (its Retry-After: 1 s) finds at most one other
    // in flight: half of four, the one that waits holding a place. Without the slowing, three.
    const limitEnds = (flows[limited] as { at: number }).at + 1000;
    let open = 0;
    const openAtStart: number[] = [];
    // The three others may have been let go before the 429 came: the count starts after them.
    let admittedBefore = 3;
    flows.forEach((request, i) => {
      const starts = request.path === '/v1/statements/uploads' && request.status === 200;
      if (starts && i > limited && request.at < limitEnds && admittedBefore-- <= 0) openAtStart.push(open);
      if (starts) open++;
      if (request.path === '/v1/statements/uploads/complete') open--;
    });
    expect(openAtStart.length).toBeGreaterThan(0);
    expect(Math.max(...openAtStart)).toBeLessThanOrEqual(1);
    expect(flows.filter((r) => r.path === '/v1/statements/uploads')).toHaveLength(41);
  });
});

describe('no listener leak', () => {
  it('a 50-file --wait batch prints no (node: warning: one abort listener per batch, not per file', async () => {
    const job = runner();
    const dir = join(job.workspace, 'fifty');
    mkdirSync(dir);
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, `f${i}.csv`), `period,amount\n2026Q1,${i}\n`);
    const run = await runPds(['upload', 'statement', dir, '--wait', '--interval', '1', '-q'], {
      env: job.env,
      killAfterMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(job.outputs()).toMatchObject({ uploaded: '50', processed: '50', failed: '0' });
    expect(run.stderr).not.toContain('(node:');
  }, 70_000);
});

describe('the CI log and reports', () => {
  it('an unsupported file in a directory is listed as skipped with why: log, summary and a JUnit skipped case', async () => {
    const job = runner();
    const dir = join(job.workspace, 'mixed');
    mkdirSync(dir);
    writeFileSync(join(dir, 'sales.csv'), 'period,amount\n2026Q1,1\n');
    writeFileSync(join(dir, 'notes.docx'), 'not a statement');
    const junit = join(job.workspace, 'pds.xml');
    const run = await runPds(['upload', 'statement', dir, '--report', `junit=${junit}`], { env: job.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^skipped \S*notes\.docx: '\.docx' is not a statement format the service takes; /m);
    expect(job.summary()).toMatch(
      /^\| mixed\/notes\.docx \| skipped \| unsupported: '\.docx' is not a statement format/m,
    );
    expect(job.outputs()).toMatchObject({ uploaded: '1', skipped: '1', failed: '0' });
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('tests="2" failures="0" errors="0" skipped="1"');
    expect(xml).toMatch(
      /name="mixed\/notes\.docx" time="[\d.]+">\n\s+<skipped message="unsupported: &apos;\.docx&apos; is not a statement format/,
    );
  });
});

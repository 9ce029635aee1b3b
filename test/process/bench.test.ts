// `npm run bench` in its quick mode: it prints the table and writes valid JSON. Only the shape is
// checked, never a timing (the figures depend on the machine; the bench reports, it does not judge).
// And its floors print exactly what pds prints, so that each comparison is of the same work.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { promisify } from 'node:util';
import { testEmulator } from '../helpers/emulator.js';
import { childEnv, runPds, signedInEnv } from '../helpers/process.js';

const bench = fileURLToPath(new URL('../../scripts/bench.js', import.meta.url));
const walk = fileURLToPath(new URL('../../scripts/floor/walk.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pds-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runBench(
  resultsFile: string,
  parts: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bench, ...parts], {
    env: childEnv({ BENCH_QUICK: '1', BENCH_RESULTS: resultsFile, BENCH_RUNS: undefined }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('npm run bench (BENCH_QUICK=1)', () => {
  it('prints one table of figures beside their floors and writes the same rows as JSON', async () => {
    const resultsFile = join(dir, 'results.json');
    const { code, stdout, stderr } = await runBench(resultsFile);
    expect(stderr).toContain('BENCH_QUICK');
    expect(code).toBe(0);

    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as {
      node: string;
      quick: boolean;
      rows: Record<string, unknown>[];
    };
    expect(results.node).toBe(process.version);
    expect(results.quick).toBe(true);
    const figures = results.rows.map((row) => row.figure);
    for (const expected of [
      'pds --version, ms',
      'pds projects ls, ms',
      'pds artists ls --all --json, 1000 artists, wall ms',
      'pds artists ls --all --json, 1000 artists, CPU ms',
      'pds artists ls --all --json, 1000 artists, peak RSS over the small run',
      'pds artists ls --all --format ndjson, 1000 artists, wall ms',
      'pds artists ls --all --format ndjson, 1000 artists, CPU ms',
      'pds artists ls --all --format ndjson, 1000 artists, peak RSS over the small run',
      'pds artists ls --all --format csv, 1000 artists, wall ms',
      'pds artists ls --all --format csv, 1000 artists, CPU ms',
      'pds artists ls --all --format csv, 1000 artists, peak RSS over the small run',
      'emulator: a bare client walks 1000 artists, 8 pages at a time, ms',
      'pds artists ls --all --json, 1000 artists, wall ms, beside a walk that checks as pds does',
      'pds artists ls --all --json, 1000 artists, CPU ms, beside a walk that checks as pds does',
      'bare walk of 1000 artists, peak RSS over the small run',
      'checked walk of 1000 artists, peak RSS over the small run',
      'pds upload statement (5 MB PDF, signed URL), peak RSS',
      'pds upload statement (5 MB PDF, multipart fallback), peak RSS',
      'emulator: GET p99 during those execs, ms',
      'emulator: GET /v1/projects, 50 connections, requests/s',
      'emulator: GET /v1/projects, 50 connections, server CPU per request, µs',
    ]) {
      expect(figures).toContain(expected);
    }
    for (const row of results.rows) {
      expect(typeof row.pds).toBe('number');
      expect(Number.isFinite(row.pds)).toBe(true);
      if (row.base !== undefined) expect(row.ratio).toBeCloseTo((row.pds as number) / (row.base as number), 6);
      // A row with a goal says whether it is met; one without says nothing.
      expect(row.met === undefined ? row.goal : typeof row.met).toBe(row.met === undefined ? '' : 'boolean');
    }
    // The start-up figures are compared with bare node in the same run.
    expect(results.rows.find((row) => row.figure === 'pds projects ls, ms')?.baseIs).toBe('bare node');
    expect(
      results.rows.find((row) => String(row.figure).endsWith('beside a walk that checks as pds does'))?.baseIs,
    ).toBe('checked walk');
    expect(results.rows.find((row) => String(row.figure).endsWith('requests/s'))?.baseIs).toBe('bare node:http server');

    // The table: a header, then one line per row, in the same order, with the verdict last.
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^figure +pds +bare node +ratio +goal$/);
    const body = lines.slice(1, 1 + results.rows.length);
    expect(body.map((line) => line.slice(0, line.indexOf('  ')))).toEqual(figures.map((figure) => String(figure)));
    for (const [index, line] of body.entries()) {
      const met = results.rows[index]?.met;
      if (met !== undefined) expect(line.endsWith(met ? 'met' : 'MISSED')).toBe(true);
    }
    const missed = results.rows.filter((row) => row.met === false).map((row) => row.figure);
    expect(lines.at(-1)).toBe(missed.length === 0 ? 'every goal met' : `goals missed: ${missed.join('; ')}`);
  }, 240_000);

  it('runs only the parts it is given, and leaves the results file as it is', async () => {
    const resultsFile = join(dir, 'untouched.json');
    const { code, stdout } = await runBench(resultsFile, ['emulator']);
    expect(code).toBe(0);
    const figures = stdout
      .trimEnd()
      .split('\n')
      .slice(1, -2)
      .map((line) => line.slice(0, line.indexOf('  ')));
    expect(figures.length).toBeGreaterThan(0);
    for (const figure of figures) expect(figure).toMatch(/^emulator/);
    expect(() => readFileSync(resultsFile)).toThrow(/ENOENT/);
  }, 240_000);

  it('refuses a part it does not know, naming the parts', async () => {
    const { code, stdout, stderr } = await runBench(join(dir, 'none.json'), ['emulators']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'unknown part emulators: the parts are startup, lists, uploads, emulator, rollup, files\n',
    );
  });
});

describe('the floor of the list figures (scripts/floor/walk.js)', () => {
  it('prints byte for byte what pds prints, plain and --checked, in each format', async () => {
    // 1,000 artists: ten full pages, then the empty page that ends the walk.
    const emulator = await testEmulator({ flavor: 'current', scale: 10 });
    try {
      const env = childEnv(signedInEnv(emulator.url));
      const floor = async (...args: string[]) =>
        (await promisify(execFile)(process.execPath, [walk, '/v1/artists', ...args], { env, maxBuffer: 1 << 26 }))
          .stdout;
      for (const [format, flags] of [
        ['json', ['--json']],
        ['ndjson', ['--format', 'ndjson']],
        ['csv', ['--format', 'csv']],
      ] as const) {
        const pds = await runPds(['artists', 'ls', '--all', ...flags], { env: signedInEnv(emulator.url) });
        expect(pds.code).toBe(0);
        expect(pds.stdout.split('\n').length).toBeGreaterThan(1000);
        expect(await floor(format)).toBe(pds.stdout);
        expect(await floor(format, '--checked')).toBe(pds.stdout);
      }
    } finally {
      await emulator.close();
    }
  }, 60_000);
});
